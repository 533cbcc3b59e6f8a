// Runs before each e2e test file, before any module is imported.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Jest's global setup, plain JavaScript, shares the naming
const { workerDatabaseUrl } = require('./worker-databases') as { workerDatabaseUrl: (baseUrl: string, workerId: string) => string };

process.env.NODE_ENV = 'test';
// On MySQL/MariaDB each worker has a database of its own (test/worker-databases.js); from here on,
// TEST_DATABASE_URL names it, for the app and for the suites that make databases beside it.
if (process.env.TEST_DATABASE_URL) {
  process.env.TEST_DATABASE_URL = workerDatabaseUrl(process.env.TEST_DATABASE_URL, process.env.JEST_WORKER_ID ?? '1');
}
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL || 'sqlite::memory:';
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL || 'silent';
process.env.NONCE_SECRET = 'test-nonce-secret-0123456789abcdef';
process.env.CAL_ADMIN_USER = 'admin';
process.env.CAL_ADMIN_PASSWORD = 'admin-password-for-tests';
process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'cal-test-'));
delete process.env.PUBLIC_URL;
delete process.env.API_ROOT;
delete process.env.API_PREFIX;
delete process.env.SITE_TIMEZONE;
delete process.env.SITE_NAME;
delete process.env.SITE_DESCRIPTION;
delete process.env.TEC_V1_REQUIRE_ACKNOWLEDGEMENT;
// Request, login and coupon code limits far above what any suite sends, in each file's own memory; the limit
// tests lower them. Nothing a developer exported reaches the suite's counters or CORS rules.
process.env.RATE_LIMIT_PER_MINUTE = '1000000';
process.env.RATE_LIMIT_AUTHENTICATED_PER_MINUTE = '1000000';
process.env.AUTH_FAILURE_LIMIT = '1000000';
process.env.COUPON_FAILURE_LIMIT = '1000000';
delete process.env.REDIS_URL;
delete process.env.REDIS_KEY_PREFIX;
delete process.env.CORS_ORIGINS;
delete process.env.MCP_ALLOWED_ORIGINS;
delete process.env.MCP_ALLOWED_HOSTS;
process.env.MCP_TOOL_CALLS_PER_MINUTE = '1000000';
// The outbox worker does not poll in tests: the notification tests drive it (OutboxWorker.drain()),
// and no other suite's writes are sent anywhere.
process.env.OUTBOX_WORKER = 'false';
// Nor does the attendee tally fold on a timer: a fold between two snapshots of the security specs
// would look like a change made by the request between them; test/attendee-tallies folds itself.
process.env.ATTENDEE_TALLY_COMPACT_SECONDS = '0';
// Nor do the export worker and the sales ledger fold: test/exports and test/reports drive them.
process.env.EXPORT_WORKER = 'false';
// Nor do the waiting rooms' counters advance on a timer: test/queues drives them (QueueTicker.runNow()).
process.env.QUEUE_TICK_MS = '0';
process.env.QUEUE_GATE_REFRESH_MS = '0';
process.env.SALES_LEDGER_FOLD_SECONDS = '0';
delete process.env.SMTP_URL;
delete process.env.EMAIL_TEMPLATES_DIR;
delete process.env.WEBHOOK_ALLOW_PRIVATE;
// Payments are manual unless a suite configures Stripe (test/payments.e2e-spec.ts, against its double).
for (const name of ['PAYMENT_PROVIDER', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_API_BASE'])
  delete process.env[name];
