/**
 * Whether `body` is the one error envelope of the API, `{code, message, data: {status, ...}}`,
 * with `data.status` equal to the HTTP status. Returns what is wrong, or null.
 */
export function envelopeProblem(status: number, body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `the body is not an object: ${JSON.stringify(body)?.slice(0, 200)}`;
  const { code, message, data } = body as { code?: unknown; message?: unknown; data?: { status?: unknown } };
  if (typeof code !== 'string' || code === '') return `no code: ${JSON.stringify(body).slice(0, 200)}`;
  if (typeof message !== 'string') return `no message: ${JSON.stringify(body).slice(0, 200)}`;
  if (typeof data !== 'object' || data === null) return `no data: ${JSON.stringify(body).slice(0, 200)}`;
  if (data.status !== status) return `data.status ${String(data.status)} is not the HTTP status ${status}`;
  return null;
}
