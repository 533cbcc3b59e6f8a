import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { connectionWaitTimedOut } from '../common/database/transactions';
import { appConfig } from '../config/app.config';
import { limitSqliteTransactionWaits } from './sqlite-serialization';

/** A connection that a request asked for and no longer waits for goes back to the pool at once. */
interface ReleasableConnection {
  release?: () => void;
}

interface MysqlDriverConnections {
  poolCluster?: unknown;
  obtainMasterConnection(): Promise<ReleasableConnection>;
  obtainSlaveConnection(): Promise<ReleasableConnection>;
}

/**
 * Whether the running code is inside a transaction's callback (which holds a pooled connection).
 * A mutable flag rather than the store's mere presence: work started inside the callback but still
 * running after it (never awaited) must not count as holding the connection.
 */
const openTransaction = new AsyncLocalStorage<{ open: boolean }>();

/** Whether a caller inside a transaction asks the pool for another connection. */
export class NestedConnectionError extends Error {
  constructor() {
    super("A second database connection was asked for while a transaction holds one: use the transaction's EntityManager.");
    this.name = 'NestedConnectionError';
  }
}

function withWaitLimit(obtain: () => Promise<ReleasableConnection>, waitTimeoutMs: number): Promise<ReleasableConnection> {
  const connection = obtain();
  if (waitTimeoutMs === 0) return connection;
  return new Promise((resolve, reject) => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      reject(connectionWaitTimedOut());
    }, waitTimeoutMs);
    connection.then(
      (obtained) => {
        clearTimeout(timer);
        if (waiting) resolve(obtained);
        else obtained.release?.();
      },
      (error: unknown) => {
        clearTimeout(timer);
        // The driver's own error, as it is: its code and errno say whether the database is down.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        if (waiting) reject(error);
      },
    );
  });
}

/**
 * MySQL/MariaDB: a request that waits longer than `waitTimeoutMs` for a pooled connection answers
 * 503 `database-busy` (mysql2 pools wait forever). And a transaction whose code asks the pool for
 * a second connection is reported: with every connection held by such transactions, each waits
 * for the others and the service stalls. Under NODE_ENV=test that is an error, so that the suites
 * find such code paths; otherwise it is logged and the wait limit keeps it from hanging.
 */
export function limitMysqlConnectionWaits(
  dataSource: DataSource,
  waitTimeoutMs: number,
  refuseNested: boolean,
  logger: Pick<Logger, 'error'>,
): void {
  const driver = dataSource.driver as unknown as MysqlDriverConnections;
  const checked = (obtain: () => Promise<ReleasableConnection>) => () => {
    if (openTransaction.getStore()?.open) {
      const nested = new NestedConnectionError();
      if (refuseNested) return Promise.reject(nested);
      logger.error({ err: nested }, nested.message);
    }
    return withWaitLimit(obtain, waitTimeoutMs);
  };
  const obtainMaster = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = checked(obtainMaster);
  // Without replicas TypeORM's slave connection is the master one, already limited above.
  if (driver.poolCluster) driver.obtainSlaveConnection = checked(driver.obtainSlaveConnection.bind(driver));

  const manager: EntityManager = dataSource.manager;
  const runTransaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  manager.transaction = async (...args: unknown[]) => {
    const work = args.pop() as (transactionManager: EntityManager) => Promise<unknown>;
    const state = { open: false };
    try {
      return await runTransaction(...args, (transactionManager: EntityManager) =>
        openTransaction.run(state, () => {
          state.open = true;
          return work(transactionManager);
        }),
      );
    } finally {
      state.open = false;
    }
  };
}

/**
 * DATABASE_POOL_WAIT_TIMEOUT_MS: the longest a request waits for a database connection (MySQL) or
 * for its turn to run a transaction (SQLite, one connection) before answering 503 `database-busy`.
 */
@Injectable()
export class ConnectionWaitLimit implements OnModuleInit {
  private readonly logger = new Logger('Database');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  onModuleInit(): void {
    const waitTimeoutMs = this.config.databasePoolWaitTimeoutMs;
    if (this.dataSource.options.type === 'mysql') {
      limitMysqlConnectionWaits(this.dataSource, waitTimeoutMs, this.config.nodeEnv === 'test', this.logger);
    } else {
      limitSqliteTransactionWaits(this.dataSource, waitTimeoutMs);
    }
  }
}
