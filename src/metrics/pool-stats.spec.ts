import type { DataSource } from 'typeorm';
import { readPoolStats } from './pool-stats';

/** A mysql2 pool as far as readPoolStats looks: its connection lists and its limit. */
function pool(all: number, free: number, queued: number, limit = 10) {
  const list = (length: number) => ({ length });
  return { _allConnections: list(all), _freeConnections: list(free), _connectionQueue: list(queued), config: { connectionLimit: limit } };
}

function dataSourceWith(driver: object, isInitialized = true): DataSource {
  return { isInitialized, driver } as unknown as DataSource;
}

describe('readPoolStats', () => {
  it('reads the single pool of a plain MySQL data source', () => {
    expect(readPoolStats(dataSourceWith({ pool: pool(4, 1, 2, 10) }))).toEqual([
      { pool: 'primary', inUse: 3, idle: 1, queued: 2, limit: 10 },
    ]);
  });

  it('names the nodes of a replicated data source primary, replica1, replica2', () => {
    const poolCluster = {
      _nodes: { MASTER: { pool: pool(2, 2, 0) }, SLAVE0: { pool: pool(1, 0, 0, 5) }, SLAVE1: { pool: pool(0, 0, 0, 5) } },
    };
    expect(readPoolStats(dataSourceWith({ poolCluster })).map(({ pool: name, inUse }) => [name, inUse])).toEqual([
      ['primary', 0],
      ['replica1', 1],
      ['replica2', 0],
    ]);
  });

  it('reports nothing for a driver it does not know, or before the connection', () => {
    expect(readPoolStats(dataSourceWith({ pool: {} }))).toEqual([]);
    expect(readPoolStats(dataSourceWith({}))).toEqual([]);
    expect(readPoolStats(dataSourceWith({ pool: pool(1, 1, 0) }, false))).toEqual([]);
  });
});
