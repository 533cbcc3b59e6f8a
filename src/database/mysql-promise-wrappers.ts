import { PoolConnection } from 'mysql2';

/** What a pooled connection's `promise()` answers: here, only the identity matters. */
type PromiseWrapper = object;

interface PatchablePoolConnection {
  promise: (this: PatchablePoolConnection, promiseImpl?: PromiseConstructor) => PromiseWrapper;
  [KEPT_WRAPPER]?: PromiseWrapper;
}

const KEPT_WRAPPER = Symbol('cal.keptPromiseWrapper');
const PATCHED = Symbol.for('cal.mysql2.keptPromiseWrappers');

/**
 * TypeORM sends every statement as `connection.promise().query(...)`, and mysql2's PoolConnection
 * answers `promise()` by resolving its promise module again and building a new wrapper (an
 * EventEmitter with its listeners) each time: 2.9 % of the service's CPU in a flash sale. The
 * wrapper holds nothing but the connection and the Promise class, so each pooled connection keeps
 * its first one and hands it out again. Idempotent; a call with another Promise class still gets a
 * wrapper of its own.
 */
export function keepMysqlPromiseWrappers(): void {
  const prototype = PoolConnection.prototype as unknown as PatchablePoolConnection & { [PATCHED]?: true };
  if (prototype[PATCHED]) return;
  const build = prototype.promise;
  prototype.promise = function (this: PatchablePoolConnection, promiseImpl?: PromiseConstructor): PromiseWrapper {
    if (promiseImpl !== undefined) return build.call(this, promiseImpl);
    return (this[KEPT_WRAPPER] ??= build.call(this));
  };
  prototype[PATCHED] = true;
}
