/** The generated id of a one-row INSERT's raw result: mysql2 reports `insertId`, better-sqlite3 the row id. */
export function insertedId(raw: unknown): number {
  if (typeof raw === 'number' || typeof raw === 'bigint') return Number(raw);
  return Number((raw as { insertId: number | string }).insertId);
}
