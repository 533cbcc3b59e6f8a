import { HttpException, Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { createPool, Pool } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { appConfig } from '../config/app.config';

/**
 * Whether the database answers, asked outside the request pool: when a burst of writes holds
 * every pooled connection (or, on SQLite, queues for the one connection), the service is busy,
 * not down, and /health must say so rather than wait behind them and time out. MySQL: a
 * connection of its own (reconnected after a failure); SQLite: `SELECT 1` straight on the
 * connection, which cannot disturb the transaction running on it.
 */
@Injectable()
export class DatabasePing implements OnModuleDestroy {
  private pool: Pool | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async check(key: string, timeoutMs: number): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)),
    );
    try {
      await Promise.race([this.ping(timeoutMs), timedOut]);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    } finally {
      clearTimeout(timer);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.end().catch(() => undefined);
    this.pool = null;
  }

  private async ping(timeoutMs: number): Promise<void> {
    const database = this.config.database;
    if (database.type === 'mysql') {
      this.pool ??= createPool({ uri: database.url, connectionLimit: 1, maxIdle: 1, connectTimeout: timeoutMs });
      await this.pool.query('SELECT 1');
      return;
    }
    const driver = this.dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): { get(): unknown } } };
    driver.databaseConnection.prepare('SELECT 1').get();
  }
}

/** The checks' failures as the terminus response lists them (`{database: {status: "down", …}}`). */
export function failedChecks(error: unknown): unknown {
  if (!(error instanceof HttpException)) return undefined;
  const response = error.getResponse() as { error?: unknown } | string;
  return typeof response === 'object' ? response.error : undefined;
}
