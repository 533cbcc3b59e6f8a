import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { BroadcasterResult } from 'typeorm/subscriber/BroadcasterResult';
import { SqlDialect } from '../../database/sql-dialect';
import { HeldWrites } from './held-writes';

/**
 * SELECTs whose SQL a query builder writes once per shape and that are then sent as that text.
 * TypeORM builds a statement's SQL again on every call (`getQuery`: 5.9 % of the service's CPU in a
 * sale, where every statement is a hot one); the parameters are still bound per call by the driver,
 * the same way the builder's own execution does it (`:...list` expands to one `?` each; SQLite
 * inlines numbers).
 *
 * A shape is everything that changes the text: which filters are present, which column a buyer is
 * known by, whether the rows are locked. Keep one instance per repository (one data source).
 */
export class KeptSelects {
  private readonly sql = new Map<string, string>();
  /** Per shape, its text with `?` for each named parameter and the names in their order; null: a parameter is a list. */
  private readonly positional = new Map<string, { sql: string; names: string[] } | null>();

  /** The rows of the statement `build` writes for `shape`, with `parameters` bound. */
  async rows<T>(
    manager: EntityManager,
    shape: string,
    build: () => SelectQueryBuilder<ObjectLiteral>,
    parameters: ObjectLiteral,
  ): Promise<T[]> {
    const [escaped, values] = manager.connection.driver.escapeQueryWithParameters(this.text(shape, build), parameters);
    return manager.query<T[]>(escaped, values);
  }

  /**
   * The same rows, read through a server-side prepared statement where the database has them and
   * no transaction is open (SqlDialect.selectPrepared): for the hottest reads, whose statement the
   * server then neither parses nor plans again on a connection that ran it before. Elsewhere, and
   * for a shape with a list parameter (`:...ids`, whose number of `?` varies), as `rows`.
   */
  async preparedRows<T>(
    manager: EntityManager,
    shape: string,
    build: () => SelectQueryBuilder<ObjectLiteral>,
    parameters: ObjectLiteral,
  ): Promise<T[]> {
    if (!manager.queryRunner) {
      let statement = this.positional.get(shape);
      if (statement === undefined) {
        statement = positionalParameters(this.text(shape, build), parameters);
        this.positional.set(shape, statement);
      }
      const prepared =
        statement &&
        SqlDialect.of(manager).selectPrepared<T>(
          statement.sql,
          statement.names.map((name): unknown => parameters[name]),
        );
      if (prepared) return prepared;
    }
    return this.rows(manager, shape, build, parameters);
  }

  private text(shape: string, build: () => SelectQueryBuilder<ObjectLiteral>): string {
    let sql = this.sql.get(shape);
    if (sql === undefined) {
      sql = build().getQuery();
      this.sql.set(shape, sql);
    }
    return sql;
  }
}

/**
 * `sql` with a `?` for each named parameter, as TypeORM's MySQL driver binds them
 * (escapeQueryWithParameters: a name that `parameters` lacks stays as it is), and the names in
 * order; null when one is a list or a function, which that driver expands per call.
 */
function positionalParameters(sql: string, parameters: ObjectLiteral): { sql: string; names: string[] } | null {
  const names: string[] = [];
  let expanded = false;
  const text = sql.replace(/:(\.\.\.)?([A-Za-z0-9_.]+)/g, (full, list: string | undefined, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(parameters, name)) return full;
    const value: unknown = parameters[name];
    if (list || typeof value === 'function' || Array.isArray(value)) expanded = true;
    names.push(name);
    return '?';
  });
  return expanded ? null : { sql: text, names };
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
  for (const [name, column] of selectedColumns(metadata, alias, driver.maxAliasLength)) {
    const value: unknown = row[name];
    if (value === undefined) continue;
    column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
  }
  return entity;
}

/** Per entity and alias, each column's name in a row (`alias_column`) and its metadata: worked out once, not per row. */
const columnsByAlias = new WeakMap<EntityMetadata, Map<string, Array<[string, ColumnMetadata]>>>();

function selectedColumns(metadata: EntityMetadata, alias: string, maxAliasLength: number | undefined): Array<[string, ColumnMetadata]> {
  let byAlias = columnsByAlias.get(metadata);
  if (!byAlias) columnsByAlias.set(metadata, (byAlias = new Map<string, Array<[string, ColumnMetadata]>>()));
  let columns = byAlias.get(alias);
  if (!columns) {
    // A relation's id column (isVirtual) is not selected as a column of its own.
    columns = metadata.columns.filter((column) => !column.isVirtual).map((column) => [`${alias}_${column.databaseName}`, column]);
    // TypeORM replaces an alias longer than the driver allows with a hash, which this does not.
    const tooLong = columns.find(([name]) => maxAliasLength && name.length > maxAliasLength);
    if (tooLong) throw new Error(`${tooLong[0]}: alias too long to hydrate`);
    byAlias.set(alias, columns);
  }
  return columns;
}

/** Per entity, the columns an INSERT writes, in the builder's order. */
const insertedColumns = new WeakMap<EntityMetadata, ColumnMetadata[]>();

function columnsInserted(metadata: EntityMetadata): ColumnMetadata[] {
  let columns = insertedColumns.get(metadata);
  if (!columns) insertedColumns.set(metadata, (columns = metadata.columns.filter((column) => column.isInsert)));
  return columns;
}

/** How an INSERT meets an existing row, and what follows it. */
export interface KeptInsertOptions {
  /** Text after the statement, e.g. ` RETURNING id` (MariaDB). */
  suffix?: string;
  /** Rows whose unique key is taken are skipped (the builder's `orIgnore`). */
  orIgnore?: boolean;
  /** Rows whose `conflict` columns are taken have their `overwrite` columns replaced (the builder's `orUpdate`). */
  orUpdate?: { overwrite: string[]; conflict: string[] };
  /**
   * Columns (property names) whose values are JSON texts that may carry ids of writes held with
   * this one (held-writes.ts), such as an outbox payload naming the order being inserted.
   */
  json?: string[];
}

/** Shapes kept at most (a shape per row count and set of defaulted columns): a checkout uses a few. */
const MAX_INSERT_SHAPES = 256;

/**
 * INSERTs whose SQL the query builder writes once per shape (the table, the number of rows, which
 * columns each row leaves to their default, and any suffix such as `RETURNING`), run as TypeORM runs
 * them: the entity subscribers hear of each row before and after, every value goes through the
 * driver's preparePersistentValue, and the named parameters are bound by the driver per call. The
 * first call of a shape checks that the parameters it computes are the builder's own; a shape where
 * they differ is always built by the builder.
 */
export class KeptInserts {
  /** Each shape's SQL with its named parameters; null: the builder's parameters differed from ours. */
  private readonly shapes = new Map<string, string | null>();

  /** Inserts `rows` into `target`; the driver's raw answer (an insert id, or the rows of a RETURNING). */
  async insert<T extends ObjectLiteral>(
    manager: EntityManager,
    target: EntityTarget<T>,
    rows: Array<QueryDeepPartialEntity<T>>,
    options: KeptInsertOptions = {},
  ): Promise<unknown> {
    const { suffix = '' } = options;
    const builder = () => {
      const insert = manager.createQueryBuilder().insert().into(target).values(rows).updateEntity(false);
      if (options.orIgnore) insert.orIgnore();
      if (options.orUpdate) insert.orUpdate(options.orUpdate.overwrite, options.orUpdate.conflict);
      return insert;
    };
    const runner = manager.queryRunner;
    if (!runner) {
      // Outside a transaction: the builder takes a connection of its own for the statement and its events.
      return (await builder().execute()).raw;
    }
    const metadata = manager.connection.getMetadata(target);
    const before = new BroadcasterResult();
    for (const row of rows) runner.broadcaster.broadcastBeforeInsertEvent(before, metadata, row);
    await before.wait();
    const driver = manager.connection.driver;
    const columns = columnsInserted(metadata);
    const values: unknown[] = [];
    let defaulted = '';
    for (const row of rows) {
      for (const column of columns) {
        const value: unknown = driver.preparePersistentValue(column.getEntityValue(row), column);
        defaulted += value === undefined ? '1' : '0';
        if (value !== undefined) values.push(value);
      }
    }
    const conflict = options.orIgnore
      ? 'ignore'
      : options.orUpdate
        ? `${options.orUpdate.overwrite.join()}/${options.orUpdate.conflict.join()}`
        : '';
    const key = `${metadata.tableName}|${rows.length}|${defaulted}|${conflict}|${suffix}`;
    const built = () => {
      const insert = builder();
      return { sql: `${insert.getQuery()}${suffix}`, parameters: insert.getParameters() };
    };
    let shape = this.shapes.get(key);
    let statement: { sql: string; parameters: ObjectLiteral };
    if (shape === undefined) {
      statement = built();
      shape = sameParameters(statement.parameters, values) ? statement.sql : null;
      if (this.shapes.size >= MAX_INSERT_SHAPES) this.shapes.clear();
      this.shapes.set(key, shape);
    } else if (shape === null) {
      statement = built();
    } else {
      const parameters: ObjectLiteral = {};
      values.forEach((value, index) => (parameters[`orm_param_${index}`] = value));
      statement = { sql: shape, parameters };
    }
    const [escaped, bound] = driver.escapeQueryWithParameters(statement.sql, statement.parameters);
    // While the transaction holds its writes (MariaDB's checkout), this one is sent with the statement that ends it.
    const held = HeldWrites.of(manager);
    if (held && suffix) throw new Error(`an INSERT answering rows (${suffix.trim()}) cannot be held`);
    const raw: unknown = held
      ? held.add(escaped, bound, {
          capturesId: rows.length === 1,
          json: options.json?.flatMap((property) => rows.map((row) => (row as ObjectLiteral)[property] as unknown)),
        })
      : await manager.query(escaped, bound);
    const after = new BroadcasterResult();
    for (const row of rows) runner.broadcaster.broadcastAfterInsertEvent(after, metadata, row);
    await after.wait();
    return raw;
  }
}

/** Whether the builder named exactly `values`, in order, as `orm_param_0`, `orm_param_1`, … */
function sameParameters(parameters: ObjectLiteral, values: unknown[]): boolean {
  const names = Object.keys(parameters);
  if (names.length !== values.length) return false;
  return values.every((value, index) => {
    const named: unknown = parameters[`orm_param_${index}`];
    if (value instanceof Date && named instanceof Date) return value.getTime() === named.getTime();
    return Object.is(named, value);
  });
}
