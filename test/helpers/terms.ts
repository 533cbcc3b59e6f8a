import type { Response } from 'supertest';

/** Asserts the error envelope: status, code and, when given, `data.params`. */
export function expectApiError(response: Response, status: number, code: string, params?: unknown): void {
  expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
  expect(response.body.data.status).toBe(status);
  if (params !== undefined) expect(response.body.data.params).toEqual(params);
}

/** `?a=1&b=2` of an absolute URL as an object, to compare links without caring about order. */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}
