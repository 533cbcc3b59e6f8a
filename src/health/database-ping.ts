import { HttpException, Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { appConfig } from '../config/app.config';
import { OutOfPoolPing } from '../database/out-of-pool-ping';

/** Whether the database answers, asked outside the request pool (OutOfPoolPing), within a deadline. */
@Injectable()
export class DatabasePing implements OnModuleDestroy {
  private readonly pinger: OutOfPoolPing;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
    private readonly indicators: HealthIndicatorService,
  ) {
    this.pinger = new OutOfPoolPing(dataSource, config.database);
  }

  async check(key: string, timeoutMs: number): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)),
    );
    try {
      await Promise.race([this.pinger.ping(timeoutMs), timedOut]);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    } finally {
      clearTimeout(timer);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pinger.close();
  }
}

/** The checks' failures as the terminus response lists them (`{database: {status: "down", …}}`). */
export function failedChecks(error: unknown): unknown {
  if (!(error instanceof HttpException)) return undefined;
  const response = error.getResponse() as { error?: unknown } | string;
  return typeof response === 'object' ? response.error : undefined;
}
