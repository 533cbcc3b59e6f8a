import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { registerAs } from '@nestjs/config';
import { isValidTimeZone } from '../common/dates/timezone';
import { currencyExponent } from '../common/money';
import { ConfigError, Env } from './config-error';

export type DatabaseConfig = { type: 'sqlite'; path: string } | { type: 'mysql'; url: string; poolSize: number; replicaUrls?: string[] };

export interface AppConfig {
  nodeEnv: string;
  port: number;
  database: DatabaseConfig;
  /** Mount point of the REST API, '' or a path such as '/wp-json' (no trailing slash). */
  apiRoot: string;
  /** First segment of both namespaces: `{apiPrefix}/events/v1`. */
  apiPrefix: string;
  /** Base of absolute URLs in responses; when unset they are built from the request. */
  publicUrl: string | null;
  siteTimezone: string;
  /** The site's name and tagline, as WordPress's discovery routes show them (`GET /wp-json/`). */
  siteName: string;
  siteDescription: string;
  /** Whether `tec/v1` routes require TEC's `X-TEC-EEA` acknowledgement header (TEC_V1_REQUIRE_ACKNOWLEDGEMENT). */
  tecRequireAcknowledgement: boolean;
  nonceSecret: string;
  bootstrapAdmin: { login: string; password: string } | null;
  logLevel: string;
  dataDir: string;
  bodyLimitBytes: number;
  currency: CurrencyConfig;
  /** Radius of the events list's geolocation filter. */
  geolocRadiusKm: number;
  tickets: TicketsConfig;
  rateLimits: RateLimitConfig;
  cors: CorsConfig;
  mcp: McpConfig;
  /** Longest a database statement may run on MySQL/MariaDB, in ms; 0: no limit. */
  databaseStatementTimeoutMs: number;
  /** Longest a request waits for a pooled connection (MySQL) or its turn on the one connection (SQLite), in ms; 0: no limit. */
  databasePoolWaitTimeoutMs: number;
  /** Print every SQL statement (TypeORM's query logger): for capturing what a route runs, not for production. */
  databaseLogQueries: boolean;
  /** Longest a cached list count may be kept (src/common/caching/count-cache.ts); 0: counts are never cached. */
  countCacheSeconds: number;
  /** Most memory the cached list counts may take, in MB (src/common/caching/count-cache.ts); 0: counts are never cached. */
  countCacheMb: number;
  /** Most memory the cached event documents may take, in MB (src/events/event-documents.ts); 0: documents are built on every request. */
  eventDocumentCacheMb: number;
  /** EVENT_DOCUMENT_STORE: whether built event documents are kept in the database for every instance (src/events/stored-event-documents.ts). */
  eventDocumentStore: boolean;
  /** Express's `trust proxy`: which peers' X-Forwarded-For names the client (hop count, or addresses, subnets and names). */
  trustProxy: number | string;
  notifications: NotificationsConfig;
  httpCache: HttpCacheConfig;
  exports: ExportsConfig;
  payments: PaymentsConfig;
}

/** HTTP caching of anonymous public reads, and purges sent to a cache in front (src/common/http/http-caching.ts). */
export interface HttpCacheConfig {
  /** HTTP_CACHE_MAX_AGE: `max-age` of anonymous public reads, in seconds; 0: caches store them but revalidate every time. */
  maxAgeSeconds: number;
  /** HTTP_CACHE_STALE_WHILE_REVALIDATE: seconds a cache may serve a stale answer while it revalidates; 0: none. */
  staleWhileRevalidateSeconds: number;
  /** PURGE_URL: where the surrogate keys of each committed write are sent (through the outbox); null: no purges. */
  purgeUrl: string | null;
}

/** Asynchronous exports (src/exports). */
export interface ExportsConfig {
  /** EXPORT_WORKER: false on instances that only accept export requests; the others share the jobs. */
  worker: boolean;
  /** How often the worker looks for queued exports, in ms. */
  pollIntervalMs: number;
  /** How long a finished export can be downloaded, in hours; its file is deleted after. */
  ttlHours: number;
}

/** The transactional outbox, its worker, and the two channels it delivers to (src/outbox, src/emails, src/webhooks). */
export interface NotificationsConfig {
  /** OUTBOX_WORKER: false on API-only instances; the others share the work. */
  worker: boolean;
  /** How often the worker looks for due messages, in ms. */
  pollIntervalMs: number;
  /** First retry after this many ms; each next one waits twice as long (with jitter). */
  retryBaseMs: number;
  /** A message still undelivered this many hours after it was written is marked failed. */
  maxAgeHours: number;
  /** Delivered and failed messages are deleted this many days after they were written. */
  retentionDays: number;
  /** SMTP_URL (smtp:// or smtps://); null: messages are written as .eml files under `{dataDir}/outbox/`. */
  smtpUrl: string | null;
  /** EMAIL_FROM: the From header of every email. */
  emailFrom: string;
  /** EMAIL_TEMPLATES_DIR: a folder whose files replace the built-in templates of the same name. */
  emailTemplatesDir: string | null;
  /** WEBHOOK_ALLOW_PRIVATE: let webhooks reach loopback and private addresses (tests, closed networks). */
  webhookAllowPrivate: boolean;
  /** Longest a webhook receiver may take to answer, in ms. */
  webhookTimeoutMs: number;
}

export interface RateLimitConfig {
  /** Requests per minute of one anonymous client, by IP address; 0: not limited. */
  anonymousPerMinute: number;
  /** Requests per minute of one signed-in user, wherever they come from; 0: not limited. */
  authenticatedPerMinute: number;
  /** Failed Basic authentications allowed per login and per IP address in a window; 0: not limited. */
  authFailureLimit: number;
  authFailureWindowMinutes: number;
  /** Failed coupon and access codes allowed per IP address and per cart in a window; 0: not limited. */
  couponFailureLimit: number;
  couponFailureWindowMinutes: number;
  /** Redis holding the counters, shared by every instance; null: in this process's memory. */
  redisUrl: string | null;
  /** Prefix of every Redis key the service writes. */
  redisKeyPrefix: string;
}

/** The MCP endpoint's request checks (src/mcp): whom it answers besides PUBLIC_URL's origin and host. */
export interface McpConfig {
  /** MCP_ALLOWED_ORIGINS: origins (`https://agent.example.org`) whose browsers may call /mcp besides PUBLIC_URL's. */
  allowedOrigins: string[];
  /** MCP_ALLOWED_HOSTS: Host header values (`cal.internal:3000`) /mcp answers besides PUBLIC_URL's host (and localhost without PUBLIC_URL). */
  allowedHosts: string[];
  /** MCP_TOOL_CALLS_PER_MINUTE: tool calls a token (else a user, else an address) may make in a minute, beside the request limits. */
  toolCallsPerMinute: number;
}

export interface CorsConfig {
  /** Origins that may call the API from a browser with credentials (the cart cookie). */
  credentialedOrigins: string[];
  /** Whether any other origin may call it, without credentials. */
  anyOrigin: boolean;
}

export interface TicketsConfig {
  /** Most units one cart line or one order may hold. */
  maxTicketsPerOrder: number;
  /** How long a pending (unpaid) order holds capacity. */
  orderHoldMinutes: number;
  /** How often expired holds are released. */
  orderSweepIntervalSeconds: number;
  /** Buyers may edit their attendees' answers until this many hours before the event starts. */
  attendeeEditCutoffHours: number;
  /** How often this instance folds the attendee tally's rows into one (0: never; another instance does). */
  attendeeTallyCompactSeconds: number;
  /** How often this instance folds the sales ledger's rows (src/reports) into one per ticket and day (0: never; another instance does). */
  salesLedgerFoldSeconds: number;
  /** HMAC-SHA256 secret of the payment webhook's `X-Signature`; null disables signed completion. */
  paymentWebhookSecret: string | null;
  /** How long units offered to a waitlist entry are held for it (WAITLIST_OFFER_HOURS). */
  waitlistOfferHours: number;
  /** How often lapsed waitlist offers are expired and their units passed on. */
  waitlistSweepIntervalSeconds: number;
  /** CHECKIN_ANNUL_MINUTES: how long after it was received a scan at the door can be annulled (POST /checkin/annul). */
  checkinAnnulMinutes: number;
  /** QUEUE_TICK_MS: how often this instance advances the waiting rooms' serving counters (0: never; another instance does). */
  queueTickMs: number;
  /** QUEUE_GATE_REFRESH_MS: how often this instance reads the open queues again for its gate (0: only after its own queue writes). */
  queueGateRefreshMs: number;
  /** QUEUE_JOINS_PER_ADDRESS: entries one client address may hold in one queue. */
  queueJoinsPerAddress: number;
  /** QUEUE_JOINS_PER_ACCOUNT: entries one signed-in account may hold in one queue. */
  queueJoinsPerAccount: number;
}

export interface CurrencyConfig {
  /** ISO 4217 code, e.g. USD. */
  code: string;
  /** Its decimals (ISO 4217 exponent): amounts are kept in minor units and shown with exactly this many (src/common/money.ts). */
  exponent: number;
  symbol: string;
  position: 'prefix' | 'postfix';
}

export { ConfigError };

/**
 * The one payment setting other modules ask about: the name of the provider of new paid orders
 * (prices follow its steps). The payments module checks it against its registry and reads each
 * provider's own settings (src/payments/payments.config.ts).
 */
export interface PaymentsConfig {
  /** PAYMENT_PROVIDER, lower case; `manual` by default. */
  provider: string;
}

function readPaymentProviderName(env: Env): PaymentsConfig {
  return { provider: (env.PAYMENT_PROVIDER ?? '').trim().toLowerCase() || 'manual' };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readPort(env: Env): number {
  const raw = env.PORT ?? '3000';
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError('PORT', `must be an integer from 1 to 65535 (got "${raw}")`);
  }
  return port;
}

function readPositiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError(name, `must be a positive integer (got "${raw}")`);
  }
  return Number(raw);
}

export function parseDatabaseUrl(raw: string | undefined, dataDir: string, poolSize: number, variable = 'DATABASE_URL'): DatabaseConfig {
  if (raw === undefined || raw.trim() === '') {
    return { type: 'sqlite', path: join(dataDir, 'cal.sqlite') };
  }
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === '') throw new ConfigError(variable, 'must name a file after "sqlite:" (or ":memory:")');
    return { type: 'sqlite', path };
  }
  if (/^(mysql|mariadb):\/\//.test(raw)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(variable, 'is not a valid URL');
    }
    if (url.pathname.length < 2) throw new ConfigError(variable, 'must name a database: mysql://user:pass@host:port/db');
    return { type: 'mysql', url: raw.replace(/^mariadb:/, 'mysql:'), poolSize };
  }
  throw new ConfigError(variable, 'must start with sqlite: or mysql:// (or mariadb://)');
}

/**
 * DATABASE_REPLICA_URLS: comma-separated mysql:// URLs of read replicas of DATABASE_URL. Replicas
 * are a MySQL/MariaDB feature; with SQLite the setting is refused rather than silently ignored.
 */
export function withReplicas(database: DatabaseConfig, raw: string | undefined, dataDir: string): DatabaseConfig {
  const urls = (raw ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length === 0) return database;
  if (database.type !== 'mysql') {
    throw new ConfigError('DATABASE_REPLICA_URLS', 'needs a MySQL/MariaDB DATABASE_URL: read replicas are not supported with SQLite');
  }
  const replicaUrls = urls.map((url) => {
    const replica = parseDatabaseUrl(url, dataDir, database.poolSize, 'DATABASE_REPLICA_URLS');
    if (replica.type !== 'mysql') throw new ConfigError('DATABASE_REPLICA_URLS', `must list mysql:// (or mariadb://) URLs (got "${url}")`);
    return replica.url;
  });
  return { ...database, replicaUrls };
}

function normaliseApiRoot(raw: string | undefined): string {
  const value = (raw ?? '').trim().replace(/\/+$/, '');
  if (value === '') return '';
  if (!/^\/?[A-Za-z0-9._~\-/]+$/.test(value)) {
    throw new ConfigError('API_ROOT', `must be a URL path such as /wp-json (got "${raw}")`);
  }
  return value.startsWith('/') ? value : `/${value}`;
}

function readApiPrefix(raw: string | undefined): string {
  const value = (raw ?? 'cal').trim();
  if (!/^[A-Za-z0-9_-]+$/.test(value)) {
    throw new ConfigError('API_PREFIX', `must be one path segment of letters, digits, "-" or "_" (got "${raw}")`);
  }
  return value;
}

function readPublicUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function readCurrency(env: Env): CurrencyConfig {
  const code = (env.CURRENCY_CODE ?? 'USD').trim().toUpperCase();
  const exponent = currencyExponent(code);
  if (exponent === undefined)
    throw new ConfigError('CURRENCY_CODE', `must be an ISO 4217 currency code such as USD (got "${env.CURRENCY_CODE}")`);
  const symbol = env.CURRENCY_SYMBOL ?? '$';
  if (symbol.length > 8) throw new ConfigError('CURRENCY_SYMBOL', 'must be at most 8 characters long');
  const position = env.CURRENCY_POSITION ?? 'prefix';
  if (position !== 'prefix' && position !== 'postfix') {
    throw new ConfigError('CURRENCY_POSITION', `must be prefix or postfix (got "${position}")`);
  }
  return { code, exponent, symbol, position };
}

function readOptionalSecret(env: Env, name: string): string | null {
  const value = env[name];
  if (value === undefined || value === '') return null;
  if (value.length < 16) throw new ConfigError(name, 'must be at least 16 characters long');
  return value;
}

function readFlag(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(name, `must be true or false (got "${env[name]}")`);
}

/** A flag that is on unless set to false. */
function readFlagDefaultTrue(env: Env, name: string): boolean {
  return env[name] === undefined || env[name].trim() === '' ? true : readFlag(env, name);
}

function readPositiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(name, `must be a positive number (got "${raw}")`);
  return value;
}

/**
 * Outside production a secret is generated once and kept under the data folder, so that nonces
 * survive restarts of a developer's instance without any setting.
 */
function resolveNonceSecret(env: Env, nodeEnv: string, dataDir: string): string {
  const configured = env.NONCE_SECRET;
  if (configured !== undefined && configured !== '') {
    if (configured.length < 16) throw new ConfigError('NONCE_SECRET', 'must be at least 16 characters long');
    return configured;
  }
  if (nodeEnv === 'production') {
    throw new ConfigError('NONCE_SECRET', 'is required when NODE_ENV=production (shared by every instance)');
  }
  const file = join(dataDir, 'nonce-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function readBootstrapAdmin(env: Env): AppConfig['bootstrapAdmin'] {
  const login = env.CAL_ADMIN_USER?.trim();
  const password = env.CAL_ADMIN_PASSWORD;
  if (!login && !password) return null;
  if (!login) throw new ConfigError('CAL_ADMIN_USER', 'is required when CAL_ADMIN_PASSWORD is set');
  if (!password) throw new ConfigError('CAL_ADMIN_PASSWORD', 'is required when CAL_ADMIN_USER is set');
  if (!/^[A-Za-z0-9._@-]{1,60}$/.test(login)) {
    throw new ConfigError('CAL_ADMIN_USER', 'may hold only letters, digits and . _ @ - (at most 60)');
  }
  if (password.length < 8) throw new ConfigError('CAL_ADMIN_PASSWORD', 'must be at least 8 characters long');
  return { login, password };
}

function readNonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new ConfigError(name, `must be a whole number from 0 (got "${raw}")`);
  return Number(raw);
}

function readSmtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('protocol');
  } catch {
    throw new ConfigError('SMTP_URL', 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.org:587');
  }
  return raw.trim();
}

function readNotifications(env: Env): NotificationsConfig {
  const worker = readFlagDefaultTrue(env, 'OUTBOX_WORKER');
  const emailFrom = (env.EMAIL_FROM ?? '').trim() || 'Tickets <tickets@localhost>';
  if (/[\r\n]/.test(emailFrom)) throw new ConfigError('EMAIL_FROM', 'must be one line');
  return {
    worker,
    pollIntervalMs: readPositiveInt(env, 'OUTBOX_POLL_INTERVAL_MS', 2000),
    retryBaseMs: readPositiveInt(env, 'OUTBOX_RETRY_BASE_MS', 30_000),
    maxAgeHours: readPositiveInt(env, 'OUTBOX_MAX_AGE_HOURS', 72),
    retentionDays: readPositiveInt(env, 'OUTBOX_RETENTION_DAYS', 14),
    smtpUrl: readSmtpUrl(env.SMTP_URL),
    emailFrom,
    emailTemplatesDir: (env.EMAIL_TEMPLATES_DIR ?? '').trim() ? resolve((env.EMAIL_TEMPLATES_DIR as string).trim()) : null,
    webhookAllowPrivate: readFlag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    webhookTimeoutMs: readPositiveInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
  };
}

function readRateLimits(env: Env): RateLimitConfig {
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl !== null) {
    let valid: boolean;
    try {
      valid = ['redis:', 'rediss:'].includes(new URL(redisUrl).protocol);
    } catch {
      valid = false;
    }
    if (!valid) throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
  }
  const redisKeyPrefix = env.REDIS_KEY_PREFIX ?? 'cal:';
  if (!/^[A-Za-z0-9:._-]{0,64}$/.test(redisKeyPrefix)) {
    throw new ConfigError('REDIS_KEY_PREFIX', `may hold only letters, digits and : . _ - (at most 64; got "${redisKeyPrefix}")`);
  }
  return {
    anonymousPerMinute: readNonNegativeInt(env, 'RATE_LIMIT_PER_MINUTE', 600),
    authenticatedPerMinute: readNonNegativeInt(env, 'RATE_LIMIT_AUTHENTICATED_PER_MINUTE', 1200),
    authFailureLimit: readNonNegativeInt(env, 'AUTH_FAILURE_LIMIT', 10),
    authFailureWindowMinutes: readPositiveInt(env, 'AUTH_FAILURE_WINDOW_MINUTES', 15),
    couponFailureLimit: readNonNegativeInt(env, 'COUPON_FAILURE_LIMIT', 10),
    couponFailureWindowMinutes: readPositiveInt(env, 'COUPON_FAILURE_WINDOW_MINUTES', 15),
    redisUrl,
    redisKeyPrefix,
  };
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: how many proxies stand in front (`1`), or which peers are proxies (`loopback`,
 * `10.0.0.0/8, 192.168.1.7`). The client address behind them keys the per-address limits; trusting
 * every peer would let any client pick its own address, so `true` is refused.
 */
function readTrustProxy(raw: string | undefined): number | string {
  const value = (raw ?? 'loopback').trim();
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const valid = entries.every(
    (entry) =>
      PROXY_NAMES.includes(entry) || /^[0-9.]+(\/\d{1,2})?$/.test(entry) || /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(\/\d{1,3})?$/.test(entry),
  );
  if (!valid || value === '') {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be a hop count or a list of addresses, subnets, loopback, linklocal or uniquelocal (got "${raw}")`,
    );
  }
  return entries.join(',');
}

/**
 * CORS_ORIGINS: comma-separated origins (`https://shop.example.org`) allowed with credentials, plus
 * `*` for any other origin without them. Unset: any origin, never with credentials.
 */
function readCors(raw: string | undefined): CorsConfig {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return { credentialedOrigins: [], anyOrigin: true };
  const credentialedOrigins: string[] = [];
  for (const entry of entries) {
    if (entry === '*') continue;
    const origin = originOf(entry);
    if (origin === null)
      throw new ConfigError('CORS_ORIGINS', `must list origins such as https://example.org (no path) or * (got "${entry}")`);
    credentialedOrigins.push(origin);
  }
  return { credentialedOrigins, anyOrigin: entries.includes('*') };
}

/** `entry` as an origin (`https://example.org`: http or https, no path), or null when it is not one. */
function originOf(entry: string): string | null {
  try {
    const url = new URL(entry);
    const isOrigin = (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/$/, '').toLowerCase();
    return isOrigin ? url.origin : null;
  } catch {
    return null;
  }
}

/** A comma-separated list of origins (`https://example.org`, no path). */
function readOriginList(name: string, raw: string | undefined): string[] {
  const origins: string[] = [];
  for (const entry of (raw ?? '').split(',').map((item) => item.trim())) {
    if (entry === '') continue;
    const origin = originOf(entry);
    if (origin === null) throw new ConfigError(name, `must list origins such as https://example.org (no path) (got "${entry}")`);
    origins.push(origin);
  }
  return origins;
}

/** MCP_ALLOWED_HOSTS: comma-separated host names, each with an optional port (`cal.internal:3000`). */
function readHostList(raw: string | undefined): string[] {
  const hosts: string[] = [];
  for (const entry of (raw ?? '').split(',').map((item) => item.trim().toLowerCase())) {
    if (entry === '') continue;
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(entry))
      throw new ConfigError('MCP_ALLOWED_HOSTS', `must list host names with an optional port such as cal.internal:3000 (got "${entry}")`);
    hosts.push(entry);
  }
  return hosts;
}

/**
 * Loads `.env` from the working folder, if any, without overriding variables already set.
 * Tests never read it, so that a developer's settings cannot leak into them.
 */
export function loadDotEnvFile(path = '.env'): void {
  if (process.env.NODE_ENV !== 'test' && existsSync(path)) process.loadEnvFile(path);
}

/** Reads and checks every setting; throws a ConfigError naming the first bad one. */
export function loadAppConfig(env: Env = process.env): AppConfig {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  const siteTimezone = env.SITE_TIMEZONE ?? 'UTC';
  if (!isValidTimeZone(siteTimezone)) {
    throw new ConfigError('SITE_TIMEZONE', `must be an IANA zone name or UTC±N (got "${siteTimezone}")`);
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }
  const currency = readCurrency(env);
  return {
    nodeEnv,
    port: readPort(env),
    database: withReplicas(
      parseDatabaseUrl(env.DATABASE_URL, dataDir, readPositiveInt(env, 'DATABASE_POOL_SIZE', 10)),
      env.DATABASE_REPLICA_URLS,
      dataDir,
    ),
    apiRoot: normaliseApiRoot(env.API_ROOT),
    apiPrefix: readApiPrefix(env.API_PREFIX),
    publicUrl: readPublicUrl(env.PUBLIC_URL),
    siteTimezone,
    siteName: env.SITE_NAME?.trim() || 'cal',
    siteDescription: env.SITE_DESCRIPTION?.trim() ?? '',
    tecRequireAcknowledgement: readFlagDefaultTrue(env, 'TEC_V1_REQUIRE_ACKNOWLEDGEMENT'),
    nonceSecret: resolveNonceSecret(env, nodeEnv, dataDir),
    bootstrapAdmin: readBootstrapAdmin(env),
    logLevel,
    dataDir,
    bodyLimitBytes: readPositiveInt(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    currency,
    geolocRadiusKm: readPositiveNumber(env, 'GEOLOC_RADIUS_KM', 50),
    tickets: {
      maxTicketsPerOrder: readPositiveInt(env, 'MAX_TICKETS_PER_ORDER', 100),
      orderHoldMinutes: readPositiveInt(env, 'ORDER_HOLD_MINUTES', 15),
      orderSweepIntervalSeconds: readPositiveInt(env, 'ORDER_SWEEP_INTERVAL_SECONDS', 60),
      attendeeEditCutoffHours: readNonNegativeInt(env, 'ATTENDEE_EDIT_CUTOFF_HOURS', 24),
      attendeeTallyCompactSeconds: readNonNegativeInt(env, 'ATTENDEE_TALLY_COMPACT_SECONDS', 5),
      salesLedgerFoldSeconds: readNonNegativeInt(env, 'SALES_LEDGER_FOLD_SECONDS', 10),
      paymentWebhookSecret: readOptionalSecret(env, 'PAYMENT_WEBHOOK_SECRET'),
      waitlistOfferHours: readPositiveNumber(env, 'WAITLIST_OFFER_HOURS', 12),
      waitlistSweepIntervalSeconds: readPositiveInt(env, 'WAITLIST_SWEEP_INTERVAL_SECONDS', 60),
      checkinAnnulMinutes: readPositiveInt(env, 'CHECKIN_ANNUL_MINUTES', 15),
      queueTickMs: readNonNegativeInt(env, 'QUEUE_TICK_MS', 1000),
      queueGateRefreshMs: readNonNegativeInt(env, 'QUEUE_GATE_REFRESH_MS', 1000),
      queueJoinsPerAddress: readPositiveInt(env, 'QUEUE_JOINS_PER_ADDRESS', 10),
      queueJoinsPerAccount: readPositiveInt(env, 'QUEUE_JOINS_PER_ACCOUNT', 2),
    },
    rateLimits: readRateLimits(env),
    cors: readCors(env.CORS_ORIGINS),
    mcp: {
      allowedOrigins: readOriginList('MCP_ALLOWED_ORIGINS', env.MCP_ALLOWED_ORIGINS),
      allowedHosts: readHostList(env.MCP_ALLOWED_HOSTS),
      toolCallsPerMinute: readPositiveInt(env, 'MCP_TOOL_CALLS_PER_MINUTE', 120),
    },
    databaseStatementTimeoutMs: readNonNegativeInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 10_000),
    databasePoolWaitTimeoutMs: readNonNegativeInt(env, 'DATABASE_POOL_WAIT_TIMEOUT_MS', 10_000),
    databaseLogQueries: readFlag(env, 'DATABASE_LOG_QUERIES'),
    countCacheSeconds: readNonNegativeInt(env, 'COUNT_CACHE_SECONDS', 300),
    countCacheMb: readNonNegativeInt(env, 'COUNT_CACHE_MB', 4),
    eventDocumentCacheMb: readNonNegativeInt(env, 'EVENT_DOCUMENT_CACHE_MB', 32),
    eventDocumentStore: readFlagDefaultTrue(env, 'EVENT_DOCUMENT_STORE'),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    notifications: readNotifications(env),
    httpCache: {
      maxAgeSeconds: readNonNegativeInt(env, 'HTTP_CACHE_MAX_AGE', 0),
      staleWhileRevalidateSeconds: readNonNegativeInt(env, 'HTTP_CACHE_STALE_WHILE_REVALIDATE', 0),
      purgeUrl: readPurgeUrl(env.PURGE_URL),
    },
    exports: {
      worker: readFlagDefaultTrue(env, 'EXPORT_WORKER'),
      pollIntervalMs: readPositiveInt(env, 'EXPORT_POLL_INTERVAL_MS', 2000),
      ttlHours: readPositiveInt(env, 'EXPORT_TTL_HOURS', 24),
    },
    payments: readPaymentProviderName(env),
  };
}

function readPurgeUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError('PURGE_URL', `must be an http:// or https:// URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('PURGE_URL', `must be an http:// or https:// URL (got "${raw}")`);
  }
  return url.toString();
}

export const appConfig = registerAs('app', () => loadAppConfig(process.env));
export type AppConfigType = AppConfig;
