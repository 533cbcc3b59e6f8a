import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions, MigrationExecutor } from 'typeorm';
import { appConfig } from '../config/app.config';
import { ConnectionWaitLimit } from './connection-waits';
import { enableCausalReadsOnGalera } from './galera';
import { takeMigrationLease } from './migration-lease';
import { detectServerFeatures } from './server-features';
import { buildDataSourceOptions } from './data-source-options';
import { ReplicaReadRoutes, routeListReadsToReplicas } from './read-replicas';
import { serialiseSqliteTransactions } from './sqlite-serialization';
import { keepMigratedMemoryImage } from './sqlite-memory-image';
import { guardSqliteTableRebuilds } from './sqlite-rebuild-guard';

const MIGRATION_LOCK_TIMEOUT_SECONDS = 120;

/**
 * Pending migrations run at start. On MySQL a lease row in the database (migration-lease.ts)
 * makes instances that start together take turns, so only one of them applies each migration,
 * on one server or on the nodes of a Galera cluster.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    guardSqliteTableRebuilds();
    await dataSource.runMigrations({ transaction: 'each' });
    keepMigratedMemoryImage(dataSource);
    return;
  }
  const lockHolder = dataSource.createQueryRunner();
  try {
    const lease = await takeMigrationLease(dataSource, lockHolder, MIGRATION_LOCK_TIMEOUT_SECONDS);
    try {
      // On the lock holder's connection: with DATABASE_POOL_SIZE=1 a second one would never come.
      const executor = new MigrationExecutor(dataSource, lockHolder);
      executor.transaction = 'each';
      await executor.executePendingMigrations();
    } finally {
      await lease.release().catch(() => undefined);
    }
  } finally {
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
        await enableCausalReadsOnGalera(dataSource);
        await detectServerFeatures(dataSource);
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [ConnectionWaitLimit, ReplicaReadRoutes],
  exports: [ReplicaReadRoutes],
})
export class DatabaseModule {}
