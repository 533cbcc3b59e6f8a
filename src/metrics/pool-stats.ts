import type { DataSource } from 'typeorm';

export interface PoolStats {
  /** `primary`, or `replica1`, `replica2`... with read replicas. */
  pool: string;
  inUse: number;
  idle: number;
  queued: number;
  limit: number;
}

/** The parts of a mysql2 pool read here. mysql2 offers no public statistics, only these fields. */
interface Mysql2Pool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

interface Mysql2PoolCluster {
  _nodes?: Record<string, { pool?: Mysql2Pool }>;
}

interface MysqlDriverPools {
  pool?: Mysql2Pool;
  poolCluster?: Mysql2PoolCluster;
}

function statsOf(name: string, pool: Mysql2Pool | undefined): PoolStats[] {
  if (!pool?._allConnections || !pool._freeConnections || !pool._connectionQueue) return [];
  const all = pool._allConnections.length;
  const idle = pool._freeConnections.length;
  return [{ pool: name, inUse: all - idle, idle, queued: pool._connectionQueue.length, limit: pool.config?.connectionLimit ?? 0 }];
}

/**
 * The use of each MySQL pool of the data source: TypeORM's single pool, or with read replicas the
 * cluster's MASTER and SLAVEn nodes. Empty when the driver keeps its pools another way, so that
 * a driver upgrade loses these series instead of breaking the scrape.
 */
export function readPoolStats(dataSource: DataSource): PoolStats[] {
  if (!dataSource.isInitialized) return [];
  const driver = dataSource.driver as unknown as MysqlDriverPools;
  if (driver.poolCluster?._nodes) {
    return Object.entries(driver.poolCluster._nodes).flatMap(([id, node]) => {
      const replica = /^SLAVE(\d+)$/.exec(id);
      return statsOf(replica ? `replica${Number(replica[1]) + 1}` : 'primary', node.pool);
    });
  }
  return statsOf('primary', driver.pool);
}
