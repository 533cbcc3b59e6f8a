import type { OpenAPIObject } from '@nestjs/swagger';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Every error of an API route has the one envelope (`Error`): declared here for each 4xx and 5xx
 * response a controller documents without a body, so that generated clients type their errors.
 * Routes outside `apiBase` (health, metrics) are left alone.
 */
export function documentErrorBodies(document: OpenAPIObject, apiBase: string): void {
  if (!document.components?.schemas?.Error) return;
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith(apiBase)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || !/^[45]/.test(status) || '$ref' in response || response.content) continue;
        response.content = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
      }
    }
  }
}
