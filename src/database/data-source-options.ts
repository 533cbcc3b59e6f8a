import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '../config/app.config';
import { MIGRATIONS } from './migrations';
import { keepMysqlPromiseWrappers } from './mysql-promise-wrappers';
import { replicationOptions } from './read-replicas';
import { memoryDatabaseDriver } from './sqlite-memory-image';

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Connection options for one database config, shared by the app, the CLI and the TypeORM CLI.
 * Schema changes only through migrations: `synchronize` stays off everywhere.
 */
export function buildDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = {
    synchronize: false,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
  };
  if (database.type === 'sqlite') {
    const inMemory = database.path === ':memory:';
    if (!inMemory) mkdirSync(dirname(database.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.path,
      ...(inMemory ? { driver: memoryDatabaseDriver(MIGRATIONS) } : {}),
      // WAL lets readers proceed while a writer holds the lock.
      enableWAL: !inMemory,
      prepareDatabase: (db: { pragma(statement: string): unknown }) => {
        db.pragma('foreign_keys = ON');
        db.pragma('busy_timeout = 5000');
      },
    };
  }
  keepMysqlPromiseWrappers();
  return {
    ...common,
    type: 'mysql',
    url: database.url,
    charset: 'utf8mb4_unicode_ci',
    // Dates travel as UTC in both directions, whatever the server's zone.
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    extra: { connectionLimit: database.poolSize },
    // mysql2 otherwise captures a stack trace for every statement (4 % of the service's CPU in a
    // flash sale); TypeORM's QueryFailedError already names the statement that failed.
    trace: false,
    // A server that does not take a connection within this long counts as down: the request
    // answers 503 db-unavailable instead of waiting mysql2's default 10 s.
    connectTimeout: CONNECT_TIMEOUT_MS,
    // With DATABASE_REPLICA_URLS: primary and replica pools (read-replicas.ts).
    ...replicationOptions(database),
  };
}
