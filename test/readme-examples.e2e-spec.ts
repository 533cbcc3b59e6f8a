/**
 * Every shell example of README.md runs, in order, against a service started on a fresh database.
 *
 * The conventions the README follows, and how this test reads them:
 *
 * - A ```sh block is executed; a ```console block (or any other fence) is not. Examples that cannot
 *   run against one fresh server on this machine are ```console: `npm test` itself, other databases
 *   or servers (`mariadb -e "CREATE DATABASE ..."`, read replicas, several instances), long runs
 *   (benchmarks, soak, long fuzzing), migrations generated from entity changes, and the drop-in
 *   mode, which restarts the server under other paths for the rest of the page (docs/drop-in.md,
 *   run on a server of its own by test/docs-examples.e2e-spec.ts, shows it).
 * - All ```sh blocks run in one bash process (`set -eo pipefail`), top to bottom, so a variable set
 *   in one block (`AUTH=...`, `EVENT_ID=$(curl ... | jq .id)`) is there in the next. Any command
 *   that fails stops the run and fails the test. The working folder is an empty temporary folder.
 * - Expected statuses: a comment that begins with a status code states the status of the last
 *   `curl` call before it, either on the call's line (`curl ... # 200: the namespace index`) or on
 *   the next line (`# 201, Location: ...`). A `curl` call without such a comment must answer 2xx.
 *   A status comment with no `curl` call before it (since the previous one) fails the test.
 * - `http://localhost:3000` is replaced by the port the test chose (a free one).
 * - `npm` is a shell function here: `npm install` does nothing (the checkout under test is
 *   installed and built); `npm start` starts `dist/main.js` in the background with the command's
 *   environment and waits until `/health/ready` answers (the README's "in another terminal" is the
 *   background); it first stops the server an earlier `npm start` began, unless that one runs with
 *   the same environment (then there is nothing to do), so `CAL_ADMIN_USER=... npm start` restarts. `npm run [--silent] cli -- ...` runs the CLI on the
 *   same database. Any other `npm` command fails: fence it ```console.
 * - `npm run cli -- seed:demo` runs where the README puts it: on the test's fresh database, before
 *   anything was written to it, so the later examples run on the demo calendar (which they must
 *   not depend on: ids come from earlier responses).
 * - The database: an SQLite file in the temporary folder (`DATA_DIR`), or, when TEST_DATABASE_URL
 *   is set, a new database on that server (`<its name>_readme`), dropped at the end.
 * - Needs `curl` and `jq` on the machine (Debian packages of the same names).
 *
 * The runner is test/helpers/doc-examples.ts, shared with the specs of the pages under docs/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDocExamples, exampleDatabase, exampleEnv, requireExampleTools, runDocExamples } from './helpers/doc-examples';
import { removeTranspiledServer } from './helpers/server-process';

// With SQLite the run takes about 30 s of CPU (two server starts, the demo seed, six CLI runs);
// MariaDB adds the migrations of a new database. A loaded machine stretches it a lot.
const RUN_DEADLINE_MS = 240_000;

describeDocExamples('README examples', () => {
  let work: string;
  let database: Awaited<ReturnType<typeof exampleDatabase>> = null;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cal-readme-'));
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
    removeTranspiledServer();
  });

  it(
    'every ```sh block runs and every curl call answers the status the README states',
    async () => {
      requireExampleTools();
      const env = await exampleEnv(work);
      database = await exampleDatabase('readme');
      if (database) env.DATABASE_URL = database.url;
      const run = await runDocExamples(join(__dirname, '..', 'README.md'), work, env, RUN_DEADLINE_MS);
      if (run.errors.length > 0) throw new Error(run.errors.join('\n\n'));
      expect(run.blocks).toBeGreaterThan(5);
      expect(run.calls).toBeGreaterThan(10);
    },
    RUN_DEADLINE_MS + 30_000,
  );
});
