import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions, MigrationExecutor } from 'typeorm';
import { appConfig } from '../config/app.config';
import { ConnectionWaitLimit } from './connection-waits';
import { buildDataSourceOptions } from './data-source-options';
import { ReplicaReadsInterceptor, routeListReadsToReplicas } from './read-replicas';
import { serialiseSqliteTransactions } from './sqlite-serialization';

const MIGRATION_LOCK_PREFIX = 'cal_migrations:';
const MIGRATION_LOCK_TIMEOUT_SECONDS = 120;

/**
 * The lock's name for the connection's database. MySQL's named locks are server-wide: instances
 * of other databases on the same server (other calendars, test databases) must not wait for each
 * other. Lock names are at most 64 characters.
 */
const MIGRATION_LOCK = `LEFT(CONCAT('${MIGRATION_LOCK_PREFIX}', DATABASE()), 64)`;

/**
 * Pending migrations run at start. On MySQL a named lock per database makes instances that start
 * together take turns, so only one of them applies each migration.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const lockHolder = dataSource.createQueryRunner();
  try {
    const [row] = (await lockHolder.query(`SELECT GET_LOCK(${MIGRATION_LOCK}, ?) AS acquired`, [MIGRATION_LOCK_TIMEOUT_SECONDS])) as Array<{
      acquired: number | null;
    }>;
    if (Number(row?.acquired) !== 1) throw new Error('Timed out waiting for another instance to finish migrating');
    // On the lock holder's connection: with DATABASE_POOL_SIZE=1 a second one would never come.
    const executor = new MigrationExecutor(dataSource, lockHolder);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await lockHolder.query(`SELECT RELEASE_LOCK(${MIGRATION_LOCK})`).catch(() => undefined);
    await lockHolder.release();
  }
}

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: ConfigType<typeof appConfig>) => ({
        ...buildDataSourceOptions(config.database),
        logging: config.databaseLogQueries ? ['query'] : false,
        autoLoadEntities: true,
        retryAttempts: 3,
        retryDelay: 1000,
      }),
      dataSourceFactory: async (options?: DataSourceOptions) => {
        if (!options) throw new Error('No database options');
        const dataSource = await new DataSource(options).initialize();
        if (dataSource.options.type === 'better-sqlite3') serialiseSqliteTransactions(dataSource);
        routeListReadsToReplicas(dataSource);
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [ConnectionWaitLimit, { provide: APP_INTERCEPTOR, useClass: ReplicaReadsInterceptor }],
})
export class DatabaseModule {}
