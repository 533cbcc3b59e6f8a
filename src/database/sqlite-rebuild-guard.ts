import type { Table } from 'typeorm';
import { AbstractSqliteQueryRunner } from 'typeorm/driver/sqlite-abstract/AbstractSqliteQueryRunner';

/** What a migration hears when it asks TypeORM to rebuild a SQLite table that has triggers. */
export class SqliteTableWithTriggersRebuild extends Error {
  constructor(table: string, triggers: string[]) {
    super(
      `Migration would rebuild SQLite table "${table}", which drops its triggers (${triggers.join(', ')}). ` +
        "TypeORM's addColumn, dropColumn, changeColumn and the like copy a SQLite table into a new one; " +
        'use addColumns/dropColumns from src/database/migration-helpers.ts (plain ALTER TABLE), or drop and ' +
        'recreate the triggers around the change.',
    );
    this.name = 'SqliteTableWithTriggersRebuild';
  }
}

type Rebuild = (this: AbstractSqliteQueryRunner, newTable: Table, oldTable: Table, migrateData?: boolean) => Promise<void>;

const GUARDED = Symbol('cal.sqliteRebuildGuard');

/**
 * TypeORM changes a SQLite table's columns by copying it into a new table, and the copy loses the
 * triggers defined on the old one, silently: the read models they keep go stale from then on. From
 * this call on, such a rebuild of a table with triggers stops the migration with a message saying
 * what to use instead. Idempotent; migrations call it before they run.
 */
export function guardSqliteTableRebuilds(): void {
  const prototype = AbstractSqliteQueryRunner.prototype as unknown as Record<PropertyKey, unknown> & { recreateTable: Rebuild };
  if (prototype[GUARDED]) return;
  const rebuild = prototype.recreateTable;
  prototype.recreateTable = async function guardedRebuild(this: AbstractSqliteQueryRunner, newTable, oldTable, migrateData) {
    const rows = (await this.query(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name`, [
      oldTable.name,
    ])) as Array<{ name: string }>;
    if (rows.length > 0)
      throw new SqliteTableWithTriggersRebuild(
        oldTable.name,
        rows.map((row) => row.name),
      );
    return rebuild.call(this, newTable, oldTable, migrateData);
  };
  prototype[GUARDED] = true;
}
