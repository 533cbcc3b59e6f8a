import BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';

/**
 * An in-memory SQLite database lives as long as its connection, so every app that opens one (the
 * test suite makes about a hundred per process, the CLI's demos one each) would apply every
 * migration again: a third of starting an app. The first database of a process to be migrated is
 * kept as an image, and the in-memory databases opened after it start as copies of that image,
 * its migrations table included, so their migration run finds nothing pending. Keyed by the
 * migrations' names, so a data source with another set of migrations migrates on its own.
 */
const images = new Map<string, Buffer>();

function imageKey(migrations: readonly { name: string }[]): string {
  return migrations.map((migration) => migration.name).join(',');
}

/**
 * better-sqlite3 as TypeORM's driver for an in-memory database: opens a copy of the migrated
 * image when there is one, a new empty database otherwise.
 */
export function memoryDatabaseDriver(migrations: readonly { name: string }[]): typeof BetterSqlite3 {
  const key = imageKey(migrations);
  function MemoryDatabase(filename: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
    const image = images.get(key);
    return new BetterSqlite3(image ?? filename, options);
  }
  return Object.assign(MemoryDatabase, BetterSqlite3);
}

/** After migrating an in-memory database: keep it as the image, the first time. */
export function keepMigratedMemoryImage(dataSource: DataSource): void {
  const options = dataSource.options;
  if (options.type !== 'better-sqlite3' || options.database !== ':memory:') return;
  const key = imageKey((options.migrations ?? []) as { name: string }[]);
  if (images.has(key)) return;
  const connection = (dataSource.driver as unknown as { databaseConnection: BetterSqlite3.Database }).databaseConnection;
  images.set(key, connection.serialize());
}
