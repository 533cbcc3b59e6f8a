import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

/** SQLite's cap on the parameters of one statement (SQLITE_MAX_VARIABLE_NUMBER, 32766 since 3.32). */
export const MAX_STATEMENT_PARAMETERS = 32766;

/**
 * What the values of one statement may weigh, as UTF-8: escaped, they at most double, which stays
 * under the smallest max_allowed_packet a maintained server ships with (MySQL 5.7: 4 MiB;
 * MariaDB: 16 MiB; MySQL 8: 64 MiB).
 */
export const MAX_STATEMENT_BYTES = 1024 * 1024;

/** Rows a statement may hold however small they are: also bounds `IN (...)` lists of reads. */
export const MAX_ROWS_PER_STATEMENT = 2000;

/** Estimated bytes of one row's values in the statement text. */
function rowBytes(row: ObjectLiteral): number {
  let bytes = 2;
  for (const value of Object.values(row)) bytes += typeof value === 'string' ? Buffer.byteLength(value) + 3 : 24;
  return bytes;
}

/**
 * Splits `rows` into the slices that one multi-row INSERT each can carry: at most
 * MAX_STATEMENT_PARAMETERS parameters (`columns` per row), MAX_STATEMENT_BYTES of values and
 * MAX_ROWS_PER_STATEMENT rows. A row heavier than the byte budget goes alone.
 */
export function statementSlices<T extends ObjectLiteral>(rows: T[], columns: number): T[][] {
  const maxRows = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_STATEMENT_PARAMETERS / Math.max(1, columns))));
  const slices: T[][] = [];
  let slice: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = rowBytes(row);
    if (slice.length > 0 && (slice.length >= maxRows || bytes + size > MAX_STATEMENT_BYTES)) {
      slices.push(slice);
      slice = [];
      bytes = 0;
    }
    slice.push(row);
    bytes += size;
  }
  if (slice.length > 0) slices.push(slice);
  return slices;
}

/** `values` in slices of MAX_ROWS_PER_STATEMENT, for the `IN (...)` lists of reads. */
export function inSlices<T>(values: T[]): T[][] {
  const slices: T[][] = [];
  for (let index = 0; index < values.length; index += MAX_ROWS_PER_STATEMENT)
    slices.push(values.slice(index, index + MAX_ROWS_PER_STATEMENT));
  return slices;
}

/**
 * Inserts `rows` with as few multi-row INSERTs as the limits above allow, through the query
 * builder (so that entity subscribers such as CountCacheInvalidation see the writes), without
 * reading generated values back (callers that need ids read them by a unique key: insert ids of
 * a multi-row statement are consecutive neither on Galera nor with innodb_autoinc_lock_mode=2).
 * Row triggers fire for each row as for single inserts.
 */
export async function insertInSlices<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: Array<QueryDeepPartialEntity<T>>,
  options: { orIgnore?: boolean } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const columns = manager.connection.getMetadata(entity).columns.length;
  for (const slice of statementSlices(rows as ObjectLiteral[], columns)) {
    const insert = manager
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values(slice as Array<QueryDeepPartialEntity<T>>)
      .updateEntity(false);
    if (options.orIgnore) insert.orIgnore();
    await insert.execute();
  }
}
