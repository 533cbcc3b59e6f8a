/**
 * Every SQL statement of the baseline, route by route, in the order the service issues them.
 *
 * How they were captured: the service ran on MariaDB with DATABASE_LOG_QUERIES=true (TypeORM's
 * query logger; `npx ts-node --transpile-only src/main.ts`, or `node dist/main.js` after a build)
 * over a calendar filled by `cli seed:demo`, and each measured route was requested with curl
 * (lists, a single event, a category filter on page 1 and past the end, a search, the attendees as
 * an administrator, cart writes without and with a token, RSVP and paid checkouts, a sold-out
 * checkout), each twice to see the steady state once counts are cached. The statements below are
 * the logged ones with shorter table aliases: same tables, columns, WHERE, ORDER BY and LIMIT,
 * same count.
 * What TypeORM adds on its own is kept and marked "ORM:" (reading generated columns back after an
 * INSERT; `updated_at = CURRENT_TIMESTAMP` on UPDATEs), because the comparison is about the same
 * database work. When the service's SQL changes (indexes, FULLTEXT search, cached counts), redo
 * the capture and change it here; test/bench-baseline.e2e-spec.ts compares the statements of both
 * servers per route (verb and table of each) and fails when they drift apart.
 *
 * Values travel as `?` placeholders; an array value expands to a list (`IN (?)` → `IN (1, 2)`).
 */

// ---------------------------------------------------------------- columns (the entities' full lists)

export const EVENT_COLUMNS =
  'ev.id, ev.author_id, ev.status, ev.title, ev.slug, ev.description, ev.excerpt, ev.image, ev.published_at, ev.created_at, ev.updated_at, ' +
  'ev.timezone, ev.all_day, ev.start_utc, ev.end_utc, ev.start_local, ev.end_local, ev.cost, ev.website, ev.show_map, ev.show_map_link, ' +
  'ev.hide_from_listings, ev.sticky, ev.featured, ev.post_parent_id, ev.show_attendee_list';

const POST_COLUMNS = 'v.id, v.author_id, v.status, v.title, v.slug, v.description, v.excerpt, v.image, v.published_at, v.created_at, v.updated_at';

export const VENUE_COLUMNS = `${POST_COLUMNS}, v.address, v.city, v.country, v.province, v.state, v.stateprovince, v.zip, v.phone, v.website, v.show_map, v.show_map_link, v.geo_lat, v.geo_lng`;

const ORGANIZER_COLUMNS = `${POST_COLUMNS}, v.phone, v.website, v.email`;

export const TICKET_COLUMNS =
  't.id, t.event_id, t.author_id, t.provider, t.status, t.name, t.description, t.price, t.sku, t.iac, t.show_description, t.menu_order, ' +
  't.sale_start_utc, t.sale_end_utc, t.capacity_mode, t.capacity, t.sold, t.pending, t.published_at, t.created_at, t.updated_at';

const POOL_COLUMNS = 'p.event_id, p.capacity, p.sold, p.pending, p.created_at, p.updated_at';

const ATTENDEE_COLUMNS =
  'a.id, a.order_id, a.ticket_id, a.event_id, a.user_id, a.provider, a.status, a.order_status, a.rsvp_going, a.holder_name, a.holder_email, ' +
  'a.security_code, a.price_paid, a.optout, a.meta, a.checked_in, a.checked_in_at, a.checkin_source, a.checkin_user_id, a.created_at, a.updated_at';

const CART_COLUMNS = 'c.id, c.user_id, c.token, c.meta, c.created_at, c.updated_at';
const CART_ITEM_COLUMNS = 'i.cart_id, i.ticket_id, i.provider, i.quantity, i.optout, i.meta';

const ORDER_COLUMNS =
  'o.id, o.provider, o.status, o.user_id, o.cart_token, o.purchaser_name, o.purchaser_email, o.total, o.currency, o.expires_at, o.completed_at, o.created_at, o.updated_at';

// ---------------------------------------------------------------- count cache (src/common/caching/count-cache.ts)

/**
 * List totals are cached per process under a generation per scope (events,
 * tickets, attendees): read once per request and scope before the first count, renewed after a
 * write to the scope's tables commits (checkout: tickets and attendees). Counts marked "cached"
 * below are skipped while their generation holds, for at most COUNT_CACHE_SECONDS.
 */
export const countQueries = {
  generation: 'SELECT g.generation AS generation FROM cache_generations g WHERE g.name = ?',
  /** After COMMIT, on the transaction's connection. */
  renew: 'UPDATE cache_generations SET generation = generation + 1 WHERE name IN (?)',
};

// ---------------------------------------------------------------- GET /events

export interface EventListFilters {
  /** The search pattern, `%word%` lowercased with LIKE wildcards escaped by `!`. */
  searchPattern?: string;
  categoryIds?: number[];
  /** Words of a search the full-text index answers (src/events/events.service.ts `fullTextWords`). */
  fullTextWords?: string[];
}

/**
 * How a search with full-text words is read: `narrowed` (the count, and pages of at most
 * FULLTEXT_PAGE_MATCHES matches) adds the full-text match; `wordStart` (pages of more) checks row
 * by row that each word begins a word of the text.
 */
export type SearchVariant = 'narrowed' | 'wordStart';

export const FULLTEXT_PAGE_MATCHES = 2000;

export function fullTextWords(search: string): string[] | null {
  const words = search.trim().toLowerCase().split(/\s+/u);
  if (words.length === 0 || words.length > 10 || !words.every((word) => /^[\p{L}\p{N}]{3,84}$/u.test(word))) return null;
  return words;
}

/** WHERE of the list (published, listed, inside the date window) and its values: [listed, windowStart, windowEnd, ...filters]. */
function eventListWhere(filters: EventListFilters, variant: SearchVariant): { where: string; filterValues: unknown[] } {
  let where = "ev.status <> 'trash' AND ev.status = 'publish' AND ev.hide_from_listings = ? AND ev.start_utc >= ? AND ev.end_utc <= ?";
  const filterValues: unknown[] = [];
  if (filters.searchPattern !== undefined) {
    where += " AND (LOWER(ev.title) LIKE ? ESCAPE '!' OR LOWER(ev.description) LIKE ? ESCAPE '!' OR LOWER(ev.excerpt) LIKE ? ESCAPE '!')";
    filterValues.push(filters.searchPattern, filters.searchPattern, filters.searchPattern);
  }
  if (filters.categoryIds !== undefined) {
    where += ' AND EXISTS (SELECT 1 FROM event_category_links ecl WHERE ecl.event_id = ev.id AND ecl.category_id IN (?))';
    filterValues.push(filters.categoryIds);
  }
  if (filters.fullTextWords && variant === 'narrowed') {
    where += ' AND MATCH (ev.title, ev.description, ev.excerpt) AGAINST (? IN BOOLEAN MODE)';
    filterValues.push(filters.fullTextWords.map((word) => `+${word}*`).join(' '));
  }
  if (filters.fullTextWords && variant === 'wordStart') {
    for (const word of filters.fullTextWords) {
      where += ' AND (ev.title REGEXP ? OR ev.description REGEXP ? OR ev.excerpt REGEXP ?)';
      filterValues.push(`\\b${word}`, `\\b${word}`, `\\b${word}`);
    }
  }
  return { where, filterValues };
}

export const eventQueries = {
  /** `categories=` ids and slugs to term ids (400 when one names nothing); before the count. */
  categoryLookup(ids: number[], slugs: string[]): { sql: string; values: unknown[] } {
    let sql = 'SELECT term.id, term.slug FROM event_categories term WHERE (1 = 0';
    const values: unknown[] = [];
    if (ids.length) {
      sql += ' OR term.id IN (?)';
      values.push(ids);
    }
    if (slugs.length) {
      sql += ' OR term.slug IN (?)';
      values.push(slugs);
    }
    return { sql: `${sql})`, values };
  },

  /** Cached (scope events). */
  count(filters: EventListFilters, windowStart: Date, windowEnd: Date): { sql: string; values: unknown[] } {
    const { where, filterValues } = eventListWhere(filters, 'narrowed');
    return { sql: `SELECT COUNT(1) AS cnt FROM events ev WHERE ${where}`, values: [false, windowStart, windowEnd, ...filterValues] };
  },

  /** Skipped when the count is 0. */
  page(filters: EventListFilters, windowStart: Date, windowEnd: Date, limit: number, offset: number, total: number): { sql: string; values: unknown[] } {
    const { where, filterValues } = eventListWhere(filters, total <= FULLTEXT_PAGE_MATCHES ? 'narrowed' : 'wordStart');
    return {
      sql: `SELECT ${EVENT_COLUMNS} FROM events ev WHERE ${where} ORDER BY ev.start_utc ASC, ev.published_at ASC, ev.id ASC LIMIT ? OFFSET ?`,
      values: [false, windowStart, windowEnd, ...filterValues, limit, offset],
    };
  },

  /** GET /events/{id}, before its relations. */
  byId: `SELECT ${EVENT_COLUMNS} FROM events ev WHERE ev.id = ?`,
};

/**
 * What every event response shows besides its row, for a page of event ids (the service's
 * EventRelationsLoader): five statements in parallel; terms carry their stored count of published
 * events. None when the page is empty.
 */
export const relationQueries = {
  venues:
    `SELECT ${VENUE_COLUMNS}, link.event_id AS link_event_id, link.venue_id AS link_venue_id FROM venues v ` +
    "INNER JOIN event_venue_links link ON link.venue_id = v.id WHERE link.event_id IN (?) AND v.status <> 'trash' ORDER BY link.position ASC, v.id ASC",
  organizers:
    `SELECT ${ORGANIZER_COLUMNS}, link.event_id AS link_event_id, link.organizer_id AS link_organizer_id FROM organizers v ` +
    "INNER JOIN event_organizer_links link ON link.organizer_id = v.id WHERE link.event_id IN (?) AND v.status <> 'trash' ORDER BY link.position ASC, v.id ASC",
  categories:
    'SELECT term.id, term.name, term.slug, term.description, term.parent_id, term.published_event_count, term.created_at, term.updated_at, link.event_id AS link_event_id, link.category_id AS link_category_id ' +
    'FROM event_categories term INNER JOIN event_category_links link ON link.category_id = term.id WHERE link.event_id IN (?) ORDER BY term.name ASC, term.id ASC',
  tags:
    'SELECT term.id, term.name, term.slug, term.description, term.published_event_count, term.created_at, term.updated_at, link.event_id AS link_event_id, link.tag_id AS link_tag_id ' +
    'FROM event_tags term INNER JOIN event_tag_links link ON link.tag_id = term.id WHERE link.event_id IN (?) ORDER BY term.name ASC, term.id ASC',
  ticketProviders: 'SELECT DISTINCT t.event_id AS eventId, t.provider AS provider FROM tickets t WHERE t.event_id IN (?) ORDER BY t.provider DESC',
  /** Single event with tickets only: its published tickets (JSON-LD offers), then their pool when there are some. */
  ticketOffers: `SELECT ${TICKET_COLUMNS} FROM tickets t WHERE ((t.event_id = ?) AND (t.status = ?)) ORDER BY t.menu_order ASC, t.id ASC`,
};

// ---------------------------------------------------------------- GET /venues

export const venueQueries = {
  page: `SELECT ${VENUE_COLUMNS} FROM venues v WHERE v.status <> 'trash' AND v.status = 'publish' ORDER BY v.published_at DESC, v.id DESC LIMIT ? OFFSET ?`,
  /** ORM: getManyAndCount counts only when the page is full, or empty past the first row. */
  count: "SELECT COUNT(1) AS cnt FROM venues v WHERE v.status <> 'trash' AND v.status = 'publish'",
};

// ---------------------------------------------------------------- GET /tickets (anonymous)

const TICKET_LIST_FROM = 'FROM tickets t INNER JOIN events e ON e.id = t.event_id WHERE t.status = ? AND e.status = ? AND e.status IN (?) AND t.status IN (?)';

export const ticketQueries = {
  /** Values: ['publish', 'publish', ['publish'], ['publish']] (visibility, then the default status filters). Cached (scope tickets). */
  count: `SELECT COUNT(DISTINCT t.id) AS cnt ${TICKET_LIST_FROM}`,
  /** Skipped when the count is 0. */
  page: `SELECT ${TICKET_COLUMNS} ${TICKET_LIST_FROM} ORDER BY t.name ASC, t.id ASC LIMIT ? OFFSET ?`,
  /** The page's events, in first-seen order of the page; then the pools of those events. */
  events: `SELECT ${EVENT_COLUMNS} FROM events ev WHERE ((ev.id IN (?)))`,
  /** Only when some ticket's event is published and shows its attendee list. */
  publicAttendees:
    `SELECT ${ATTENDEE_COLUMNS} FROM attendees a WHERE ((a.ticket_id IN (?) AND a.status = ? AND a.optout = ? AND (a.rsvp_going IS NULL OR a.rsvp_going = ?) ` +
    'AND a.order_status IN (?))) ORDER BY a.id ASC',
};

export const poolQueries = {
  byEvents: `SELECT ${POOL_COLUMNS} FROM ticket_pools p WHERE ((p.event_id IN (?)))`,
};

// ---------------------------------------------------------------- authentication (Basic + application password)

export const authQueries = {
  user: 'SELECT u.id, u.login, u.email, u.display_name, u.role, u.password_hash, u.created_at, u.updated_at FROM users u WHERE ((((u.login = ?))) OR (((u.email = ?)))) LIMIT 1',
  applicationPasswords:
    'SELECT ap.id, ap.user_id, ap.uuid, ap.name, ap.password_hash, ap.last_used_at, ap.created_at, ap.updated_at FROM application_passwords ap WHERE ((ap.user_id = ?)) ORDER BY ap.id ASC',
  /** At most once an hour per password. */
  touch: 'UPDATE application_passwords SET last_used_at = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?',
};

// ---------------------------------------------------------------- GET /attendees

/**
 * Visibility: `managed` is `1 = 1` (editors, administrators), `ev.author_id = ?` (authors) or
 * `1 = 0`; OR the public condition. Values: [author id?, 'publish', true, false, 'publish', 'rsvp', true, ['completed', 'yes']].
 */
function attendeeListFrom(managed: string): string {
  return (
    `FROM attendees a INNER JOIN events ev ON ev.id = a.event_id WHERE (${managed} OR (ev.status = ? AND ev.show_attendee_list = ? AND a.optout = ? ` +
    'AND a.status = ? AND (a.provider <> ? OR a.rsvp_going = ?) AND a.order_status IN (?)))'
  );
}

export const attendeeQueries = {
  /** Cached (scope attendees). */
  count: (managed: string) => `SELECT COUNT(DISTINCT a.id) AS cnt ${attendeeListFrom(managed)}`,
  /** Skipped when the count is 0. */
  page: (managed: string) => `SELECT ${ATTENDEE_COLUMNS} ${attendeeListFrom(managed)} ORDER BY a.id ASC LIMIT ? OFFSET ?`,
  /** The page's tickets and events, in parallel. */
  tickets: `SELECT ${TICKET_COLUMNS} FROM tickets t WHERE ((t.id IN (?)))`,
  eventFacts: 'SELECT ev.id, ev.author_id, ev.status, ev.show_attendee_list, ev.timezone FROM events ev WHERE ((ev.id IN (?)))',
};

// ---------------------------------------------------------------- POST /cart (one transaction)

export const cartQueries = {
  /** The lines' tickets (unique ids). */
  tickets: `SELECT ${TICKET_COLUMNS} FROM tickets t WHERE ((t.id IN (?)))`,
  byToken: `SELECT ${CART_COLUMNS} FROM carts c WHERE ((c.token = ?)) LIMIT 1`,
  /** First write of a buyer: the cart, then ORM: its generated columns read back, then the cart found again. */
  insert: 'INSERT IGNORE INTO carts(id, user_id, token, meta, created_at, updated_at) VALUES (DEFAULT, ?, ?, ?, ?, ?)',
  insertedCart: 'SELECT c.id, c.created_at, c.updated_at FROM carts c WHERE c.id = ?',
  /** A cart idle for 24 hours starts over. */
  emptyIdle: 'DELETE FROM cart_items WHERE cart_id = ?',
  restartIdle: 'UPDATE carts SET meta = ?, created_at = ?, updated_at = ? WHERE id = ?',
  items: `SELECT ${CART_ITEM_COLUMNS} FROM cart_items i WHERE ((i.cart_id = ?))`,
  /** Availability of the wanted lines: their events' statuses, then their pools (poolQueries.byEvents). */
  eventStatuses: 'SELECT ev.id, ev.status FROM events ev WHERE ((ev.id IN (?)))',
  removeLine: 'DELETE FROM cart_items WHERE cart_id = ? AND ticket_id = ?',
  /** One per line with a quantity, then ORM: the row's defaults read back. */
  upsertLine:
    'INSERT INTO cart_items(cart_id, ticket_id, provider, quantity, optout, meta) VALUES (?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE quantity = VALUES(quantity), provider = VALUES(provider)',
  upsertLineWithOptout:
    'INSERT INTO cart_items(cart_id, ticket_id, provider, quantity, optout, meta) VALUES (?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE quantity = VALUES(quantity), provider = VALUES(provider), optout = VALUES(optout)',
  upsertedLine: 'SELECT i.cart_id, i.ticket_id, i.optout FROM cart_items i WHERE (i.cart_id = ? AND i.ticket_id = ?)',
  touch: 'UPDATE carts SET updated_at = ? WHERE id = ?',
  /** The cart as the response shows it: the request provider's lines. */
  lines:
    'SELECT i.ticket_id AS ticketId, i.provider AS provider, i.quantity AS quantity, i.optout AS optout, i.meta AS meta, ticket.event_id AS eventId, ticket.iac AS iac ' +
    'FROM cart_items i INNER JOIN tickets ticket ON ticket.id = i.ticket_id WHERE i.cart_id = ? AND i.quantity > 0 AND i.provider IN (?) ORDER BY i.ticket_id ASC',
};

// ---------------------------------------------------------------- POST /cart/checkout (one transaction)

/** `rows` copies of a VALUES tuple; the values of all rows follow one another. */
function tuples(tuple: string, rows: number): string {
  return new Array<string>(rows).fill(tuple).join(', ');
}

export const checkoutQueries = {
  /** The events of the cart's tickets: whether they sell, and their zones for the answer. */
  eventFacts: 'SELECT ev.id, ev.status, ev.timezone FROM events ev WHERE ((ev.id IN (?)))',
  /** cartQueries.byToken first. */
  lockLines: `SELECT ${CART_ITEM_COLUMNS} FROM cart_items i WHERE i.cart_id = ? AND i.provider = ? ORDER BY i.ticket_id ASC FOR UPDATE`,
  /** Then cartQueries.tickets, cartQueries.eventStatuses and poolQueries.byEvents. */
  removeLines: 'DELETE FROM cart_items WHERE cart_id = ? AND provider = ?',
  /** Capacity, per line: the ticket's conditional UPDATE, then the pool's for capped and global tickets. */
  takeTicket(count: 'sold' | 'pending', mode: string): string {
    const condition = mode === 'own' ? ' AND capacity - sold - pending >= ?' : mode === 'capped' ? ' AND (capacity IS NULL OR capacity - sold - pending >= ?)' : '';
    // ORM: updated_at = CURRENT_TIMESTAMP.
    return `UPDATE tickets SET ${count} = ${count} + ?, updated_at = CURRENT_TIMESTAMP WHERE id = ? AND capacity_mode = ?${condition}`;
  },
  takePool: (count: 'sold' | 'pending') =>
    `UPDATE ticket_pools SET ${count} = ${count} + ?, updated_at = CURRENT_TIMESTAMP WHERE event_id = ? AND capacity - sold - pending >= ?`,
  insertOrder:
    'INSERT INTO orders(id, provider, status, user_id, cart_token, purchaser_name, purchaser_email, total, currency, expires_at, completed_at, created_at, updated_at) ' +
    'VALUES (DEFAULT, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  /** ORM: generated columns read back. */
  insertedOrder: 'SELECT o.id, o.total, o.created_at, o.updated_at FROM orders o WHERE o.id = ?',
  insertOrderItems: (rows: number) => `INSERT INTO order_items(order_id, ticket_id, quantity, unit_price) VALUES ${tuples('(?, ?, ?, ?)', rows)}`,
  /** At most 200 rows per statement. */
  insertAttendees: (rows: number) =>
    'INSERT INTO attendees(id, order_id, ticket_id, event_id, user_id, provider, status, order_status, rsvp_going, holder_name, holder_email, security_code, ' +
    `price_paid, optout, meta, checked_in, checked_in_at, checkin_source, checkin_user_id, created_at, updated_at) VALUES ${tuples(
      '(DEFAULT, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, DEFAULT, DEFAULT, DEFAULT, ?, ?)',
      rows,
    )}`,
  /** The order as answered: its row and its attendees (tickets and zones were read before the capacity was taken). */
  order: `SELECT ${ORDER_COLUMNS} FROM orders o WHERE ((o.id = ?)) LIMIT 1`,
  orderAttendees: `SELECT ${ATTENDEE_COLUMNS} FROM attendees a WHERE ((a.order_id = ?)) ORDER BY a.id ASC`,
  /** COMMIT, then countQueries.renew. */
};
