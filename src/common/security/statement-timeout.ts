import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { appConfig } from '../../config/app.config';
import { SqlDialect } from '../../database/sql-dialect';

/** What this needs of a mysql2 connection (callback API, as TypeORM uses it). */
interface SessionConnection {
  query(sql: string, callback: (error: Error | null) => void): unknown;
}

type ConnectionCallback = (error: Error | null, connection?: SessionConnection) => void;

/** What this needs of TypeORM's MySQL driver: its pool, or its pool cluster when there are replicas. */
interface MysqlPools {
  pool?: { on(event: 'acquire', listener: (connection: SessionConnection) => void): unknown };
  poolCluster?: { getConnection(...args: unknown[]): unknown };
}

/**
 * The session statement for a limit of `ms`: MariaDB's `max_statement_time` (seconds, every
 * statement) or MySQL's `max_execution_time` (ms, SELECTs only).
 */
export function statementTimeoutSql(serverVersion: string | undefined, ms: number): string {
  return /mariadb/i.test(serverVersion ?? '') ? `SET SESSION max_statement_time = ${ms / 1000}` : `SET SESSION max_execution_time = ${ms}`;
}

/**
 * Sets the limit on every pooled connection the first time it is handed out after this call: the
 * SET is queued on the connection before the caller's first statement. Connections of a replica
 * pool cluster get it through the cluster's getConnection, which mysql2 gives no event for.
 */
export function applyStatementTimeout(driver: MysqlPools, serverVersion: string, ms: number, logger: Pick<Logger, 'warn'>): void {
  const sql = statementTimeoutSql(serverVersion, ms);
  const prepared = new WeakSet<SessionConnection>();
  const prepare = (connection: SessionConnection) => {
    if (prepared.has(connection)) return;
    prepared.add(connection);
    connection.query(sql, (error) => {
      if (!error) return;
      prepared.delete(connection);
      logger.warn(`could not set the statement timeout on a database connection: ${error.message}`);
    });
  };
  driver.pool?.on('acquire', prepare);
  const cluster = driver.poolCluster;
  if (cluster) {
    const getConnection = cluster.getConnection.bind(cluster);
    cluster.getConnection = (...args: unknown[]) => {
      const callback = args.pop() as ConnectionCallback;
      return getConnection(...args, (error: Error | null, connection?: SessionConnection) => {
        if (!error && connection) prepare(connection);
        callback(error, connection);
      });
    };
  }
}

/**
 * DATABASE_STATEMENT_TIMEOUT_MS on MySQL/MariaDB: a statement running longer is stopped by the
 * server and the request answers 503 `db-timeout`, so that one runaway query cannot hold a pooled
 * connection and its locks indefinitely. It starts at application bootstrap, after the migrations,
 * whose DDL and lock wait may rightly run longer; the CLI and the TypeORM CLI never set it.
 * SQLite has no statement timeout (its writers wait at most busy_timeout for the lock).
 */
@Injectable()
export class StatementTimeout implements OnApplicationBootstrap {
  private readonly logger = new Logger('Database');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const ms = this.config.databaseStatementTimeoutMs;
    if (ms === 0 || !SqlDialect.of(this.dataSource).statementTimeouts) return;
    // The full version string names MariaDB; TypeORM keeps only its numbers.
    const [row]: Array<{ version: string }> = await this.dataSource.query('SELECT VERSION() AS version');
    applyStatementTimeout(this.dataSource.driver as unknown as MysqlPools, row?.version ?? '', ms, this.logger);
  }
}
