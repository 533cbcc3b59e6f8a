import type { DataSource, EntityManager } from 'typeorm';
import { limitMysqlConnectionWaits, NestedConnectionError } from './connection-waits';

/** A data source whose pool hands out `free` connections and then makes callers wait until one is released. */
function fakePool(free: number) {
  const waiting: Array<(connection: { release: () => void }) => void> = [];
  const released: number[] = [];
  let next = 0;
  const connection = () => {
    const id = (next += 1);
    return { id, release: () => released.push(id) };
  };
  const driver = {
    obtainMasterConnection: () =>
      free > 0 ? ((free -= 1), Promise.resolve(connection())) : new Promise<{ release: () => void }>((resolve) => waiting.push(resolve)),
    obtainSlaveConnection: () => driver.obtainMasterConnection(),
  };
  const manager = {
    transaction: async (work: (manager: EntityManager) => Promise<unknown>) => {
      await driver.obtainMasterConnection();
      return work({} as EntityManager);
    },
  };
  const dataSource = { driver, manager } as unknown as DataSource;
  return { dataSource, driver, released, serveOne: () => waiting.shift()?.(connection()) };
}

const logger = { error: jest.fn() };

describe('limitMysqlConnectionWaits', () => {
  it('answers 503 database-busy when no connection comes within the limit, and gives back one that comes later', async () => {
    const pool = fakePool(0);
    limitMysqlConnectionWaits(pool.dataSource, 20, false, logger);
    await expect(pool.driver.obtainMasterConnection()).rejects.toMatchObject({ code: 'database-busy' });
    pool.serveOne();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pool.released).toEqual([1]);
  });

  it('refuses a second connection asked for inside a transaction when told to', async () => {
    const pool = fakePool(2);
    limitMysqlConnectionWaits(pool.dataSource, 1000, true, logger);
    const nested = pool.dataSource.manager.transaction(async () => pool.driver.obtainMasterConnection());
    await expect(nested).rejects.toBeInstanceOf(NestedConnectionError);
    // Outside the transaction (after it), a connection is handed out as usual.
    await expect(pool.driver.obtainMasterConnection()).resolves.toMatchObject({ id: 2 });
  });

  it('otherwise logs it and serves it within the limit', async () => {
    const pool = fakePool(2);
    limitMysqlConnectionWaits(pool.dataSource, 1000, false, logger);
    await expect(pool.dataSource.manager.transaction(async () => pool.driver.obtainMasterConnection())).resolves.toMatchObject({ id: 2 });
    expect(logger.error).toHaveBeenCalled();
  });
});
