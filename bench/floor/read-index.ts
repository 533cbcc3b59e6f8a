import type { Pool, RowDataPacket } from 'mysql2/promise';
import { FLOOR_DOCUMENT_TABLES } from './documents';

/**
 * The floor's own read model, built at start-up from the service's tables: for the anonymous events
 * list and each filter dimension, one table whose primary key is the list's order, so that a page
 * is one ordered range read of the clustered index and a count one range scan of it (counted once
 * per filter and window start, then kept). The manager's ticket list gets the same; its attendee
 * list is the attendees' primary key order already.
 */

/** A filter dimension of the events list: its query parameter, the floor's table and the link table it is built from. */
export interface Dimension {
  parameter: 'categories' | 'tags' | 'venue' | 'organizer';
  table: string;
  /** The link rows the table holds: a value and an event id, each pair once. */
  links: string;
  column: string;
}

export const DIMENSIONS: Dimension[] = [
  // A category lists its descendants' events too: each link stands for its category and every ancestor.
  {
    parameter: 'categories',
    table: 'floor_category_events',
    links:
      '(SELECT DISTINCT a.ancestor_id AS category_id, cl.event_id FROM event_category_links cl INNER JOIN event_category_ancestors a ON a.category_id = cl.category_id)',
    column: 'category_id',
  },
  { parameter: 'tags', table: 'floor_tag_events', links: 'event_tag_links', column: 'tag_id' },
  { parameter: 'venue', table: 'floor_venue_events', links: 'event_venue_links', column: 'venue_id' },
  { parameter: 'organizer', table: 'floor_organizer_events', links: 'event_organizer_links', column: 'organizer_id' },
];

const EVENTS_TABLE = 'floor_events';
const TICKETS_TABLE = 'floor_manager_tickets';
const ALL_TABLES = [
  EVENTS_TABLE,
  TICKETS_TABLE,
  ...DIMENSIONS.map((dimension) => dimension.table),
  ...Object.values(FLOOR_DOCUMENT_TABLES),
];

/** What anonymous callers see in lists: published and not hidden. */
const LISTED = "e.status = 'publish' AND e.hide_from_listings = 0";
const ORDER = 'start_utc, published_at, event_id';

/** The list's date window, as UTC `YYYY-MM-DD HH:MM:SS` bounds. */
export interface Window {
  start: string;
  end: string;
}

/** One filter of a list: a dimension and its values (ids), or none for the whole window. */
export interface ListFilter {
  dimension?: Dimension;
  values: number[];
}

interface OrderedRow extends RowDataPacket {
  event_id: number;
  start_utc: string;
  published_at: string;
}

export class ReadIndex {
  private readonly counts = new Map<string, Promise<number>>();

  constructor(private readonly pool: Pool) {}

  /** (Re)builds every floor table from the service's current rows. */
  async build(): Promise<void> {
    await this.drop();
    await this.pool.query(
      `CREATE TABLE ${EVENTS_TABLE} (PRIMARY KEY (${ORDER})) ENGINE=InnoDB
       SELECT e.start_utc, e.published_at, e.id AS event_id, e.end_utc FROM events e WHERE ${LISTED}`,
    );
    for (const dimension of DIMENSIONS) {
      await this.pool.query(
        `CREATE TABLE ${dimension.table} (PRIMARY KEY (${dimension.column}, ${ORDER})) ENGINE=InnoDB
         SELECT l.${dimension.column}, e.start_utc, e.published_at, e.id AS event_id, e.end_utc
         FROM ${dimension.links} l INNER JOIN events e ON e.id = l.event_id WHERE ${LISTED}`,
      );
    }
    // What a manager (read_private_events) sees: every ticket outside the trash, of an event outside the trash; by name, then id.
    await this.pool.query(
      `CREATE TABLE ${TICKETS_TABLE} (PRIMARY KEY (name, ticket_id)) ENGINE=InnoDB
       SELECT t.name, t.id AS ticket_id FROM tickets t INNER JOIN events e ON e.id = t.event_id WHERE t.status <> 'trash' AND e.status <> 'trash'`,
    );
    this.counts.clear();
  }

  async drop(): Promise<void> {
    await this.pool.query(`DROP TABLE IF EXISTS ${ALL_TABLES.join(', ')}`);
  }

  /** Ids of one page of the list, in its order. */
  async pageIds(filter: ListFilter, window: Window, offset: number, limit: number): Promise<number[]> {
    if (filter.values.length <= 1)
      return (await this.orderedRows(filter.dimension, filter.values[0], window, offset, limit)).map((row) => row.event_id);
    // Several values: each one's first offset + limit rows in order, merged; an event linked to two values is listed once.
    const runs = await Promise.all(filter.values.map((value) => this.orderedRows(filter.dimension, value, window, 0, offset + limit)));
    const merged = runs.flat().sort(compareRows);
    const ids: number[] = [];
    let previous = -1;
    for (const row of merged) {
      if (row.event_id !== previous) ids.push(row.event_id);
      previous = row.event_id;
    }
    return ids.slice(offset, offset + limit);
  }

  /** The list's total: counted on first use for this filter and window start, then kept. */
  count(filter: ListFilter, window: Window): Promise<number> {
    const key = `${filter.dimension?.parameter ?? ''}=${filter.values.join(',')}|${window.start}|${window.end}`;
    let count = this.counts.get(key);
    if (!count) {
      count = this.countNow(filter, window);
      this.counts.set(key, count);
      count.catch(() => this.counts.delete(key));
    }
    return count;
  }

  async managerTicketIds(offset: number, limit: number): Promise<number[]> {
    const [rows] = await this.pool.query<RowDataPacket[]>(
      `SELECT ticket_id FROM ${TICKETS_TABLE} ORDER BY name, ticket_id LIMIT ? OFFSET ?`,
      [limit, offset],
    );
    return rows.map((row) => Number(row.ticket_id));
  }

  managerTicketCount(): Promise<number> {
    return this.kept('tickets', `SELECT COUNT(*) AS total FROM ${TICKETS_TABLE}`);
  }

  async managerAttendeeIds(offset: number, limit: number): Promise<number[]> {
    const [rows] = await this.pool.query<RowDataPacket[]>('SELECT id FROM attendees ORDER BY id LIMIT ? OFFSET ?', [limit, offset]);
    return rows.map((row) => Number(row.id));
  }

  /** The one statement of a single event: its row's version by primary key (undefined when there is none). */
  async eventVersion(id: number): Promise<number | undefined> {
    const [rows] = await this.pool.query<RowDataPacket[]>('SELECT document_version FROM events WHERE id = ?', [id]);
    return rows.length ? Number(rows[0].document_version) : undefined;
  }

  managerAttendeeCount(): Promise<number> {
    return this.kept('attendees', 'SELECT COUNT(*) AS total FROM attendees');
  }

  private kept(key: string, sql: string): Promise<number> {
    let count = this.counts.get(key);
    if (!count) {
      count = this.pool.query<RowDataPacket[]>(sql).then(([rows]) => Number(rows[0].total));
      this.counts.set(key, count);
      count.catch(() => this.counts.delete(key));
    }
    return count;
  }

  private async countNow(filter: ListFilter, window: Window): Promise<number> {
    const { dimension, values } = filter;
    const sql = dimension
      ? `SELECT COUNT(${values.length > 1 ? 'DISTINCT event_id' : '*'}) AS total FROM ${dimension.table}
         WHERE ${dimension.column} IN (?) AND start_utc >= ? AND end_utc <= ?`
      : `SELECT COUNT(*) AS total FROM ${EVENTS_TABLE} WHERE start_utc >= ? AND end_utc <= ?`;
    const [rows] = await this.pool.query<RowDataPacket[]>(sql, dimension ? [values, window.start, window.end] : [window.start, window.end]);
    return Number(rows[0].total);
  }

  private async orderedRows(
    dimension: Dimension | undefined,
    value: number | undefined,
    window: Window,
    offset: number,
    limit: number,
  ): Promise<OrderedRow[]> {
    const sql = dimension
      ? `SELECT event_id, start_utc, published_at FROM ${dimension.table} WHERE ${dimension.column} = ? AND start_utc >= ? AND end_utc <= ? ORDER BY ${ORDER} LIMIT ? OFFSET ?`
      : `SELECT event_id, start_utc, published_at FROM ${EVENTS_TABLE} WHERE start_utc >= ? AND end_utc <= ? ORDER BY ${ORDER} LIMIT ? OFFSET ?`;
    const values = dimension ? [value, window.start, window.end, limit, offset] : [window.start, window.end, limit, offset];
    const [rows] = await this.pool.query<OrderedRow[]>(sql, values);
    return rows;
  }
}

/** The list's order; the pool returns dates as strings, which sort like the instants they hold. */
function compareRows(a: OrderedRow, b: OrderedRow): number {
  if (a.start_utc !== b.start_utc) return a.start_utc < b.start_utc ? -1 : 1;
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? -1 : 1;
  return a.event_id - b.event_id;
}
