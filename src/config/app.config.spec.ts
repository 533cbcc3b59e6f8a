import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadAppConfig } from './app.config';

describe('loadAppConfig', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'cal-config-'));
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
      currency: { code: 'USD', symbol: '$', position: 'prefix' },
      geolocRadiusKm: 50,
      tickets: { maxTicketsPerOrder: 100, orderHoldMinutes: 15, orderSweepIntervalSeconds: 60, paymentWebhookSecret: null },
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
    expect(loadAppConfig({ ...base(), DATABASE_URL: 'mysql://root@primary:3306/cal', DATABASE_REPLICA_URLS: ' ' }).database).not.toHaveProperty('replicaUrls');
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
    expect(loadAppConfig({ ...base(), API_ROOT: 'wp-json/', API_PREFIX: 'tribe' })).toMatchObject({ apiRoot: '/wp-json', apiPrefix: 'tribe' });
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
    ['CURRENCY_POSITION', 'middle'],
    ['GEOLOC_RADIUS_KM', '-3'],
    ['MAX_TICKETS_PER_ORDER', '0'],
    ['ORDER_HOLD_MINUTES', 'soon'],
    ['PAYMENT_WEBHOOK_SECRET', 'short'],
  ])('stops on a bad %s, naming it', (variable, value) => {
    expect(() => loadAppConfig({ ...base(), [variable]: value })).toThrow(ConfigError);
    expect(() => loadAppConfig({ ...base(), [variable]: value })).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
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
