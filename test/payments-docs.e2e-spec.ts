import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { runDocExamples } from './helpers/doc-examples';
import { freePort } from './helpers/private-mariadb';
import { removeTranspiledServer, serverEntry } from './helpers/server-process';
import { StripeDouble } from './helpers/stripe-double';

const RUN_DEADLINE_MS = 180_000;
const databaseUrl = process.env.TEST_DATABASE_URL;

/** docs/payments.md's examples, against a server started by them and a Stripe double started here. */
describe('docs/payments.md examples', () => {
  const double = new StripeDouble();
  let work: string;
  let mariadbName: string | null = null;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cal-payments-docs-'));
    await double.start();
  });

  afterAll(async () => {
    await double.stop();
    if (mariadbName && databaseUrl) {
      const connection = await createConnection({ uri: databaseUrl });
      await connection.query(`DROP DATABASE IF EXISTS \`${mariadbName}\``);
      await connection.end();
    }
    rmSync(work, { recursive: true, force: true });
    removeTranspiledServer();
  });

  it(
    'every ```sh block runs and every curl call answers the status the page states',
    async () => {
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: work,
        NODE_PATH: join(__dirname, '..', 'node_modules'),
        DATA_DIR: join(work, 'data'),
        PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
        CAL_DIST: dirname(await serverEntry()),
        STRIPE_DOUBLE: double.url,
      };
      if (databaseUrl) {
        const url = new URL(databaseUrl);
        mariadbName = `${url.pathname.replace(/^\//, '') || 'cal'}_paydocs`;
        const connection = await createConnection({ uri: databaseUrl });
        await connection.query(`DROP DATABASE IF EXISTS \`${mariadbName}\``);
        await connection.query(`CREATE DATABASE \`${mariadbName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        await connection.end();
        url.pathname = `/${mariadbName}`;
        env.DATABASE_URL = url.toString();
      }
      const run = await runDocExamples(join(__dirname, '..', 'docs', 'payments.md'), work, env, RUN_DEADLINE_MS);
      if (run.errors.length > 0) throw new Error(run.errors.join('\n\n'));
      expect(run.calls).toBeGreaterThanOrEqual(12);

      // What the page's calls did at Stripe: one intent for the order, confirmed, refunded 10.00 then 40.00.
      const creates = double.requestsTo('POST', /^\/v1\/payment_intents$/);
      expect(creates).toHaveLength(1);
      expect(creates[0].body).toMatchObject({ amount: '5000', currency: 'usd' });
      expect(double.refunds.map((refund) => refund.amount)).toEqual([1000, 4000]);
    },
    RUN_DEADLINE_MS + 60_000,
  );
});
