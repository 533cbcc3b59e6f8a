import { createConnection, Connection, RowDataPacket } from 'mysql2/promise';
import type { ScenarioContext } from './scenarios';

const MIN_CATEGORY_EVENTS = 20 * 10;

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
    const tables = ['events', 'venues', 'organizers', 'event_categories', 'event_tags', 'event_venue_links', 'event_organizer_links', 'event_category_links', 'event_tag_links', 'tickets', 'attendees', 'orders'];
    await this.connection.query(`ANALYZE TABLE ${tables.map((table) => `\`${table}\``).join(', ')}`);
  }

  /** Real ids and words for the scenarios' requests (cart tokens come from each target). */
  async scenarioContext(managerAuthorization: string): Promise<Omit<ScenarioContext, 'cartTokens'>> {
    const [categories] = await this.connection.query<RowDataPacket[]>(
      `SELECT l.category_id AS id, COUNT(*) AS upcoming FROM event_category_links l INNER JOIN events e ON e.id = l.event_id
       WHERE e.status = 'publish' AND e.hide_from_listings = 0 AND e.start_utc >= UTC_DATE() GROUP BY l.category_id ORDER BY upcoming`,
    );
    const deepEnough = categories.filter((row) => Number(row.upcoming) >= MIN_CATEGORY_EVENTS);
    if (deepEnough.length === 0) throw new Error(`No category has ${MIN_CATEGORY_EVENTS} upcoming events: seed more events`);
    // The median category: a typical filter, not the largest or the smallest.
    const categoryId = Number(deepEnough[Math.floor(deepEnough.length / 2)].id);

    const [titles] = await this.connection.query<RowDataPacket[]>(
      `SELECT title FROM events WHERE status = 'publish' AND hide_from_listings = 0 AND start_utc >= UTC_DATE() ORDER BY start_utc LIMIT 300`,
    );
    const words = new Set<string>();
    for (const row of titles) for (const word of String(row.title).toLowerCase().split(/[^\p{L}]+/u)) if (word.length >= 5) words.add(word);
    const searchWords = [...words].slice(0, 20);
    if (searchWords.length === 0) throw new Error('No words to search for in upcoming event titles');

    const [events] = await this.connection.query<RowDataPacket[]>(`SELECT id FROM events WHERE status = 'publish' ORDER BY RAND() LIMIT 1000`);
    const [tickets] = await this.connection.query<RowDataPacket[]>(
      `SELECT t.id, t.provider FROM tickets t INNER JOIN events e ON e.id = t.event_id
       WHERE t.status = 'publish' AND e.status = 'publish' AND e.start_utc > UTC_TIMESTAMP() + INTERVAL 7 DAY
         AND (t.sale_start_utc IS NULL OR t.sale_start_utc <= UTC_TIMESTAMP())
         AND (t.sale_end_utc IS NULL OR t.sale_end_utc > UTC_TIMESTAMP() + INTERVAL 1 DAY)
         AND (t.capacity_mode = 'unlimited' OR (t.capacity_mode = 'own' AND t.capacity - t.sold - t.pending >= 10))
       ORDER BY t.id LIMIT 50`,
    );
    if (tickets.length === 0) throw new Error('No ticket on sale with units left for the cart scenario');
    return {
      categoryId,
      searchWords,
      eventIds: events.map((row) => Number(row.id)),
      cartTickets: tickets.map((row) => [Number(row.id), String(row.provider)] as [number, string]),
      managerAuthorization,
    };
  }

  /** A published upcoming event with one paid ticket of `capacity` units, for the checkout stampede. */
  async createContendedTicket(capacity: number, label: string): Promise<{ id: number; provider: string }> {
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
      `INSERT INTO tickets (event_id, provider, status, name, price, capacity_mode, capacity, published_at)
       VALUES (?, 'tc', 'publish', 'General admission', 25.00, 'own', ?, UTC_TIMESTAMP())`,
      [event.insertId, capacity],
    );
    return { id: ticket.insertId, provider: 'tc' };
  }

  /** Units taken (sold + held) and attendees of a ticket, to count what was oversold. */
  async ticketOutcome(ticketId: number): Promise<{ taken: number; attendees: number }> {
    const [tickets] = await this.connection.query<RowDataPacket[]>('SELECT sold + pending AS taken FROM tickets WHERE id = ?', [ticketId]);
    const [attendees] = await this.connection.query<RowDataPacket[]>('SELECT COUNT(*) AS attendees FROM attendees WHERE ticket_id = ?', [ticketId]);
    return { taken: Number(tickets[0]?.taken ?? 0), attendees: Number(attendees[0]?.attendees ?? 0) };
  }

  async drop(): Promise<void> {
    await this.connection.query(`DROP DATABASE IF EXISTS \`${this.name}\``);
  }

  async close(): Promise<void> {
    await this.connection.end();
  }
}
