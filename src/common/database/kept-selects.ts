import type { EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * SELECTs whose SQL a query builder writes once per shape and that are then sent as that text.
 * TypeORM builds a statement's SQL again on every call (`getQuery`), which in a sale's hot
 * statements costs about as much as sending them; the parameters are still escaped per call by the
 * driver, the same way the builder's own execution does it (`:...list` expands to one `?` each).
 *
 * A shape is everything that changes the text: which filters are present, which column a buyer is
 * known by, whether the rows are locked. Keep one instance per repository (one data source).
 */
export class KeptSelects {
  private readonly sql = new Map<string, string>();

  /** The rows of the statement `build` writes for `shape`, with `parameters` bound. */
  async rows<T>(
    manager: EntityManager,
    shape: string,
    build: () => SelectQueryBuilder<ObjectLiteral>,
    parameters: ObjectLiteral,
  ): Promise<T[]> {
    let sql = this.sql.get(shape);
    if (sql === undefined) {
      sql = build().getQuery();
      this.sql.set(shape, sql);
    }
    const [escaped, values] = manager.connection.driver.escapeQueryWithParameters(sql, parameters);
    return manager.query<T[]>(escaped, values);
  }
}

/**
 * The entity a builder would make of `row`, whose columns were selected under `alias` (its
 * `alias_column` names): every column converted as TypeORM converts it (dates, booleans,
 * transformers). For an entity without relations, embeddeds or listeners on load, which is what
 * the kept SELECTs read.
 */
export function hydrate<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, alias: string, row: ObjectLiteral): T {
  const metadata = manager.connection.getMetadata(target);
  const driver = manager.connection.driver;
  const entity = metadata.create(manager.queryRunner, { fromDeserializer: true }) as T;
  for (const column of metadata.columns) {
    if (column.isVirtual) continue; // a relation's id column: not selected as a column of its own
    const name = `${alias}_${column.databaseName}`;
    // TypeORM replaces an alias longer than the driver allows with a hash, which this does not.
    if (driver.maxAliasLength && name.length > driver.maxAliasLength) throw new Error(`${name}: alias too long to hydrate`);
    const value: unknown = row[name];
    if (value === undefined) continue;
    column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
  }
  return entity;
}
