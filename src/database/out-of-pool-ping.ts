import { createPool, Pool } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/app.config';

/**
 * `SELECT 1` outside the request pool: when a burst of writes holds every pooled connection (or,
 * on SQLite, queues for the one connection), the database is busy, not down, and a health check
 * must say so rather than wait behind them and time out. MySQL: a connection of its own
 * (reconnected after a failure); SQLite: the statement straight on the connection, which cannot
 * disturb the transaction running on it.
 */
export class OutOfPoolPing {
  private pool: Pool | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: DatabaseConfig,
  ) {}

  async ping(timeoutMs: number): Promise<void> {
    if (this.database.type === 'mysql') {
      this.pool ??= createPool({ uri: this.database.url, connectionLimit: 1, maxIdle: 1, connectTimeout: timeoutMs });
      await this.pool.query('SELECT 1');
      return;
    }
    const driver = this.dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): { get(): unknown } } };
    driver.databaseConnection.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.pool?.end().catch(() => undefined);
    this.pool = null;
  }
}
