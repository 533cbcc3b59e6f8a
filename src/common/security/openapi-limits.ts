import type { OpenAPIObject } from '@nestjs/swagger';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** What any route's 429 means; routes that may answer 429 for more reasons declare it with this and theirs. */
export const RATE_LIMIT_DESCRIPTION =
  'rest_too_many_requests: the caller has used up its requests of the minute (RATE_LIMIT_PER_MINUTE per address, RATE_LIMIT_AUTHENTICATED_PER_MINUTE per user); too-many-login-failures: too many failed Basic logins of this login from this address, or from this address; wait Retry-After seconds (the pause doubles with each further failure)';

/** The 429 of routes that take a coupon or access code: the request limits and the failed-code pauses. */
export const COUPON_ATTEMPTS_DESCRIPTION = `${RATE_LIMIT_DESCRIPTION}; too-many-coupon-failures: too many wrong coupon codes from this address or for this cart (COUPON_FAILURE_LIMIT), the code was not looked up`;

export const RETRY_AFTER_HEADERS = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
};

/**
 * Every API route may answer 429 (the request limits, or failed logins for any route reached with
 * Basic credentials): declared once here rather than on each controller, so that no route can
 * miss it. Routes outside `apiBase` (health, metrics) are not limited and are left alone.
 */
export function documentRateLimits(document: OpenAPIObject, apiBase: string): void {
  const envelope = document.components?.schemas?.Error
    ? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
    : {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith(apiBase)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      // A route that declares its own 429 (more reasons) gets the error envelope and Retry-After here too.
      operation.responses['429'] = {
        description: RATE_LIMIT_DESCRIPTION,
        headers: RETRY_AFTER_HEADERS,
        ...envelope,
        ...operation.responses['429'],
      };
    }
  }
}
