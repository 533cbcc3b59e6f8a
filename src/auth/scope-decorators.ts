import { SetMetadata } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiExtension } from '@nestjs/swagger';
import type { Scope } from './scopes';

/**
 * What an API token caller needs on a route (issue 43). Every route declares one, on its handler or
 * its controller class (a handler's wins): `src/auth/scope-coverage.spec.ts` fails when one does not,
 * and the scope guard refuses token callers on a route that declares none.
 */
export const REQUIRED_SCOPE = 'cal:required-scope';

export type ScopeRequirement =
  /** Token callers need this scope (403 `insufficient_scope` otherwise). */
  | { kind: 'scope'; scope: Scope }
  /** Any token caller may call it (public routes: indexes, health, the waiting room's join, nonces). */
  | { kind: 'any' }
  /** No token caller may (managing tokens). */
  | { kind: 'no-tokens' };

/** The OpenAPI extension naming the scope of an operation; app.setup turns it into the Bearer security requirement. */
export const SCOPE_EXTENSION = 'x-cal-scope';

function declare(requirement: ScopeRequirement): ClassDecorator & MethodDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (descriptor && key !== undefined) {
      SetMetadata(REQUIRED_SCOPE, requirement)(target, key, descriptor);
      document(descriptor.value as object, requirement);
      return;
    }
    SetMetadata(REQUIRED_SCOPE, requirement)(target as never);
    // Swagger reads extensions from handlers only: give every route of the class that declares none its own.
    for (const handler of routeHandlers(target as abstract new (...args: never[]) => unknown)) {
      if (!Reflect.hasOwnMetadata(REQUIRED_SCOPE, handler)) document(handler, requirement);
    }
  };
}

function document(handler: object, requirement: ScopeRequirement): void {
  const value = requirement.kind === 'scope' ? requirement.scope : requirement.kind;
  ApiExtension(SCOPE_EXTENSION, value)({}, 'handler', { value: handler });
}

/** The route handlers of a controller class, its inherited ones included (controllers made by a factory). */
export function routeHandlers(controller: abstract new (...args: never[]) => unknown): object[] {
  const handlers: object[] = [];
  const seen = new Set<string>();
  for (
    let prototype = controller.prototype as object | null;
    prototype && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name === 'constructor' || seen.has(name)) continue;
      seen.add(name);
      const value = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (typeof value === 'function' && Reflect.hasMetadata(METHOD_METADATA, value)) handlers.push(value);
    }
  }
  return handlers;
}

/** Token callers need `scope` on this route (or every route of the class). */
export const RequireScope = (scope: Scope) => declare({ kind: 'scope', scope });

/** Any token caller may use this route: it is public, or needs no scope (an index, a health check, a join). */
export const AnyScope = () => declare({ kind: 'any' });

/** No token caller may use this route, whatever its scopes (tokens never manage tokens). */
export const NoTokens = () => declare({ kind: 'no-tokens' });
