import { createPool, Pool, PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { ApiFailure } from './errors';

export interface DatabaseOptions {
  databaseUrl: string;
  poolSize: number;
  /** Longest statement in ms, set on every connection as the service does; 0: none. */
  statementTimeoutMs: number;
  /** Sees every statement before it is sent (tests count them); absent in the benchmark. */
  onQuery?: (sql: string, values: unknown[]) => void;
}

const LOCK_CONFLICT_ERRNOS = new Set([1213, 1205]);
const LOCK_CONFLICT_RETRIES = 3;

function isLockConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && LOCK_CONFLICT_ERRNOS.has((error as { errno?: number }).errno ?? 0);
}

/**
 * A mysql2 pool set up as the service's TypeORM driver sets up its own (UTC dates, utf8mb4, big
 * numbers as numbers). Statements go through `query` with `?` placeholders: mysql2 escapes the
 * values into the statement text, which is what TypeORM sends too, so both servers put the same
 * bytes on the wire.
 */
export class Database {
  readonly pool: Pool;

  constructor(private readonly options: DatabaseOptions) {
    this.pool = createPool({
      uri: options.databaseUrl,
      connectionLimit: options.poolSize,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      supportBigNumbers: true,
      bigNumberStrings: false,
      connectTimeout: 5000,
    });
    if (options.statementTimeoutMs > 0) {
      const statement = `SET SESSION max_statement_time = ${options.statementTimeoutMs / 1000}`;
      // The core (callback) connection: its query is queued before the first statement of the pool's user.
      this.pool.pool.on('connection', (connection) => {
        connection.query(statement, () => undefined);
      });
    }
  }

  /** Rows of a SELECT on the pool. */
  async select<Row>(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await run(this.pool, sql, values, this.options.onQuery)) as Row[];
  }

  async write(sql: string, values: unknown[] = []): Promise<ResultSetHeader> {
    return (await run(this.pool, sql, values, this.options.onQuery)) as ResultSetHeader;
  }

  /**
   * `work` in one transaction on one connection. Deadlocks and lock wait timeouts roll back and
   * run it again, at most three times, then 503 `database-busy`: as the service's runInTransaction.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let retries = 0; ; retries += 1) {
      try {
        return await this.attempt(work);
      } catch (error) {
        if (!isLockConflict(error)) throw error;
        if (retries >= LOCK_CONFLICT_RETRIES) {
          throw new ApiFailure('database-busy', 'The request collided with others too many times; try again.', 503, { retry_after: 1 });
        }
      }
    }
  }

  private async attempt<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const connection = await this.pool.getConnection();
    const tx = new Transaction(connection, this.options.onQuery);
    try {
      await tx.write('START TRANSACTION');
      const result = await work(tx);
      await tx.write('COMMIT');
      for (const [sql, values] of tx.afterCommit) await tx.write(sql, values);
      return result;
    } catch (error) {
      await tx.write('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      connection.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

export class Transaction {
  /** Statements to run once the transaction has committed, on its connection. */
  readonly afterCommit: Array<[string, unknown[]]> = [];

  constructor(
    private readonly connection: PoolConnection,
    private readonly onQuery: DatabaseOptions['onQuery'],
  ) {}

  async select<Row>(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await run(this.connection, sql, values, this.onQuery)) as Row[];
  }

  async write(sql: string, values: unknown[] = []): Promise<ResultSetHeader> {
    return (await run(this.connection, sql, values, this.onQuery)) as ResultSetHeader;
  }
}

async function run(target: Pool | PoolConnection, sql: string, values: unknown[], onQuery: DatabaseOptions['onQuery']): Promise<unknown> {
  onQuery?.(sql, values);
  const [result] = await target.query(sql, values);
  return result;
}
