import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SCOPE_EXTENSION } from '../auth/scope-decorators';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Turns each operation's `x-cal-scope` (from `@RequireScope`) into OpenAPI: the Bearer security
 * requirement naming the scope beside HTTP Basic, and the 403 `insufficient_scope` a token without
 * it gets. Routes open to any token list the Bearer scheme with no scope; routes closed to tokens
 * keep theirs.
 */
export function documentTokenScopes(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as (OperationObject & Record<string, unknown>) | undefined;
      const scope = operation?.[SCOPE_EXTENSION];
      if (!operation || typeof scope !== 'string') continue;
      if (scope === 'no-tokens') continue;
      const bearer = { bearer: scope === 'any' ? [] : [scope] };
      if (operation.security) operation.security = [...operation.security, bearer];
      else operation.security = [{}, { basic: [] }, bearer];
      if (scope === 'any') continue;
      const refusal = `insufficient_scope: an API token without ${scope} (WWW-Authenticate: Bearer error="insufficient_scope", scope="${scope}")`;
      const responses = operation.responses;
      const existing = responses['403'] as { description?: string } | undefined;
      responses['403'] = existing?.description
        ? { ...existing, description: `${existing.description}; ${refusal}` }
        : { description: refusal };
    }
  }
}
