/**
 * The examples of the pages under docs/ run as test/readme-examples.e2e-spec.ts runs the README's
 * (same runner, test/helpers/doc-examples.ts, same conventions: see that spec's header): each page's
 * ```sh blocks in order, in one shell, against a server the page itself starts (`npm start`) on a
 * fresh database of its own: an SQLite file in a temporary folder, or, with TEST_DATABASE_URL, a new
 * database `<its name>_docs_<page>` on that server, dropped after. Each page creates the users,
 * events, tickets and orders its examples need, in the page, as a reader would.
 *
 * docs/payments.md has a spec of its own (test/payments-docs.e2e-spec.ts: it needs a Stripe double).
 * DOCS_PAGES=waitlist,coupons runs only those pages, and DOCS_VERBOSE=1 prints what they printed
 * (while writing one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDocExamples, exampleDatabase, exampleEnv, requireExampleTools, runDocExamples } from './helpers/doc-examples';
import { removeTranspiledServer } from './helpers/server-process';

/** The pages, and the fewest curl calls each must make (so that a page whose blocks were fenced away fails). */
const PAGES: Array<{ page: string; minCalls: number }> = [
  { page: 'api', minCalls: 7 },
  { page: 'api-events', minCalls: 14 },
  { page: 'api-tickets', minCalls: 10 },
  { page: 'feeds', minCalls: 6 },
  { page: 'drop-in', minCalls: 7 },
  { page: 'security', minCalls: 5 },
  { page: 'operations', minCalls: 4 },
  { page: 'waitlist', minCalls: 10 },
  { page: 'coupons', minCalls: 8 },
  { page: 'attendee-questions', minCalls: 7 },
  { page: 'exports', minCalls: 7 },
  { page: 'reports', minCalls: 6 },
  { page: 'tokens', minCalls: 14 },
  { page: 'checkin', minCalls: 10 },
  { page: 'waiting-room', minCalls: 16 },
  { page: 'tec-v1', minCalls: 20 },
  { page: 'mcp', minCalls: 20 },
];

const only = (process.env.DOCS_PAGES ?? '')
  .split(',')
  .map((page) => page.trim())
  .filter(Boolean);

// One server start, a CLI run and a few dozen calls per page: a few seconds on SQLite, plus the
// migrations of a new database on MariaDB. A loaded machine stretches it a lot.
const RUN_DEADLINE_MS = 150_000;

describeDocExamples('docs/*.md examples', () => {
  afterAll(() => removeTranspiledServer());

  for (const { page, minCalls } of PAGES.filter(({ page }) => only.length === 0 || only.includes(page))) {
    it(
      `docs/${page}.md: every \`\`\`sh block runs and every curl call answers the status the page states`,
      async () => {
        requireExampleTools();
        const work = mkdtempSync(join(tmpdir(), `cal-docs-${page}-`));
        const database = await exampleDatabase(`docs_${page.replaceAll('-', '_')}`);
        try {
          const env = await exampleEnv(work);
          if (database) env.DATABASE_URL = database.url;
          const run = await runDocExamples(join(__dirname, '..', 'docs', `${page}.md`), work, env, RUN_DEADLINE_MS);
          if (process.env.DOCS_VERBOSE) process.stdout.write(`--- docs/${page}.md\n${run.output}\n`);
          if (run.errors.length > 0) throw new Error(run.errors.join('\n\n'));
          expect(run.calls).toBeGreaterThanOrEqual(minCalls);
        } finally {
          await database?.drop();
          rmSync(work, { recursive: true, force: true });
        }
      },
      RUN_DEADLINE_MS + 30_000,
    );
  }
});
