/**
 * The sale floor: the least a correct checkout must do, as a raw `node:http` + mysql2 server on the
 * service's own tables (the rows the service writes, in the same tables, so that both pay for the
 * same indexes and triggers). It shares no code with src/. The benchmark's buyers
 * (bench/flash-buyers.ts) drive it exactly as they drive the service:
 *
 * - POST /cal/tickets/v1/cart `{provider, tickets: [{ticket_id, quantity}]}` with the buyer's
 *   `X-Cart-Token` (none on the first write: a token is issued and answered in `X-Cart-Token`).
 *   One read of the tickets (on sale, free, their units left), then the cart row and its lines
 *   written; 200, or 409 ticket-capacity-not-available when a ticket is not on sale or has fewer
 *   units left than asked.
 * - POST /cal/tickets/v1/cart/checkout `{provider, purchaser: {name, email}}` with the token. One
 *   transaction: the cart lines read, removed (exactly the lines read: a concurrent checkout of the
 *   same cart removes nothing and is refused), the order, its lines, one attendee per unit with a
 *   random security code and one `order.placed` outbox row inserted, and last the units taken with
 *   one conditional UPDATE of each ticket's capacity counter
 *   (`sold = sold + n WHERE capacity - sold - pending >= n`), then COMMIT; 201 with a minimal order,
 *   or ROLLBACK and 409 ticket-capacity-not-available when too few units are left. The counter row,
 *   which every buyer of the ticket waits for, is taken last (as the service takes it) so that it is
 *   held only from its UPDATE to the COMMIT.
 *
 * Only what the benchmark's sale needs is served: free tickets whose counter is their own (`own`)
 * or unlimited, anonymous buyers; anything else is refused with a floor-* error code. Carts do not
 * idle out. Errors use the service's envelope `{code, message, data: {status}}`.
 *
 * Run alone: DATABASE_URL=mysql://… PORT=3002 npm run bench:sale-floor
 */
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPool, Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { runUntilStopped } from './run-until-stopped';

export interface SaleFloorOptions {
  databaseUrl: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  poolSize?: number;
  /** CURRENCY_CODE of the service (USD); the order's currency. */
  currency?: string;
}

export interface SaleFloorServer {
  url: string;
  close(): Promise<void>;
}

const CART_PATH = '/cal/tickets/v1/cart';
const CHECKOUT_PATH = '/cal/tickets/v1/cart/checkout';
const JSON_TYPE = 'application/json; charset=utf-8';
/** The service's default MAX_TICKETS_PER_ORDER: units of one ticket a cart line may hold. */
const MAX_UNITS_PER_LINE = 100;
/** Largest request body read. */
const MAX_BODY_BYTES = 64 * 1024;
const TOKEN_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** MariaDB/MySQL: deadlock found, lock wait timeout. */
const BUSY_ERRNOS = new Set([1213, 1205]);

class SaleRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const refusals = {
  badBody: (message: string) => new SaleRefusal(400, 'rest_invalid_param', message),
  missing: (name: string) => new SaleRefusal(400, 'rest_missing_callback_param', `Missing parameter(s): ${name}`),
  unsupported: (message: string) => new SaleRefusal(400, 'floor-unsupported', message),
  cartEmpty: () => new SaleRefusal(400, 'cart-empty', 'The cart has no tickets of this provider to check out.'),
  noTicket: (ticketId: number) =>
    new SaleRefusal(404, 'ticket-does-not-exist', `Ticket ${ticketId} does not exist.`, { ticket_id: ticketId }),
  notAvailable: (ticketId: number) =>
    new SaleRefusal(409, 'ticket-capacity-not-available', `Ticket ${ticketId} cannot be bought in that quantity.`, {
      ticket_id: ticketId,
    }),
};

interface CartLine {
  ticketId: number;
  quantity: number;
}

interface TicketRow extends RowDataPacket {
  id: number;
  provider: string;
  price_minor: number | string;
  capacity_mode: string;
  units_left: number | string | null;
  on_sale: number | string;
}

interface CheckoutLineRow extends RowDataPacket {
  cart_id: number;
  ticket_id: number;
  quantity: number;
  optout: number;
  event_id: number;
  on_sale: number | string;
}

/** On sale now, as the service decides it: the event and the ticket published, inside the ticket's sale window. */
const ON_SALE =
  "(t.status = 'publish' AND e.status = 'publish' AND (t.sale_start_utc IS NULL OR t.sale_start_utc <= UTC_TIMESTAMP()) " +
  'AND (t.sale_end_utc IS NULL OR t.sale_end_utc >= UTC_TIMESTAMP()))';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(raw: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw refusals.badBody('The body is not JSON');
  }
  if (!isObject(body)) throw refusals.badBody('The body must be a JSON object');
  return body;
}

function requiredString(body: Record<string, unknown>, name: string, path = name): string {
  const value = body[name];
  if (typeof value !== 'string' || value.trim() === '') throw refusals.missing(path);
  return value.trim();
}

function cartLines(body: Record<string, unknown>): CartLine[] {
  const tickets = body.tickets;
  if (!Array.isArray(tickets) || tickets.length === 0) throw refusals.missing('tickets');
  const seen = new Set<number>();
  return tickets.map((entry: unknown, index) => {
    if (!isObject(entry)) throw refusals.missing(`tickets[${index}]`);
    const ticketId = entry.ticket_id;
    const quantity = entry.quantity;
    if (!Number.isInteger(ticketId) || (ticketId as number) < 1) throw refusals.badBody(`tickets[${index}][ticket_id] must be an id`);
    if (!Number.isInteger(quantity) || (quantity as number) < 0 || (quantity as number) > MAX_UNITS_PER_LINE)
      throw refusals.badBody(`tickets[${index}][quantity] must be an integer from 0 to ${MAX_UNITS_PER_LINE}`);
    if (seen.has(ticketId as number)) throw refusals.badBody(`ticket ${String(ticketId)} is listed more than once`);
    seen.add(ticketId as number);
    return { ticketId: ticketId as number, quantity: quantity as number };
  });
}

function requestToken(incoming: IncomingMessage): string | null {
  const header = incoming.headers['x-cart-token'];
  const token = (Array.isArray(header) ? header[0] : header)?.trim();
  return token && TOKEN_PATTERN.test(token) ? token : null;
}

/** A DATETIME column without fractions stores whole seconds. */
function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(refusals.badBody(`The body is larger than ${MAX_BODY_BYTES} bytes`));
        incoming.destroy();
        return;
      }
      chunks.push(chunk);
    });
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}

/** The floor's two write routes over one pool. */
export class SaleRoutes {
  private readonly exponent: number;

  constructor(
    private readonly pool: Pool,
    private readonly currency: string,
  ) {
    this.exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  }

  /** Sets the listed lines' quantities (0 removes a line) in the buyer's cart, created on their first write. */
  async writeCart(body: Record<string, unknown>, token: string | null): Promise<{ token: string; body: string }> {
    const provider = requiredString(body, 'provider');
    const lines = cartLines(body);
    const wanted = lines.filter((line) => line.quantity > 0);
    if (wanted.length > 0) {
      const [tickets] = await this.pool.query<TicketRow[]>(
        `SELECT t.id, t.provider, t.price_minor, c.capacity_mode, c.capacity - c.sold - c.pending AS units_left, ${ON_SALE} AS on_sale
         FROM tickets t INNER JOIN events e ON e.id = t.event_id INNER JOIN ticket_capacity_counters c ON c.ticket_id = t.id
         WHERE t.id IN (?)`,
        [wanted.map((line) => line.ticketId)],
      );
      const byId = new Map(tickets.map((ticket) => [Number(ticket.id), ticket]));
      for (const line of wanted) {
        const ticket = byId.get(line.ticketId);
        if (!ticket) throw refusals.noTicket(line.ticketId);
        if (ticket.provider !== provider) throw refusals.badBody(`ticket ${line.ticketId} is sold by ${ticket.provider}, not ${provider}`);
        if (Number(ticket.price_minor) !== 0) throw refusals.unsupported('The sale floor sells free tickets only');
        if (ticket.capacity_mode !== 'own' && ticket.capacity_mode !== 'unlimited')
          throw refusals.unsupported('The sale floor sells tickets with their own or unlimited capacity only');
        const short = ticket.capacity_mode === 'own' && Number(ticket.units_left) < line.quantity;
        if (Number(ticket.on_sale) !== 1 || short) throw refusals.notAvailable(line.ticketId);
      }
    }
    const cartToken = token ?? randomBytes(24).toString('base64url');
    const now = new Date();
    // The buyer's cart row, or the one its token already has (its id either way, in one statement).
    const [cart] = await this.pool.query<ResultSetHeader>(
      'INSERT INTO carts (token, created_at, updated_at) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)',
      [cartToken, now, now],
    );
    const cartId = cart.insertId;
    if (wanted.length > 0) {
      await this.pool.query(
        `INSERT INTO cart_items (cart_id, ticket_id, provider, quantity, optout) VALUES ${wanted.map(() => '(?, ?, ?, ?, 0)').join(', ')}
         ON DUPLICATE KEY UPDATE quantity = VALUES(quantity)`,
        wanted.flatMap((line) => [cartId, line.ticketId, provider, line.quantity]),
      );
    }
    const removed = lines.filter((line) => line.quantity === 0).map((line) => line.ticketId);
    if (removed.length > 0) await this.pool.query('DELETE FROM cart_items WHERE cart_id = ? AND ticket_id IN (?)', [cartId, removed]);
    const answer = wanted.map((line) => ({ ticket_id: line.ticketId, quantity: line.quantity }));
    return { token: cartToken, body: JSON.stringify({ provider, tickets: answer }) };
  }

  /** The buyer's lines of `provider` turned into a completed order, in one transaction. */
  async checkout(body: Record<string, unknown>, token: string | null): Promise<string> {
    const provider = requiredString(body, 'provider');
    const purchaser = body.purchaser;
    if (!isObject(purchaser)) throw refusals.missing('purchaser');
    const name = requiredString(purchaser, 'name', 'purchaser[name]');
    const email = requiredString(purchaser, 'email', 'purchaser[email]');
    if (!token) throw refusals.cartEmpty();

    const connection = await this.pool.getConnection();
    try {
      await connection.query('START TRANSACTION');
      try {
        const answer = await this.placeOrder(connection, provider, token, name, email);
        await connection.query('COMMIT');
        return answer;
      } catch (error) {
        await connection.query('ROLLBACK');
        throw error;
      }
    } finally {
      connection.release();
    }
  }

  private async placeOrder(connection: PoolConnection, provider: string, token: string, name: string, email: string): Promise<string> {
    const [lines] = await connection.query<CheckoutLineRow[]>(
      `SELECT ci.cart_id, ci.ticket_id, ci.quantity, ci.optout, t.event_id, ${ON_SALE} AS on_sale
       FROM carts c INNER JOIN cart_items ci ON ci.cart_id = c.id INNER JOIN tickets t ON t.id = ci.ticket_id INNER JOIN events e ON e.id = t.event_id
       WHERE c.token = ? AND ci.provider = ? ORDER BY ci.ticket_id`,
      [token, provider],
    );
    if (lines.length === 0) throw refusals.cartEmpty();
    const stopped = lines.find((line) => Number(line.on_sale) !== 1);
    if (stopped) throw refusals.notAvailable(stopped.ticket_id);
    // Exactly the lines read leave the cart: a concurrent checkout of this cart (or a write that
    // changed a quantity since the read) finds fewer and is refused, so no unit is ordered twice.
    const [removed] = await connection.query<ResultSetHeader>(
      `DELETE FROM cart_items WHERE cart_id = ? AND (${lines.map(() => '(ticket_id = ? AND quantity = ?)').join(' OR ')})`,
      [lines[0].cart_id, ...lines.flatMap((line) => [line.ticket_id, line.quantity])],
    );
    if (removed.affectedRows !== lines.length) throw refusals.cartEmpty();

    const now = new Date();
    const completedAt = wholeSeconds(now);
    const [order] = await connection.query<ResultSetHeader>(
      `INSERT INTO orders (provider, status, user_id, cart_token, purchaser_name, purchaser_email, total_minor, currency, payment_method, completed_at, created_at, updated_at)
       VALUES (?, 'completed', NULL, ?, ?, ?, 0, ?, 'online', ?, ?, ?)`,
      [provider, token, name, email, this.currency, completedAt, now, now],
    );
    const orderId = order.insertId;
    await connection.query(
      `INSERT INTO order_items (order_id, ticket_id, quantity, unit_price_minor) VALUES ${lines.map(() => '(?, ?, ?, 0)').join(', ')}`,
      lines.flatMap((line) => [orderId, line.ticket_id, line.quantity]),
    );
    const attendees = lines.flatMap((line) =>
      Array.from({ length: line.quantity }, () => ({ line, securityCode: randomBytes(16).toString('hex') })),
    );
    // The check-in secret is the database's (a trigger fills it), as for the service's rows.
    await connection.query(
      `INSERT INTO attendees (order_id, ticket_id, event_id, provider, status, order_status, holder_name, holder_email, security_code, optout, created_at, updated_at)
       VALUES ${attendees.map(() => "(?, ?, ?, ?, 'publish', 'completed', ?, ?, ?, ?, ?, ?)").join(', ')}`,
      attendees.flatMap(({ line, securityCode }) => [
        orderId,
        line.ticket_id,
        line.event_id,
        provider,
        name,
        email,
        securityCode,
        line.optout,
        now,
        now,
      ]),
    );
    const total = (0).toFixed(this.exponent);
    const payload = JSON.stringify({
      order_id: orderId,
      status: 'completed',
      provider,
      total,
      currency: this.currency,
      purchaser_name: name,
      purchaser_email: email,
    });
    await connection.query(
      `INSERT INTO outbox_messages (channel, type, payload, status, attempts, next_attempt_at, created_at) VALUES ('event', 'order.placed', ?, 'pending', 0, ?, ?)`,
      [payload, now, now],
    );
    // Last: the counter rows every buyer waits for, held from here to the COMMIT only.
    for (const line of lines) {
      const [taken] = await connection.query<ResultSetHeader>(
        `UPDATE ticket_capacity_counters SET sold = sold + ?
         WHERE ticket_id = ? AND (capacity_mode = 'unlimited' OR (capacity_mode = 'own' AND capacity - sold - pending >= ?))`,
        [line.quantity, line.ticket_id, line.quantity],
      );
      if (taken.affectedRows !== 1) throw refusals.notAvailable(line.ticket_id);
    }
    return JSON.stringify({
      id: orderId,
      status: 'completed',
      provider,
      total,
      currency: this.currency,
      attendees: attendees.map(({ line, securityCode }) => ({ ticket_id: line.ticket_id, security_code: securityCode })),
    });
  }
}

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  response.end(body);
}

function refusalOf(error: unknown): SaleRefusal {
  if (error instanceof SaleRefusal) return error;
  const errno = (error as { errno?: number }).errno;
  if (errno !== undefined && BUSY_ERRNOS.has(errno))
    return new SaleRefusal(503, 'database-busy', 'The checkout collided with others; retry.', { retry_after: 1 });
  return new SaleRefusal(500, 'floor-error', error instanceof Error ? error.message : String(error));
}

export async function startSaleFloor(options: SaleFloorOptions): Promise<SaleFloorServer> {
  const pool = createPool({
    uri: options.databaseUrl,
    connectionLimit: options.poolSize ?? 10,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
  });
  const routes = new SaleRoutes(pool, (options.currency ?? 'USD').toUpperCase());
  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (incoming.url ?? '/').split('?')[0];
    try {
      if (incoming.method === 'GET' && path === '/floor/ready') return send(response, 200, '{"ready":true}');
      if (incoming.method === 'POST' && path === CART_PATH) {
        const written = await routes.writeCart(parseJson(await readBody(incoming)), requestToken(incoming));
        return send(response, 200, written.body, { 'X-Cart-Token': written.token });
      }
      if (incoming.method === 'POST' && path === CHECKOUT_PATH) {
        return send(response, 201, await routes.checkout(parseJson(await readBody(incoming)), requestToken(incoming)));
      }
      throw new SaleRefusal(404, 'floor-no-route', `The sale floor does not serve ${incoming.method ?? ''} ${path}`);
    } catch (error) {
      const refusal = refusalOf(error);
      const body = JSON.stringify({ code: refusal.code, message: refusal.message, data: { status: refusal.status, ...refusal.data } });
      send(response, refusal.status, body, refusal.status === 503 ? { 'Retry-After': '1' } : {});
    }
  };
  const server = createServer((incoming, response) => void handle(incoming, response));
  server.keepAliveTimeout = 72_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await pool.end();
    },
  };
}

if (require.main === module) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write('DATABASE_URL is required\n');
    process.exit(1);
  }
  runUntilStopped(
    startSaleFloor({
      databaseUrl,
      port: Number(process.env.PORT ?? 0),
      poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      currency: process.env.CURRENCY_CODE,
    }),
  );
}
