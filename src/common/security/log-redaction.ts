import { stdSerializers, type DestinationStream } from 'pino';

/**
 * Where the JSON logs go instead of standard output, when provided (tests capture them with it).
 * Null: standard output.
 */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');
export type LogDestination = DestinationStream | null;

const REDACTED = '[redacted]';

/**
 * Headers that carry credentials or proofs: Basic credentials, the cart token (request header,
 * response header, cookie both ways), the payment webhooks' signatures, WordPress-style nonces.
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers["x-cart-token"]',
  'req.headers["x-signature"]',
  'req.headers["stripe-signature"]',
  'req.headers["x-wp-nonce"]',
  'res.headers["set-cookie"]',
  'res.headers["x-cart-token"]',
  // The values a failed query was run with, and the driver's copy of the SQL with them inlined.
  'err.parameters',
  'err.sql',
  'err.driverError.parameters',
  'err.driverError.sql',
  'err.driverError.sqlMessage',
];

/** Query parameters whose values are secrets wherever they appear (clients of the original send nonces in the query too). */
const SECRET_PARAMETERS = new Set([
  'add_ticket_nonce',
  'edit_ticket_nonce',
  'remove_ticket_nonce',
  '_wpnonce',
  'security_code',
  'cart_token',
  'token',
  'password',
  'signature',
]);

/** The attendee list searches names, emails and security codes: its search term is personal data. */
function isSecretParameter(name: string, path: string): boolean {
  return SECRET_PARAMETERS.has(name.toLowerCase()) || (name === 'search' && /\/attendees\/?$/.test(path));
}

/** `url` with the values of secret query parameters replaced (keys kept, so the log still says what was sent). */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const path = url.slice(0, queryStart);
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      if (separator < 0) return pair;
      let name = pair.slice(0, separator);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape names no secret parameter we know; keep it as sent.
      }
      return isSecretParameter(name.replace(/\[.*$/, ''), path) ? `${pair.slice(0, separator)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

function redactQuery(query: unknown, path: string): unknown {
  if (typeof query !== 'object' || query === null) return query;
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, isSecretParameter(name, path) ? REDACTED : value]));
}

/** MariaDB/MySQL and SQLite repeat the offending value in a duplicate-key message (a token, a code). */
export function redactMessage(message: string): string {
  return message.replace(/Duplicate entry '.*?' for key/gs, `Duplicate entry '${REDACTED}' for key`);
}

interface SerializedRequest {
  url?: string;
  query?: unknown;
  [field: string]: unknown;
}

/** The request serializer, after pino's standard one: secrets out of the URL and the parsed query. */
export function redactRequest(request: SerializedRequest): SerializedRequest {
  const url = typeof request.url === 'string' ? request.url : '';
  const path = url.split('?')[0];
  return { ...request, url: request.url === undefined ? undefined : redactUrl(url), query: redactQuery(request.query, path) };
}

interface SerializedError {
  message?: unknown;
  stack?: unknown;
  [field: string]: unknown;
}

/**
 * The error serializer: the standard one (the root logger's wrapper has already applied it; pino itself hands over
 * the error as thrown), then values out of duplicate-key messages.
 */
export function redactError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const redacted: SerializedError = { ...(error instanceof Error ? stdSerializers.err(error) : (error as SerializedError)) };
  if (typeof redacted.message === 'string') redacted.message = redactMessage(redacted.message);
  if (typeof redacted.stack === 'string') redacted.stack = redactMessage(redacted.stack);
  return redacted;
}
