import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * `wsrep_sync_wait` for every session on a Galera node. Galera replicates synchronously but applies
 * asynchronously: a read on node B right after a commit on node A may not see it yet. The service
 * reads back what a buyer just wrote (a cart, an order, a nonce, an idempotency key) and may be
 * answered by an instance on another node, so each read waits until the node has applied
 * everything committed cluster-wide before it began (1 = reads; causality costs one round trip to
 * the cluster per statement, on loopback well under a millisecond).
 */
export const GALERA_SYNC_WAIT = 1;

interface PoolConnection {
  query(sql: string, callback?: (error: unknown) => void): unknown;
}

interface EventedPool {
  on(event: 'acquire', listener: (connection: PoolConnection) => void): void;
}

/** True when the server is a Galera node with replication on. */
export async function isGaleraNode(dataSource: DataSource): Promise<boolean> {
  if (dataSource.options.type !== 'mysql') return false;
  const rows = await dataSource.query<Array<{ Value?: string }>>("SHOW VARIABLES LIKE 'wsrep_on'");
  return rows[0]?.Value === 'ON';
}

/**
 * On a Galera node, sets `wsrep_sync_wait` on each pooled connection the first time it is taken.
 * The SET is queued on the connection before anything its taker sends, so no read runs without it.
 */
export async function enableCausalReadsOnGalera(dataSource: DataSource): Promise<boolean> {
  if (!(await isGaleraNode(dataSource))) return false;
  const pool = (dataSource.driver as unknown as { pool?: EventedPool }).pool;
  if (!pool) return false;
  const prepared = new WeakSet<PoolConnection>();
  const logger = new Logger('Galera');
  pool.on('acquire', (connection) => {
    if (prepared.has(connection)) return;
    prepared.add(connection);
    connection.query(`SET SESSION wsrep_sync_wait = ${GALERA_SYNC_WAIT}`, (error) => {
      if (error) logger.error({ err: error }, 'setting wsrep_sync_wait failed');
    });
  });
  logger.log(`Galera node: reads wait for the cluster (wsrep_sync_wait=${GALERA_SYNC_WAIT})`);
  return true;
}
