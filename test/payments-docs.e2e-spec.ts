import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDocExamples, exampleDatabase, exampleEnv, requireExampleTools, runDocExamples } from './helpers/doc-examples';
import { removeTranspiledServer } from './helpers/server-process';
import { StripeDouble } from './helpers/stripe-double';

const RUN_DEADLINE_MS = 180_000;

/** docs/payments.md's examples, against a server started by them and a Stripe double started here. */
describeDocExamples('docs/payments.md examples', () => {
  const double = new StripeDouble();
  let work: string;
  let database: Awaited<ReturnType<typeof exampleDatabase>> = null;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cal-payments-docs-'));
    await double.start();
  });

  afterAll(async () => {
    await double.stop();
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
    removeTranspiledServer();
  });

  it(
    'every ```sh block runs and every curl call answers the status the page states',
    async () => {
      requireExampleTools();
      const env = await exampleEnv(work, { STRIPE_DOUBLE: double.url });
      database = await exampleDatabase('paydocs');
      if (database) env.DATABASE_URL = database.url;
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
