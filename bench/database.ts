import { createConnection, Connection, RowDataPacket } from 'mysql2/promise';

export interface SaleTicket {
  id: number;
  provider: string;
}

/** The benchmark's own database: created, read for request parameters, and dropped by the runner. */
export class BenchDatabase {
  private constructor(
    private readonly connection: Connection,
    private readonly name: string,
  ) {}

  static async create(serverUrl: string, name: string): Promise<BenchDatabase> {
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Database name ${name} must be letters, digits and _`);
    const connection = await createConnection({ uri: serverUrl, timezone: 'Z', multipleStatements: false });
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await connection.query(`USE \`${name}\``);
    return new BenchDatabase(connection, name);
  }

  /**
   * Makes InnoDB's buffer pool at least `megabytes` (MariaDB resizes it online) and returns the
   * size it had, to put back after the run. The server's default (128 MB) holds a tenth of a
   * million-event calendar: every list would then measure the disk, not the service.
   */
  async ensureBufferPool(megabytes: number): Promise<number> {
    const [rows] = await this.connection.query<RowDataPacket[]>('SELECT @@innodb_buffer_pool_size AS size');
    const before = Number(rows[0].size);
    if (megabytes > 0 && before < megabytes * 1024 * 1024) await this.setBufferPool(megabytes * 1024 * 1024);
    return before;
  }

  async setBufferPool(bytes: number): Promise<void> {
    await this.connection.query(`SET GLOBAL innodb_buffer_pool_size = ${Math.floor(bytes)}`);
  }

  async serverVersion(): Promise<string> {
    const [rows] = await this.connection.query<RowDataPacket[]>('SELECT VERSION() AS version');
    return `MariaDB/MySQL ${String(rows[0].version)}`;
  }

  /** Fresh index statistics after a bulk load, as a production database would have. */
  async analyze(): Promise<void> {
    const tables = [
      'events',
      'venues',
      'organizers',
      'event_categories',
      'event_tags',
      'event_venue_links',
      'event_organizer_links',
      'event_category_links',
      'event_tag_links',
      'tickets',
      'ticket_capacity_counters',
      'attendees',
      'orders',
    ];
    await this.connection.query(`ANALYZE TABLE ${tables.map((table) => `\`${table}\``).join(', ')}`);
  }

  /**
   * Every value of each list filter that lists an event in the window (the floor's and the
   * service's conditions: published, not hidden, starting at or after `window.start` and ending at
   * or before `window.end`, UTC), with how many it lists, by id.
   */
  async listedByValue(
    links: string,
    column: string,
    window: { start: string; end: string },
  ): Promise<Array<{ id: number; listed: number }>> {
    const [rows] = await this.connection.query<RowDataPacket[]>(
      `SELECT l.${column} AS id, COUNT(*) AS listed FROM ${links} l INNER JOIN events e ON e.id = l.event_id
       WHERE e.status = 'publish' AND e.hide_from_listings = 0 AND e.start_utc >= ? AND e.end_utc <= ?
       GROUP BY l.${column} ORDER BY l.${column}`,
      [window.start, window.end],
    );
    return rows.map((row) => ({ id: Number(row.id), listed: Number(row.listed) }));
  }

  /** Events the window lists with any of these categories (an event in two is counted once). */
  async listedInCategories(ids: number[], window: { start: string; end: string }): Promise<number> {
    const [rows] = await this.connection.query<RowDataPacket[]>(
      `SELECT COUNT(DISTINCT l.event_id) AS listed FROM event_category_links l INNER JOIN events e ON e.id = l.event_id
       WHERE l.category_id IN (?) AND e.status = 'publish' AND e.hide_from_listings = 0 AND e.start_utc >= ? AND e.end_utc <= ?`,
      [ids, window.start, window.end],
    );
    return Number(rows[0].listed);
  }

  /** Events the window lists, no filter. */
  async listedInWindow(window: { start: string; end: string }): Promise<number> {
    const [rows] = await this.connection.query<RowDataPacket[]>(
      `SELECT COUNT(*) AS listed FROM events e
       WHERE e.status = 'publish' AND e.hide_from_listings = 0 AND e.start_utc >= ? AND e.end_utc <= ?`,
      [window.start, window.end],
    );
    return Number(rows[0].listed);
  }

  /** Published events for the single-event route, at random, in id order. */
  async singleEventIds(count: number): Promise<number[]> {
    const [events] = await this.connection.query<RowDataPacket[]>(
      `SELECT id FROM (SELECT id FROM events WHERE status = 'publish' ORDER BY RAND() LIMIT ?) chosen ORDER BY id`,
      [count],
    );
    return events.map((row) => Number(row.id));
  }

  /**
   * Unlimited tickets on sale for an event more than a week away, for the steady sale: the last
   * ones of the manager's ticket list (by name, then id), so that the pages the scenarios read
   * are not the ones the sale changes.
   */
  async saleTickets(count: number): Promise<SaleTicket[]> {
    const [tickets] = await this.connection.query<RowDataPacket[]>(
      `SELECT t.id, t.provider FROM tickets t INNER JOIN events e ON e.id = t.event_id
       WHERE t.status = 'publish' AND e.status = 'publish' AND t.capacity_mode = 'unlimited' AND e.start_utc > UTC_TIMESTAMP() + INTERVAL 7 DAY
         AND (t.sale_start_utc IS NULL OR t.sale_start_utc <= UTC_TIMESTAMP())
         AND (t.sale_end_utc IS NULL OR t.sale_end_utc > UTC_TIMESTAMP() + INTERVAL 1 DAY)
       ORDER BY t.name DESC, t.id DESC LIMIT ?`,
      [count],
    );
    if (tickets.length === 0) throw new Error('No unlimited ticket on sale for the steady sale: seed more events');
    return tickets.map((row) => ({ id: Number(row.id), provider: String(row.provider) }));
  }

  /** A published upcoming event with one ticket of `capacity` units (paid unless `priceMinor` is 0; USD cents), for the flash sales. */
  async createContendedTicket(capacity: number, label: string, priceMinor = 2500): Promise<{ id: number; provider: string }> {
    const start = new Date(Date.now() + 30 * 86_400_000);
    start.setUTCHours(18, 0, 0, 0);
    const end = new Date(start.getTime() + 3 * 3_600_000);
    const local = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
    const [event] = await this.connection.query<{ insertId: number } & RowDataPacket[]>(
      `INSERT INTO events (status, title, slug, published_at, timezone, all_day, start_utc, end_utc, start_local, end_local)
       VALUES ('publish', ?, ?, UTC_TIMESTAMP(), 'UTC', 0, ?, ?, ?, ?)`,
      [`Checkout stampede ${label}`, `checkout-stampede-${label}`, start, end, local(start), local(end)],
    );
    const [ticket] = await this.connection.query<{ insertId: number } & RowDataPacket[]>(
      `INSERT INTO tickets (event_id, provider, status, name, price_minor, capacity_mode, capacity, published_at)
       VALUES (?, 'tc', 'publish', 'General admission', ?, 'own', ?, UTC_TIMESTAMP())`,
      [event.insertId, priceMinor, capacity],
    );
    await this.connection.query(
      `INSERT INTO ticket_capacity_counters (ticket_id, capacity_mode, capacity, sold, pending) VALUES (?, 'own', ?, 0, 0)`,
      [ticket.insertId, capacity],
    );
    return { id: ticket.insertId, provider: 'tc' };
  }

  /** What a ticket sold and holds, its attendees and its orders' units, to count what was oversold. */
  async ticketOutcome(
    ticketId: number,
  ): Promise<{ sold: number; pending: number; attendees: number; orders: number; orderedUnits: number }> {
    const [counters] = await this.connection.query<RowDataPacket[]>(
      'SELECT sold, pending FROM ticket_capacity_counters WHERE ticket_id = ?',
      [ticketId],
    );
    const [attendees] = await this.connection.query<RowDataPacket[]>('SELECT COUNT(*) AS attendees FROM attendees WHERE ticket_id = ?', [
      ticketId,
    ]);
    const [orders] = await this.connection.query<RowDataPacket[]>(
      'SELECT COUNT(DISTINCT order_id) AS orders, COALESCE(SUM(quantity), 0) AS units FROM order_items WHERE ticket_id = ?',
      [ticketId],
    );
    return {
      sold: Number(counters[0]?.sold ?? 0),
      pending: Number(counters[0]?.pending ?? 0),
      attendees: Number(attendees[0]?.attendees ?? 0),
      orders: Number(orders[0]?.orders ?? 0),
      orderedUnits: Number(orders[0]?.units ?? 0),
    };
  }

  async drop(): Promise<void> {
    await this.connection.query(`DROP DATABASE IF EXISTS \`${this.name}\``);
  }

  async close(): Promise<void> {
    await this.connection.end();
  }
}
