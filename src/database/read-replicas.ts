import { AsyncLocalStorage } from 'node:async_hooks';
import { ExecutionContext, Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/app.config';

/**
 * The GET routes whose reads go to the read replicas (paths inside the API prefix): the public
 * catalogue lists, which are the bulk of the traffic and tolerate a replica's lag of a moment.
 * Every other read stays on the primary so that a client always sees its own writes: the object a
 * create or update returns, the `Location` it follows next, carts, checkout, orders, attendees
 * (staff refresh the list right after a check-in), nonces and authentication.
 */
export const REPLICA_READ_ROUTES: ReadonlySet<string> = new Set([
  'events/v1/events',
  // The iCalendar feed: a list too, polled by calendar apps.
  'events/v1/events/ics',
  'events/v1/venues',
  'events/v1/organizers',
  'events/v1/categories',
  'events/v1/tags',
  'tickets/v1/tickets',
]);

/** Failed replicas are tried again after this long instead of being dropped for good (mysql2's default). */
const REPLICA_RESTORE_MS = 5000;

/**
 * TypeORM's `replication` options for a MySQL config with replicas (none otherwise): writes,
 * transactions and migrations use the primary; SELECTs outside a transaction use the pool that
 * `defaultMode` names. TypeORM's default is the replicas ("slave"); it is set to the primary here,
 * and `routeListReadsToReplicas` sends only the reads of `REPLICA_READ_ROUTES` to the replicas.
 */
export function replicationOptions(database: DatabaseConfig): object {
  if (database.type !== 'mysql' || !database.replicaUrls?.length) return {};
  return {
    replication: {
      master: { url: database.url },
      slaves: database.replicaUrls.map((url) => ({ url })),
      selector: 'RR',
      defaultMode: 'master',
      restoreNodeTimeout: REPLICA_RESTORE_MS,
    },
  };
}

const replicaReads = new AsyncLocalStorage<true>();

/** Runs `work` with its query-builder reads outside transactions going to the replicas. */
export function readFromReplicas<T>(work: () => T): T {
  return replicaReads.run(true, work);
}

/** Whether the code running now is inside `readFromReplicas`. */
export function readingFromReplicas(): boolean {
  return replicaReads.getStore() === true;
}

export function isReplicated(dataSource: DataSource): boolean {
  return dataSource.options.type === 'mysql' && !!dataSource.options.replication;
}

/**
 * TypeORM asks `defaultReplicationModeForReads()` which pool a SELECT without a query runner
 * uses (repository finds, counts and query builders outside transactions). Inside
 * `readFromReplicas` it is the replicas; everywhere else the primary. Queries in a transaction and
 * raw `dataSource.query()` calls always run on the primary, whatever this says.
 */
export function routeListReadsToReplicas(dataSource: DataSource): void {
  if (!isReplicated(dataSource)) return;
  dataSource.defaultReplicationModeForReads = () => (readingFromReplicas() ? 'slave' : 'master');
}

function joinPaths(...parts: Array<string | undefined>): string {
  return parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter((segment) => segment !== '')
    .join('/');
}

/** `events/v1/events` for the handler of `GET {prefix}/events/v1/events`; null for other methods. */
export function getRoutePath(reflector: Reflector, context: ExecutionContext): string | null {
  if (reflector.get<RequestMethod>(METHOD_METADATA, context.getHandler()) !== RequestMethod.GET) return null;
  return joinPaths(reflector.get<string>(PATH_METADATA, context.getClass()), reflector.get<string>(PATH_METADATA, context.getHandler()));
}

/** Which handlers run inside `readFromReplicas`: those of `REPLICA_READ_ROUTES`, none without replicas (RequestPipelineInterceptor asks). */
@Injectable()
export class ReplicaReadRoutes {
  /** Whether each handler reads from the replicas: its route does not change, so it is looked up once. */
  private readonly readsReplicas = new WeakMap<object, boolean>();

  /** Without replicas every read is on the primary: nothing to route. */
  private readonly replicated: boolean;

  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.replicated = isReplicated(dataSource);
  }

  /** Whether the HTTP handler of `context` reads from the replicas. */
  readFromReplicas(context: ExecutionContext): boolean {
    if (!this.replicated) return false;
    const handler = context.getHandler();
    let replicas = this.readsReplicas.get(handler);
    if (replicas === undefined) {
      const route = getRoutePath(this.reflector, context);
      replicas = route !== null && REPLICA_READ_ROUTES.has(route);
      this.readsReplicas.set(handler, replicas);
    }
    return replicas;
  }
}
