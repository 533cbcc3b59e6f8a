import type { DataSource } from 'typeorm';

/** What the server behind a data source can do beyond what every supported database does. */
interface ServerFeatures {
  /**
   * `INSERT ... RETURNING` (MariaDB from 10.5; not MySQL): a multi-row INSERT's generated ids
   * without reading the rows back. SQLite has it too, but TypeORM's SQLite drivers run an INSERT
   * without returning rows.
   */
  insertReturning: boolean;
}

const FIRST_MARIADB_WITH_INSERT_RETURNING = { major: 10, minor: 5 };

const detected = new WeakMap<DataSource, ServerFeatures>();

/** Asks the server once, at start; until then (and on SQLite) no feature is assumed. */
export async function detectServerFeatures(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') return;
  // TypeORM keeps only the version's digits; the server's name is in the full string.
  const rows = await dataSource.query<Array<{ version: string }>>('SELECT VERSION() AS version');
  const match = /^(\d+)\.(\d+)\..*mariadb/i.exec(rows[0]?.version ?? '');
  const [major, minor] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  const first = FIRST_MARIADB_WITH_INSERT_RETURNING;
  detected.set(dataSource, { insertReturning: major > first.major || (major === first.major && minor >= first.minor) });
}

export function supportsInsertReturning(dataSource: DataSource): boolean {
  return detected.get(dataSource)?.insertReturning ?? false;
}
