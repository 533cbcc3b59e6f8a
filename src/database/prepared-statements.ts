import { DataSource, QueryFailedError } from 'typeorm';

/** What this needs of a pooled mysql2 connection (the callback API TypeORM's pool hands out). */
interface PreparingConnection {
  execute(sql: string, values: unknown[], callback: (error: Error | null, rows?: unknown) => void): unknown;
  release(): void;
}

/** What this needs of TypeORM's MySQL driver: a connection of the primary, through its pool (or pool cluster). */
interface PrimaryConnections {
  obtainMasterConnection(): Promise<PreparingConnection>;
}

/**
 * Runs a SELECT as a server-side prepared statement (mysql2's `execute`) on a pooled connection of
 * the primary, as TypeORM's own reads outside a transaction take one (the same pool, so the same
 * wait limit and statement timeout: connection-waits.ts, statement-timeout.ts). mysql2 keeps each
 * connection's prepared statements by their text, so after a connection's first call the server
 * neither parses nor plans the statement again, and neither side writes or reads its values as
 * text. The statement is logged through TypeORM's logger and a failure is a QueryFailedError, as
 * for `manager.query`. MySQL/MariaDB only (SqlDialect.preparedStatements); never inside a
 * transaction, whose statements must go to its own connection.
 */
export async function executePrepared<T>(dataSource: DataSource, sql: string, values: unknown[]): Promise<T[]> {
  const driver = dataSource.driver as unknown as PrimaryConnections;
  dataSource.logger.logQuery(sql, values);
  const connection = await driver.obtainMasterConnection();
  return new Promise<T[]>((resolve, reject) => {
    connection.execute(sql, values, (error, rows) => {
      connection.release();
      if (!error) return resolve(rows as T[]);
      dataSource.logger.logQueryError(error, sql, values);
      reject(new QueryFailedError(sql, values, error));
    });
  });
}
