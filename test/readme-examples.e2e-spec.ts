/**
 * Every shell example of README.md runs, in order, against a service started on a fresh database.
 *
 * The conventions the README follows, and how this test reads them:
 *
 * - A ```sh block is executed; a ```console block (or any other fence) is not. Examples that cannot
 *   run against one fresh server on this machine are ```console: `npm test` itself, other databases
 *   or servers (`mariadb -e "CREATE DATABASE ..."`, read replicas, several instances), long runs
 *   (benchmarks, soak, long fuzzing), migrations generated from entity changes, and the drop-in
 *   mode, which restarts the server under other paths for the rest of the page.
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
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort } from './helpers/private-mariadb';
import { removeTranspiledServer, serverEntry } from './helpers/server-process';

const ROOT = join(__dirname, '..');

interface Block {
  /** Line of the README where the block's first line is. */
  line: number;
  lines: string[];
}

/** The README's ```sh blocks, in order. */
function shellBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  const lines = readme.split('\n');
  let current: Block | null = null;
  let inFence = false;
  lines.forEach((text, index) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (fence && !inFence) {
      inFence = true;
      if (fence[1] === 'sh') current = { line: index + 2, lines: [] };
    } else if (fence && fence[1] === '') {
      inFence = false;
      if (current) blocks.push(current);
      current = null;
    } else {
      current?.lines.push(text);
    }
  });
  return blocks;
}

const STATUS_LINE = /^\s*#\s*([1-5]\d\d)(?!\d)/;
const STATUS_TRAILING = /^(.*\S)\s+#\s*([1-5]\d\d)(?!\d)/;

/** The blocks as one bash script: the port substituted, status comments turned into `__expect` calls. */
function toScript(blocks: Block[], port: number): string {
  const out: string[] = [];
  for (const block of blocks) {
    out.push(`# README.md line ${block.line}`);
    block.lines.forEach((raw, offset) => {
      const line = raw.replaceAll('localhost:3000', `localhost:${port}`);
      const where = block.line + offset;
      const own = STATUS_LINE.exec(line);
      const trailing = own ? null : STATUS_TRAILING.exec(line);
      if (own) out.push(`__expect ${own[1]} ${where}`);
      else if (trailing) out.push(line, `__expect ${trailing[2]} ${where}`);
      else out.push(line);
    });
  }
  return out.join('\n') + '\n';
}

interface Call {
  status: number;
  args: string;
  expected?: number;
  line?: number;
}

/** The calls of the run, each with the status its README comment states; errors for stray comments. */
function readLog(log: string): { calls: Call[]; errors: string[] } {
  const calls: Call[] = [];
  const errors: string[] = [];
  let claimable: Call | null = null;
  for (const entry of log.split('\n').filter(Boolean)) {
    const [kind, status, rest] = entry.split('\t');
    if (kind === 'call') {
      claimable = { status: Number(status), args: rest ?? '' };
      calls.push(claimable);
    } else if (kind === 'expect') {
      if (!claimable) errors.push(`README.md:${rest}: states status ${status}, but no curl call ran since the previous status`);
      else {
        claimable.expected = Number(status);
        claimable.line = Number(rest);
        claimable = null;
      }
    }
  }
  return { calls, errors };
}

const databaseUrl = process.env.TEST_DATABASE_URL;
// With SQLite the run takes about 30 s of CPU (two server starts, the demo seed, six CLI runs);
// MariaDB adds the migrations of a new database. A loaded machine stretches it a lot.
const RUN_DEADLINE_MS = 240_000;

describe('README examples', () => {
  let work: string;
  let child: ChildProcess | null = null;
  let mariadbName: string | null = null;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cal-readme-'));
  });

  afterAll(async () => {
    if (child?.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    if (mariadbName && databaseUrl) {
      const connection = await createConnection({ uri: databaseUrl });
      await connection.query(`DROP DATABASE IF EXISTS \`${mariadbName}\``);
      await connection.end();
    }
    rmSync(work, { recursive: true, force: true });
    removeTranspiledServer();
  });

  it(
    'every ```sh block runs and every curl call answers the status the README states',
    async () => {
      for (const tool of ['curl', 'jq']) {
        try {
          execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
        } catch {
          throw new Error(`the README examples need ${tool} on the machine (Debian package "${tool}")`);
        }
      }
      const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
      expect(blocks.length).toBeGreaterThan(5);

      const port = await freePort();
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: work,
        NODE_PATH: join(ROOT, 'node_modules'),
        DATA_DIR: join(work, 'data'),
        PORT: String(port),
        LOG_LEVEL: 'warn',
        CAL_DIST: dirname(await serverEntry()),
        README_LOG: join(work, 'readme.log'),
      };
      if (databaseUrl) {
        const url = new URL(databaseUrl);
        mariadbName = `${url.pathname.replace(/^\//, '') || 'cal'}_readme`;
        const connection = await createConnection({ uri: databaseUrl });
        await connection.query(`DROP DATABASE IF EXISTS \`${mariadbName}\``);
        await connection.query(`CREATE DATABASE \`${mariadbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        await connection.end();
        url.pathname = `/${mariadbName}`;
        env.DATABASE_URL = url.toString();
      }
      writeFileSync(
        join(work, 'readme.sh'),
        readFileSync(join(__dirname, 'helpers', 'readme-prelude.sh'), 'utf8') + toScript(blocks, port),
      );
      writeFileSync(env.README_LOG, '');

      const spawned = spawn('bash', ['--noprofile', '--norc', join(work, 'readme.sh')], {
        cwd: work,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = spawned;
      let output = '';
      spawned.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      spawned.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      // A deadline of its own, below Jest's, so that a stuck example is reported with the output so far.
      let timer: NodeJS.Timeout | undefined;
      const code = await new Promise<number | null | 'timeout'>((resolve) => {
        spawned.once('exit', (exitCode) => resolve(exitCode));
        timer = setTimeout(() => resolve('timeout'), RUN_DEADLINE_MS);
      });
      clearTimeout(timer);

      const { calls, errors } = readLog(readFileSync(env.README_LOG, 'utf8'));
      for (const call of calls) {
        const ok = call.expected !== undefined ? call.status === call.expected : call.status >= 200 && call.status < 300;
        if (!ok) {
          const stated = call.expected !== undefined ? `README.md:${call.line} states ${call.expected}` : 'no status stated: 2xx expected';
          errors.push(`curl ${call.args}\n  answered ${call.status}; ${stated}`);
        }
      }
      if (code === 'timeout')
        errors.push(`the examples did not finish within ${RUN_DEADLINE_MS / 1000} s; last output:\n${output.slice(-3000)}`);
      else if (code !== 0) errors.push(`the examples stopped with exit code ${code}; last output:\n${output.slice(-3000)}`);
      if (errors.length > 0) throw new Error(errors.join('\n\n'));
      expect(calls.length).toBeGreaterThan(20);
    },
    RUN_DEADLINE_MS + 30_000,
  );
});
