import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * Tables a request may legitimately touch without changing anything a client owns: signing in
 * with an application password records when it was last used.
 */
const BOOKKEEPING_TABLES = new Set(['application_passwords', 'migrations']);

/** Table name → checksum of its rows. */
export type Snapshot = Map<string, string>;

export function domainTables(dataSource: DataSource): string[] {
  return [...new Set(dataSource.entityMetadatas.map((entity) => entity.tableName))]
    .filter((table) => !BOOKKEEPING_TABLES.has(table))
    .sort();
}

/**
 * A checksum of every row of `tables`, to tell whether a request changed anything. MariaDB computes
 * them itself in one statement (CHECKSUM TABLE scans the rows); SQLite, in memory, is read whole.
 */
export async function snapshot(dataSource: DataSource, tables: string[] = domainTables(dataSource)): Promise<Snapshot> {
  const result: Snapshot = new Map();
  if (dataSource.options.type === 'mysql') {
    const rows = await dataSource.query<Array<{ Table: string; Checksum: string | number | null }>>(
      `CHECKSUM TABLE ${tables.map((table) => `\`${table}\``).join(', ')}`,
    );
    for (const row of rows) result.set(row.Table.slice(row.Table.lastIndexOf('.') + 1), String(row.Checksum));
    return result;
  }
  for (const table of tables) {
    const rows = await dataSource.query<unknown[]>(`SELECT * FROM "${table}" ORDER BY rowid`);
    result.set(table, createHash('sha1').update(JSON.stringify(rows)).digest('hex'));
  }
  return result;
}

/** The tables whose checksum differs between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return [...before.keys()].filter((table) => before.get(table) !== after.get(table));
}

/** Tables that database triggers write when other tables change. */
const TRIGGER_KEPT_TABLES = new Set([
  'event_listings',
  'event_listing_days',
  'event_listing_pairs',
  'event_listing_pair_days',
  'event_category_ancestors',
  'attendee_tallies',
  'sales_ledger',
]);

/** Tables whose rows outlive `clearDomainData`: the users of the world and their passwords. */
const KEPT_TABLES = new Set(['users', 'application_passwords', 'migrations']);

/**
 * Deletes every row but the users', so that the next batch of requests starts from a small
 * database: lists, feeds and checksums then cost the same for every route, whatever ran before.
 */
export async function clearDomainData(dataSource: DataSource): Promise<void> {
  // Deleting the others writes to the tables triggers keep (the attendee tally gains -1 rows), so those go last.
  const tables = [...new Set(dataSource.entityMetadatas.map((entity) => entity.tableName))]
    .filter((table) => !KEPT_TABLES.has(table))
    .sort((a, b) => Number(TRIGGER_KEPT_TABLES.has(a)) - Number(TRIGGER_KEPT_TABLES.has(b)));
  const runner = dataSource.createQueryRunner();
  const mysql = dataSource.options.type === 'mysql';
  try {
    await runner.query(mysql ? 'SET FOREIGN_KEY_CHECKS = 0' : 'PRAGMA foreign_keys = OFF');
    for (const table of tables) await runner.query(mysql ? `DELETE FROM \`${table}\`` : `DELETE FROM "${table}"`);
  } finally {
    await runner.query(mysql ? 'SET FOREIGN_KEY_CHECKS = 1' : 'PRAGMA foreign_keys = ON');
    await runner.release();
  }
}
