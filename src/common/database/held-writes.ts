import { randomInt } from 'node:crypto';
import type { EntityManager, QueryRunner } from 'typeorm';
import { SqlDialect } from '../../database/sql-dialect';

/** The SQLSTATE and message prefix of a held write whose guard failed inside a compound statement. */
const GUARD_STATE = '45000';
const GUARD_MESSAGE = 'held write failed its guard ';

/**
 * Stand-in ids are negative safe integers at or below -2^52, where no generated id lives, from a
 * base drawn at random per transaction so that nobody can write one into a JSON text on purpose.
 */
const LOWEST_STAND_IN = -Number.MAX_SAFE_INTEGER;
const STAND_IN_SPREAD = 2 ** 47;

/** What a held write expects of its statement: exactly `rows` rows affected, else `fails()` is thrown. */
export interface HeldGuard {
  rows: number;
  fails: () => Error;
}

/** How a write is held. */
export interface HeldWriteOptions {
  /** Parameter values that are JSON texts: the stand-in ids in them are replaced as numbers. */
  json?: readonly unknown[];
  /** A one-row INSERT: its generated id gets a stand-in (returned as the raw result's `insertId`). */
  capturesId?: boolean;
  guard?: HeldGuard;
}

interface HeldStatement {
  sql: string;
  parameters: unknown[];
  json: ReadonlySet<unknown>;
  /** The stand-in whose value the statement's generated id is. */
  captures: number | null;
  guard: HeldGuard | null;
}

/** The part of a compound statement that sends the held writes, and how to read their ids back. */
export interface HeldCompoundPart {
  declarations: string;
  statements: string[];
  parameters: unknown[];
  /** The expression to select (as `held_ids`) for `resolve`; null when no write captures an id. */
  ids: string | null;
}

/**
 * A text split at the stand-in ids it holds: text, stand-in, text, …, text. Anywhere in it, numbers
 * of a JSON text and ids within its strings alike (an answer's `rest_url`): a stand-in is drawn at
 * random per transaction, so no text written before it holds one by chance.
 */
function splitAtStandIns(text: string, standIns: ReadonlyMap<string, number>, prefix: string): Array<string | number> {
  if (!text.includes(prefix)) return [text];
  const pieces: Array<string | number> = [];
  let start = 0;
  for (let index = text.indexOf('-'); index !== -1; index = text.indexOf('-', index + 1)) {
    let end = index + 1;
    while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end += 1;
    const standIn = standIns.get(text.slice(index, end));
    if (standIn !== undefined) {
      pieces.push(text.slice(start, index), standIn);
      start = end;
    }
    index = end - 1;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * Writes of a transaction held back to be sent with the statement that ends it: on MariaDB, inside
 * the anonymous compound statement that takes the capacity and commits (CapacityRepository), so
 * that a checkout's DELETE, INSERTs and guarded UPDATEs cost no round trip each.
 *
 * A held INSERT's generated id is not known until it runs, so it gets a stand-in (a negative
 * number no row has) that later writes and the caller's objects carry meanwhile: inside the
 * compound statement each stand-in is a variable set from LAST_INSERT_ID(), also where it stands
 * in a JSON text (outbox payloads, a stored answer, its `rest_url`s); once the statement has answered,
 * `resolveIds` puts the real ids in the caller's objects. A guarded write (a DELETE that must remove
 * exactly the rows read, a conditional UPDATE) fails the statement with SIGNAL, which `failure`
 * turns back into the caller's error.
 *
 * While writes are held, any other statement of the transaction first sends them one by one (with
 * the ids substituted), so a path that reads or writes in between stays correct, only slower; a
 * ROLLBACK drops them. Held writes are raw SQL as a repository built it (`?` markers, no literal
 * `?` in the text).
 */
export class HeldWrites {
  private static readonly byRunner = new WeakMap<QueryRunner, HeldWrites>();

  private readonly statements: HeldStatement[] = [];
  private readonly base = LOWEST_STAND_IN + randomInt(STAND_IN_SPREAD);
  private readonly prefix = String(this.base).slice(0, 8);
  /** Stand-ins handed out, by their text, and the ids they resolved to. */
  private readonly standIns = new Map<string, number>();
  private readonly resolved = new Map<number, number>();
  private released = false;
  private readonly restoreQuery: () => void;

  private constructor(private readonly runner: QueryRunner) {
    const hadOwnQuery = Object.prototype.hasOwnProperty.call(runner, 'query');
    const own = runner.query.bind(runner);
    const query = own as (sql: string, parameters?: unknown[], structured?: boolean) => Promise<unknown>;
    this.restoreQuery = () => {
      if (hadOwnQuery) runner.query = own;
      else delete (runner as Partial<QueryRunner>).query;
    };
    runner.query = (async (sql: string, parameters?: unknown[], structured?: boolean) => {
      if (/^ROLLBACK\b/i.test(sql)) {
        this.release();
        this.statements.length = 0;
      } else {
        await this.release().sendEach((held, values) => query(held, values));
      }
      return query(sql, parameters && this.resolveIds(parameters), structured);
    }) as QueryRunner['query'];
  }

  /**
   * Starts holding the writes of `manager`'s transaction (the same holder again when already
   * holding); null, holding nothing, where the server runs no compound statements (SQLite, MySQL).
   */
  static hold(manager: EntityManager): HeldWrites | null {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive || !SqlDialect.of(manager).mayRunCompound) return null;
    const current = HeldWrites.byRunner.get(runner);
    if (current && !current.released) return current;
    const held = new HeldWrites(runner);
    HeldWrites.byRunner.set(runner, held);
    return held;
  }

  /** The writes held in `manager`'s transaction, if they are still held. */
  static of(manager: EntityManager): HeldWrites | undefined {
    const runner = manager.queryRunner;
    const held = runner && HeldWrites.byRunner.get(runner);
    return held && !held.released ? held : undefined;
  }

  /** The holder of `manager`'s transaction, held or already sent (for resolving its stand-ins). */
  static last(manager: EntityManager): HeldWrites | undefined {
    const runner = manager.queryRunner;
    return runner ? HeldWrites.byRunner.get(runner) : undefined;
  }

  /** Takes the held writes out of the transaction's way: the caller sends them (compoundPart, then resolve; or sendEach). */
  static release(manager: EntityManager): HeldWrites | undefined {
    return HeldWrites.of(manager)?.release();
  }

  /** Sends what `manager`'s transaction holds, if anything: one compound statement where the server runs them, else one by one. */
  static async send(manager: EntityManager): Promise<void> {
    const held = HeldWrites.release(manager);
    if (!held || held.statements.length === 0) return;
    const part = held.compoundPart();
    const sql = ['BEGIN NOT ATOMIC', part.declarations, ...part.statements, `SELECT ${part.ids ?? 'NULL'} AS held_ids;`, 'END'].join('\n');
    let raw: unknown;
    try {
      raw = await SqlDialect.of(manager).compound(() => manager.query(sql, part.parameters));
    } catch (error) {
      throw held.failure(error) ?? error;
    }
    if (raw === null) return held.sendEach((statement, values) => manager.query(statement, values));
    held.resolve(firstIds(raw));
  }

  /** Holds a write; the raw result a driver would give for it (`insertId` a stand-in when `capturesId`). */
  add(sql: string, parameters: unknown[], options: HeldWriteOptions = {}): { insertId?: number; affectedRows: number } {
    if (sql.split('?').length - 1 !== parameters.length) throw new Error(`held write with ${parameters.length} parameters: ${sql}`);
    const captures = options.capturesId ? this.standIn() : null;
    this.statements.push({ sql, parameters, json: new Set(options.json ?? []), captures, guard: options.guard ?? null });
    return captures === null ? { affectedRows: options.guard?.rows ?? 0 } : { insertId: captures, affectedRows: 1 };
  }

  /** `value` with every stand-in id (a number, or within a string; in arrays and objects) replaced by the id it stood for, in place. */
  resolveIds<T>(value: T): T {
    if (this.resolved.size === 0) return value;
    return this.replace(value) as T;
  }

  /** The held writes as statements of a compound statement (variables `held_<n>` for the stand-ins). */
  compoundPart(): HeldCompoundPart {
    const statements: string[] = [];
    const parameters: unknown[] = [];
    const variable = (standIn: number) => `held_${standIn - this.base}`;
    const captured: number[] = [];
    this.statements.forEach((statement, index) => {
      const parts = statement.sql.split('?');
      let sql = parts[0];
      statement.parameters.forEach((value, position) => {
        if (typeof value === 'number' && this.isStandIn(value)) sql += variable(value);
        else if (typeof value === 'string' && statement.json.has(value)) {
          const pieces = splitAtStandIns(value, this.standIns, this.prefix);
          if (pieces.length === 1) {
            sql += '?';
            parameters.push(value);
          } else {
            sql += `CONCAT(${pieces.map((piece) => (typeof piece === 'number' ? variable(piece) : '?')).join(', ')})`;
            parameters.push(...pieces.filter((piece) => typeof piece === 'string'));
          }
        } else {
          sql += '?';
          parameters.push(value);
        }
        sql += parts[position + 1];
      });
      sql += ';';
      if (statement.guard) {
        sql += ` IF ROW_COUNT() <> ${statement.guard.rows} THEN SIGNAL SQLSTATE '${GUARD_STATE}' SET MESSAGE_TEXT = '${GUARD_MESSAGE}${index}'; END IF;`;
      }
      if (statement.captures !== null) {
        sql += ` SET ${variable(statement.captures)} = LAST_INSERT_ID();`;
        captured.push(statement.captures);
      }
      statements.push(sql);
    });
    return {
      declarations: captured.length > 0 ? `DECLARE ${captured.map(variable).join(', ')} BIGINT DEFAULT NULL;` : '',
      statements,
      parameters,
      ids: captured.length > 0 ? `CONCAT_WS(',', ${captured.map(variable).join(', ')})` : null,
    };
  }

  /** What the compound statement selected as `held_ids` (compoundPart's `ids`): the stand-ins' ids, in order. */
  resolve(ids: string | null | undefined): void {
    const values = (ids ?? '').split(',').filter((part) => part !== '');
    const captured = this.statements.flatMap((statement) => (statement.captures === null ? [] : [statement.captures]));
    captured.forEach((standIn, index) => {
      if (values[index] !== undefined) this.resolved.set(standIn, Number(values[index]));
    });
  }

  /** The error a guard's SIGNAL stands for, or null for any other error. */
  failure(error: unknown): Error | null {
    const failure = error as { driverError?: { sqlState?: string; sqlMessage?: string }; sqlState?: string; sqlMessage?: string };
    const state = failure.driverError?.sqlState ?? failure.sqlState;
    const message = failure.driverError?.sqlMessage ?? failure.sqlMessage ?? '';
    if (state !== GUARD_STATE || !message.startsWith(GUARD_MESSAGE)) return null;
    return this.statements[Number(message.slice(GUARD_MESSAGE.length))]?.guard?.fails() ?? null;
  }

  /** Sends the held writes one statement each (where compound statements do not run), the ids substituted as they come. */
  async sendEach(run: (sql: string, parameters: unknown[]) => Promise<unknown>): Promise<void> {
    const statements = this.statements.splice(0);
    for (const statement of statements) {
      const parameters = statement.parameters.map((value) => {
        if (typeof value === 'number' && this.isStandIn(value)) return this.idOf(value);
        if (typeof value !== 'string' || !statement.json.has(value)) return value;
        return splitAtStandIns(value, this.standIns, this.prefix)
          .map((piece) => (typeof piece === 'number' ? String(this.idOf(piece)) : piece))
          .join('');
      });
      const raw = (await run(statement.sql, parameters)) as { insertId?: number | string; affectedRows?: number } | undefined;
      if (statement.guard && raw?.affectedRows !== statement.guard.rows) throw statement.guard.fails();
      if (statement.captures !== null) this.resolved.set(statement.captures, Number(raw?.insertId));
    }
    this.statements.push(...statements);
  }

  private release(): this {
    if (!this.released) {
      this.released = true;
      this.restoreQuery();
    }
    return this;
  }

  private standIn(): number {
    const standIn = this.base + this.standIns.size;
    this.standIns.set(String(standIn), standIn);
    return standIn;
  }

  private isStandIn(value: number): boolean {
    return value >= this.base && value < this.base + this.standIns.size;
  }

  private idOf(standIn: number): number {
    const id = this.resolved.get(standIn);
    if (id === undefined) throw new Error('a held write used an id not yet generated');
    return id;
  }

  private replace(value: unknown): unknown {
    if (typeof value === 'number') return this.isStandIn(value) ? (this.resolved.get(value) ?? value) : value;
    if (typeof value === 'string') {
      const pieces = splitAtStandIns(value, this.standIns, this.prefix);
      return pieces.length === 1
        ? value
        : pieces.map((piece) => (typeof piece === 'number' ? String(this.resolved.get(piece) ?? piece) : piece)).join('');
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => (value[index] = this.replace(item)));
      return value;
    }
    if (value && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
      for (const key of Object.keys(value)) (value as Record<string, unknown>)[key] = this.replace((value as Record<string, unknown>)[key]);
    }
    return value;
  }
}

/** The `held_ids` of the row a compound statement selected (mysql2 answers its result sets and the final OK as a list). */
function firstIds(raw: unknown): string | null {
  for (const set of Array.isArray(raw) ? (raw as unknown[]) : []) {
    if (Array.isArray(set) && set.length > 0) return (set[0] as { held_ids: string | null }).held_ids;
  }
  return null;
}
