import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadAppConfig } from './app.config';

const folders: string[] = [];
function dataDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'cal-config-'));
  folders.push(folder);
  return folder;
}
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

describe('loadAppConfig', () => {
  const base = () => ({ DATA_DIR: dataDir(), NONCE_SECRET: 'sixteen-chars-secret' });

  it('applies the documented defaults', () => {
    const env = base();
    const config = loadAppConfig(env);
    expect(config).toMatchObject({
      port: 3000,
      apiRoot: '',
      apiPrefix: 'cal',
      publicUrl: null,
      siteTimezone: 'UTC',
      logLevel: 'info',
      bootstrapAdmin: null,
      bodyLimitBytes: 1024 * 1024,
      currency: { code: 'USD', exponent: 2, symbol: '$', position: 'prefix' },
      geolocRadiusKm: 50,
      tickets: {
        maxTicketsPerOrder: 100,
        orderHoldMinutes: 15,
        orderSweepIntervalSeconds: 60,
        attendeeEditCutoffHours: 24,
        attendeeTallyCompactSeconds: 5,
        paymentWebhookSecret: null,
        checkinAnnulMinutes: 15,
      },
    });
    expect(config.database).toEqual({ type: 'sqlite', path: join(env.DATA_DIR, 'cal.sqlite') });
  });

  it('reads the database from DATABASE_URL', () => {
    expect(loadAppConfig({ ...base(), DATABASE_URL: 'sqlite:/tmp/x.sqlite' }).database).toEqual({ type: 'sqlite', path: '/tmp/x.sqlite' });
    expect(loadAppConfig({ ...base(), DATABASE_URL: 'mysql://root@127.0.0.1:3306/cal' }).database).toEqual({
      type: 'mysql',
      url: 'mysql://root@127.0.0.1:3306/cal',
      poolSize: 10,
    });
  });

  it('reads MySQL read replicas from DATABASE_REPLICA_URLS', () => {
    const config = loadAppConfig({
      ...base(),
      DATABASE_URL: 'mysql://root@primary:3306/cal',
      DATABASE_REPLICA_URLS: ' mysql://reader@replica-1:3306/cal , mariadb://reader@replica-2:3306/cal ,',
    });
    expect(config.database).toEqual({
      type: 'mysql',
      url: 'mysql://root@primary:3306/cal',
      poolSize: 10,
      replicaUrls: ['mysql://reader@replica-1:3306/cal', 'mysql://reader@replica-2:3306/cal'],
    });
    expect(
      loadAppConfig({ ...base(), DATABASE_URL: 'mysql://root@primary:3306/cal', DATABASE_REPLICA_URLS: ' ' }).database,
    ).not.toHaveProperty('replicaUrls');
  });

  it.each([
    [{ DATABASE_REPLICA_URLS: 'mysql://reader@replica:3306/cal' }, 'not supported with SQLite'],
    [{ DATABASE_URL: 'mysql://root@primary:3306/cal', DATABASE_REPLICA_URLS: 'sqlite:/tmp/replica.sqlite' }, 'mysql://'],
    [{ DATABASE_URL: 'mysql://root@primary:3306/cal', DATABASE_REPLICA_URLS: 'mysql://reader@replica-without-db' }, 'must name a database'],
  ])('refuses DATABASE_REPLICA_URLS %j, naming it', (env, problem) => {
    expect(() => loadAppConfig({ ...base(), ...env })).toThrow(/DATABASE_REPLICA_URLS.*/);
    expect(() => loadAppConfig({ ...base(), ...env })).toThrow(problem);
  });

  it('normalises API_ROOT and keeps API_PREFIX', () => {
    expect(loadAppConfig({ ...base(), API_ROOT: 'wp-json/', API_PREFIX: 'tribe' })).toMatchObject({
      apiRoot: '/wp-json',
      apiPrefix: 'tribe',
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://x/y'],
    ['DATABASE_URL', 'mysql://host-without-db'],
    ['API_PREFIX', 'two/segments'],
    ['PUBLIC_URL', 'not a url'],
    ['SITE_TIMEZONE', 'Mars/Olympus'],
    ['LOG_LEVEL', 'loud'],
    ['NONCE_SECRET', 'short'],
    ['DATABASE_POOL_SIZE', '0'],
    ['CURRENCY_CODE', 'dollars'],
    ['CURRENCY_CODE', 'XYZ'],
    ['CURRENCY_POSITION', 'middle'],
    ['GEOLOC_RADIUS_KM', '-3'],
    ['MAX_TICKETS_PER_ORDER', '0'],
    ['ORDER_HOLD_MINUTES', 'soon'],
    ['ATTENDEE_EDIT_CUTOFF_HOURS', '-1'],
    ['CHECKIN_ANNUL_MINUTES', '0'],
    ['CHECKIN_ANNUL_MINUTES', 'a while'],
    ['PAYMENT_WEBHOOK_SECRET', 'short'],
  ])('stops on a bad %s, naming it', (variable, value) => {
    expect(() => loadAppConfig({ ...base(), [variable]: value })).toThrow(ConfigError);
    expect(() => loadAppConfig({ ...base(), [variable]: value })).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('reads CHECKIN_ANNUL_MINUTES, how long a scan at the door can be annulled', () => {
    expect(loadAppConfig({ ...base(), CHECKIN_ANNUL_MINUTES: '5' }).tickets.checkinAnnulMinutes).toBe(5);
  });

  it('reads the currency decimals from CURRENCY_CODE (ISO 4217 exponent)', () => {
    expect(loadAppConfig({ ...base(), CURRENCY_CODE: 'jpy' }).currency).toMatchObject({ code: 'JPY', exponent: 0 });
    expect(loadAppConfig({ ...base(), CURRENCY_CODE: 'EUR' }).currency).toMatchObject({ code: 'EUR', exponent: 2 });
    expect(loadAppConfig({ ...base(), CURRENCY_CODE: 'KWD' }).currency).toMatchObject({ code: 'KWD', exponent: 3 });
  });

  it('requires NONCE_SECRET in production', () => {
    expect(() => loadAppConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' })).toThrow(/NONCE_SECRET is required/);
  });

  it('generates a nonce secret once outside production and keeps it in the data folder', () => {
    const dir = dataDir();
    const first = loadAppConfig({ DATA_DIR: dir }).nonceSecret;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dir, 'nonce-secret'), 'utf8').trim()).toBe(first);
    expect(loadAppConfig({ DATA_DIR: dir }).nonceSecret).toBe(first);
  });

  it('requires the bootstrap administrator login and password together', () => {
    expect(() => loadAppConfig({ ...base(), CAL_ADMIN_USER: 'admin' })).toThrow(/CAL_ADMIN_PASSWORD/);
    expect(() => loadAppConfig({ ...base(), CAL_ADMIN_PASSWORD: 'long-enough' })).toThrow(/CAL_ADMIN_USER/);
    expect(loadAppConfig({ ...base(), CAL_ADMIN_USER: 'admin', CAL_ADMIN_PASSWORD: 'long-enough' }).bootstrapAdmin).toEqual({
      login: 'admin',
      password: 'long-enough',
    });
  });
});

describe('loadAppConfig: limits, CORS and the shared counter store', () => {
  const base = () => ({ DATA_DIR: dataDir(), NONCE_SECRET: 'sixteen-chars-secret' });

  it('applies generous limits, any origin without credentials and in-memory counters by default', () => {
    const config = loadAppConfig(base());
    expect(config.rateLimits).toEqual({
      anonymousPerMinute: 600,
      authenticatedPerMinute: 1200,
      authFailureLimit: 10,
      authFailureWindowMinutes: 15,
      couponFailureLimit: 10,
      couponFailureWindowMinutes: 15,
      redisUrl: null,
      redisKeyPrefix: 'cal:',
    });
    expect(config.cors).toEqual({ credentialedOrigins: [], anyOrigin: true });
    expect(config.databaseStatementTimeoutMs).toBe(10_000);
    expect(config.trustProxy).toBe('loopback');
  });

  it('reads EVENT_DOCUMENT_CACHE_MB in whole MB: 32 by default, 0 turning the cache off', () => {
    expect(loadAppConfig(base()).eventDocumentCacheMb).toBe(32);
    expect(loadAppConfig({ ...base(), EVENT_DOCUMENT_CACHE_MB: '0' }).eventDocumentCacheMb).toBe(0);
    expect(() => loadAppConfig({ ...base(), EVENT_DOCUMENT_CACHE_MB: '-1' })).toThrow(/EVENT_DOCUMENT_CACHE_MB/);
  });

  it('reads COUNT_CACHE_MB in whole MB: 4 by default, 0 turning the cache off', () => {
    expect(loadAppConfig(base()).countCacheMb).toBe(4);
    expect(loadAppConfig({ ...base(), COUNT_CACHE_MB: '16' }).countCacheMb).toBe(16);
    expect(loadAppConfig({ ...base(), COUNT_CACHE_MB: '0' }).countCacheMb).toBe(0);
  });

  it('reads TRUST_PROXY as a hop count or a list of proxies', () => {
    expect(loadAppConfig({ ...base(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadAppConfig({ ...base(), TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8' }).trustProxy).toBe('loopback,10.0.0.0/8,fd00::/8');
  });

  it('reads the limits, 0 turning one off', () => {
    const config = loadAppConfig({
      ...base(),
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '50',
      AUTH_FAILURE_LIMIT: '3',
      AUTH_FAILURE_WINDOW_MINUTES: '5',
      COUPON_FAILURE_LIMIT: '0',
      COUPON_FAILURE_WINDOW_MINUTES: '30',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      REDIS_KEY_PREFIX: 'cal-staging:',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    });
    expect(config.rateLimits).toEqual({
      anonymousPerMinute: 0,
      authenticatedPerMinute: 50,
      authFailureLimit: 3,
      authFailureWindowMinutes: 5,
      couponFailureLimit: 0,
      couponFailureWindowMinutes: 30,
      redisUrl: 'redis://127.0.0.1:6379/2',
      redisKeyPrefix: 'cal-staging:',
    });
    expect(config.databaseStatementTimeoutMs).toBe(0);
  });

  it('reads CORS_ORIGINS as credentialed origins, * letting any other origin in without credentials', () => {
    expect(loadAppConfig({ ...base(), CORS_ORIGINS: 'https://shop.example.org, http://localhost:8080/' }).cors).toEqual({
      credentialedOrigins: ['https://shop.example.org', 'http://localhost:8080'],
      anyOrigin: false,
    });
    expect(loadAppConfig({ ...base(), CORS_ORIGINS: 'https://shop.example.org,*' }).cors).toEqual({
      credentialedOrigins: ['https://shop.example.org'],
      anyOrigin: true,
    });
  });

  it.each([
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['RATE_LIMIT_AUTHENTICATED_PER_MINUTE', 'many'],
    ['AUTH_FAILURE_LIMIT', '1.5'],
    ['AUTH_FAILURE_WINDOW_MINUTES', '0'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_URL', 'not a url'],
    ['REDIS_KEY_PREFIX', 'spaces are not allowed'],
    ['CORS_ORIGINS', 'https://shop.example.org/path'],
    ['CORS_ORIGINS', 'shop.example.org'],
    ['CORS_ORIGINS', 'ftp://files.example.org'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', 'ten seconds'],
    ['COUNT_CACHE_MB', '2.5'],
    ['COUNT_CACHE_MB', '-1'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', 'the balancer'],
  ])('stops on a bad %s (%s), naming it', (variable, value) => {
    expect(() => loadAppConfig({ ...base(), [variable]: value })).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});

describe('loadAppConfig: notifications', () => {
  const env = () => ({ NODE_ENV: 'test', NONCE_SECRET: 'a-test-nonce-secret-0123456789', DATA_DIR: '/tmp/cal-config-notifications' });

  it('runs the outbox worker, writes .eml files and keeps webhooks off private addresses by default', () => {
    expect(loadAppConfig(env()).notifications).toEqual({
      worker: true,
      pollIntervalMs: 2000,
      retryBaseMs: 30_000,
      maxAgeHours: 72,
      retentionDays: 14,
      smtpUrl: null,
      emailFrom: 'Tickets <tickets@localhost>',
      emailTemplatesDir: null,
      webhookAllowPrivate: false,
      webhookTimeoutMs: 10_000,
    });
  });

  it('reads the settings and names the one that is wrong', () => {
    const config = loadAppConfig({
      ...env(),
      OUTBOX_WORKER: 'false',
      SMTP_URL: 'smtps://u:p@mail.example.org:465',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      EMAIL_TEMPLATES_DIR: '/etc/cal/templates',
    });
    expect(config.notifications).toMatchObject({
      worker: false,
      smtpUrl: 'smtps://u:p@mail.example.org:465',
      webhookAllowPrivate: true,
      emailTemplatesDir: '/etc/cal/templates',
    });
    expect(() => loadAppConfig({ ...env(), SMTP_URL: 'http://mail.example.org' })).toThrow(/SMTP_URL/);
    expect(() => loadAppConfig({ ...env(), OUTBOX_WORKER: 'sometimes' })).toThrow(/OUTBOX_WORKER/);
    expect(() => loadAppConfig({ ...env(), OUTBOX_RETRY_BASE_MS: '0' })).toThrow(/OUTBOX_RETRY_BASE_MS/);
    expect(() => loadAppConfig({ ...env(), EMAIL_FROM: 'a\r\nBcc: x@example.org' })).toThrow(/EMAIL_FROM/);
  });
});
