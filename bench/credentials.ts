/**
 * Users the benchmark seed creates, with fixed application passwords so that the runner can
 * authenticate with HTTP Basic without reading anything back. The seeded logins start with
 * `bench-`, apart from any bootstrap administrator (CAL_ADMIN_USER) the service creates itself.
 * These are benchmark-only secrets: never reuse them on a real calendar.
 */
export const BENCH_ADMIN_LOGIN = 'bench-admin';
export const BENCH_ADMIN_APPLICATION_PASSWORD = 'Bnch7Adm1nQx4Lp9Zr2Wk6Ty';

export const BENCH_EDITOR_LOGIN = 'bench-editor';
export const BENCH_EDITOR_APPLICATION_PASSWORD = 'Bnch3Ed1trMv8Hs5Nc7Jq2Pu';

/** The `Authorization` header value for HTTP Basic with these credentials. */
export function basicAuthorization(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

export const BENCH_ADMIN_AUTHORIZATION = basicAuthorization(BENCH_ADMIN_LOGIN, BENCH_ADMIN_APPLICATION_PASSWORD);
export const BENCH_EDITOR_AUTHORIZATION = basicAuthorization(BENCH_EDITOR_LOGIN, BENCH_EDITOR_APPLICATION_PASSWORD);
