import { IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModuleRef } from '@nestjs/core';
import type { DataSource, Logger as OrmLogger } from 'typeorm';
import { BaselineServer, startBaseline } from '../bench/baseline/server';
import { Attendee } from '../src/attendees/attendee.entity';
import { Category } from '../src/categories/category.entity';
import { DemoSeeder } from '../src/demo/demo-seeder';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from '../src/events/event-links.entity';
import { Event } from '../src/events/event.entity';
import { Organizer } from '../src/organizers/organizer.entity';
import { Tag } from '../src/tags/tag.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { Venue } from '../src/venues/venue.entity';
import { CART_PATH, CHECKOUT_PATH, PURCHASER } from './helpers/buyers';
import { postOnOwnConnection } from './helpers/raw-http';
import { basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent, insertPool, insertTicket, reloadPool, reloadTicket } from './helpers/ticketing-fixtures';

/**
 * The benchmark's baseline (bench/baseline) against the service on one MariaDB database: for every
 * measured route both are asked the same thing, with the same Host header so that absolute URLs
 * agree without any rewriting, and must answer the same status, bytes, headers and SQL statements
 * (verb and table of each, counted; TypeORM's query log on one side, the baseline's hook on the other).
 */

const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
const onMariaDb = /^(mysql|mariadb):\/\//.test(databaseUrl);
const describeOnMariaDb = onMariaDb ? describe : describe.skip;

const HOST = 'cal.test';
const EVENTS = '/cal/events/v1/events';
const COMPARED_HEADERS = ['content-type', 'x-tec-total', 'x-tec-totalpages', 'x-et-total', 'x-et-total-pages'];
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{24}$/;

jest.setTimeout(60_000);

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

function call(port: number, method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { Host: HOST, ...(payload === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) }), ...headers },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON: the assertions show the text.
          }
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, body: parsed });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** `SELECT events`, `UPDATE ticket_pools`, `START`...: what a statement does to which table, whatever its aliases and quoting. */
function statementKind(sql: string): string {
  const text = sql.replace(/`/g, '').trim();
  const verb = /^(SELECT|INSERT|UPDATE|DELETE|START|COMMIT|ROLLBACK)\b/i.exec(text)?.[1].toUpperCase() ?? text.slice(0, 30);
  if (verb === 'SELECT') {
    const counted = /^SELECT\s+(DISTINCT\s+)?COUNT\(/i.test(text) ? ' COUNT' : '';
    const locked = /FOR UPDATE$/i.test(text) ? ' FOR UPDATE' : '';
    return `SELECT ${/\bFROM\s+(\w+)/i.exec(text)?.[1] ?? '?'}${counted}${locked}`;
  }
  if (verb === 'INSERT') return `INSERT ${/\bINTO\s+(\w+)/i.exec(text)?.[1] ?? '?'}`;
  if (verb === 'UPDATE') return `UPDATE ${/^UPDATE\s+(\w+)/i.exec(text)?.[1] ?? '?'}`;
  if (verb === 'DELETE') return `DELETE ${/\bFROM\s+(\w+)/i.exec(text)?.[1] ?? '?'}`;
  return verb;
}

/** Statements of a request, order aside: the relations of an event page are read in parallel. */
const kinds = (statements: string[]) => statements.map(statementKind).sort();

/** Replaces the data source's logger, so that every statement the service sends is seen here. */
function recordStatements(dataSource: DataSource, into: string[]): void {
  const recorder: OrmLogger = {
    logQuery: (query) => void into.push(query),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
  (dataSource as unknown as { logger: OrmLogger }).logger = recorder;
}

/** An order with what necessarily differs between two checkouts (ids, security codes, times) blanked. */
function comparableOrder(order: any): any {
  const copy = JSON.parse(JSON.stringify(order));
  copy.id = 0;
  copy.created = copy.created ? 'created' : copy.created;
  if (copy.expires) copy.expires = 'expires';
  copy.attendees.forEach((attendee: any, index: number) => {
    expect(attendee.security_code).toMatch(/^[0-9a-f]{32}$/);
    Object.assign(attendee, { id: index, global_id: '', global_id_lineage: [], rest_url: '', order: 0, security_code: '', date: '', date_utc: '', modified: '', modified_utc: '' });
    if (attendee.payment) Object.assign(attendee.payment, { date: '', date_details: {} });
  });
  return copy;
}

describeOnMariaDb(onMariaDb ? 'Bench baseline against the service (e2e, MariaDB)' : 'Bench baseline against the service: skipped, the baseline speaks MySQL/MariaDB only (set TEST_DATABASE_URL=mysql://...)', () => {
  let testApp: TestApp;
  let baseline: BaselineServer;
  let servicePort: number;
  let baselinePort: number;
  const serviceStatements: string[] = [];
  const baselineStatements: string[] = [];
  let admin: TestUser;
  const ids = { category: 0, ticketedEvent: 0, plainEvent: 0, oddEvent: 0, draftEvent: 0, rsvpTickets: [0, 0], tcTickets: [0, 0] };

  async function ask(server: 'service' | 'baseline', method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: unknown) {
    const statements = server === 'service' ? serviceStatements : baselineStatements;
    statements.length = 0;
    const reply = await call(server === 'service' ? servicePort : baselinePort, method, path, headers, body);
    return { ...reply, statements: [...statements] };
  }

  /** Same status, bytes (keys in the same order), compared headers and statements. */
  async function expectSameAnswer(method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: unknown) {
    const service = await ask('service', method, path, headers, body);
    const copy = await ask('baseline', method, path, headers, body);
    expect({ status: copy.status, body: copy.body }).toEqual({ status: service.status, body: service.body });
    expect(copy.text).toBe(service.text);
    for (const header of COMPARED_HEADERS) expect([header, copy.headers[header]]).toEqual([header, service.headers[header]]);
    expect(kinds(copy.statements)).toEqual(kinds(service.statements));
    return { service, baseline: copy };
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    servicePort = (testApp.app.getHttpServer().address() as AddressInfo).port;
    await new DemoSeeder(testApp.app.get(ModuleRef)).seed();
    admin = await createUser(testApp, 'administrator');
    await addVariety(testApp.dataSource);
    recordStatements(testApp.dataSource, serviceStatements);
    baseline = await startBaseline({
      databaseUrl,
      port: 0,
      poolSize: 10,
      nonceSecret: process.env.NONCE_SECRET as string,
      onQuery: (sql) => void baselineStatements.push(sql),
    });
    baselinePort = Number(new URL(baseline.url).port);
    // Steady state: the first use of an application password records it (an UPDATE, once an hour),
    // and each server then holds the count of the list in its own cache.
    for (const port of [servicePort, baselinePort]) expect((await call(port, 'GET', '/cal/tickets/v1/attendees', { Authorization: admin.authorization })).status).toBe(200);
  });

  afterAll(async () => {
    await baseline?.close();
    await testApp?.close();
  });

  /**
   * Beyond the demo calendar: 30 more events in one category (so that its list has pages), an event
   * with every oddity the mappers handle (HTML and entities, an image, a price range, an offset zone,
   * all day, two venues and one trashed, two organizers, a child category), a draft, a hidden
   * event, 25 more venues (so that their first page is full and counted), public attendee lists.
   */
  async function addVariety(dataSource: DataSource): Promise<void> {
    const [category] = await dataSource.getRepository(Category).find({ where: { name: 'Concerts' } });
    const [child] = await dataSource.getRepository(Category).find({ where: { name: 'Jazz' } });
    const tags = await dataSource.getRepository(Tag).find({ order: { id: 'ASC' } });
    ids.category = category.id;
    const zones = ['Europe/Paris', 'America/New_York', 'UTC', 'UTC-3', 'Asia/Kolkata', 'Australia/Sydney'];
    const day = 86_400_000;
    const local = (instant: Date) => instant.toISOString().slice(0, 19).replace('T', ' ');
    const base = {
      authorId: admin.id,
      description: 'Plain text.\n\nSecond paragraph\nwith a break.',
      excerpt: null,
      image: null,
      publishedAt: new Date('2026-01-02T03:04:05Z'),
      allDay: false,
      cost: '10',
      website: null,
      showMap: true,
      showMapLink: true,
      hideFromListings: false,
      sticky: false,
      featured: false,
      postParentId: null,
      showAttendeeList: false,
    };
    const fillers = Array.from({ length: 30 }, (_unit, index) => {
      const start = new Date(Date.now() + (3 + index * 5) * day);
      const end = new Date(start.getTime() + 7_200_000);
      return {
        ...base,
        status: 'publish' as const,
        title: `Filler concert ${index + 1} "${index % 2 ? 'jazz' : 'rock'}"`,
        slug: `filler-concert-${index + 1}`,
        timezone: zones[index % zones.length],
        startUtc: start,
        endUtc: end,
        startLocal: local(start),
        endLocal: local(end),
        featured: index % 3 === 0,
        cost: index % 4 === 0 ? 'Free' : index % 4 === 1 ? '€5 - 15' : index % 4 === 2 ? '20$' : null,
      };
    });
    const events = dataSource.getRepository(Event);
    const saved = await events.save(fillers);
    await dataSource.getRepository(EventCategoryLink).insert(saved.map((event) => ({ eventId: event.id, categoryId: category.id })));
    await dataSource.getRepository(EventTagLink).insert(saved.map((event, index) => ({ eventId: event.id, tagId: tags[index % tags.length].id })));

    const venues = dataSource.getRepository(Venue);
    const venueBase = { authorId: null, excerpt: null, image: null, publishedAt: new Date('2026-02-03T04:05:06Z'), address: null, city: null, country: null, province: null };
    const venueDefaults = { state: null, stateprovince: null, zip: null, phone: null, website: null, showMap: true, showMapLink: false, geoLat: null, geoLng: null };
    const [hall, trashed] = await venues.save([
      {
        ...venueBase,
        ...venueDefaults,
        status: 'publish' as const,
        title: 'Hall & Annex',
        slug: 'hall-and-annex',
        description: 'Two rooms & a <b>stage</b>, "quoted"',
        image: 'https://img.example.org/hall.PNG?size=2',
        province: 'ON',
        stateprovince: 'ON',
        geoLat: 43.65,
        geoLng: -79.38,
      },
      { ...venueBase, ...venueDefaults, status: 'trash' as const, title: 'Gone Venue', slug: 'gone-venue', description: null },
    ]);
    await venues.save(
      Array.from({ length: 25 }, (_unit, index) => ({
        ...venueBase,
        ...venueDefaults,
        status: 'publish' as const,
        title: `Filler venue ${index + 1}`,
        slug: `filler-venue-${index + 1}`,
        description: index % 2 ? null : `<p>Room ${index + 1}</p>`,
        city: index % 3 ? 'Lyon' : null,
        publishedAt: new Date(Date.UTC(2026, 0, 1 + index)),
      })),
    );
    const organizers = dataSource.getRepository(Organizer);
    const [first, second] = await organizers.save([
      { authorId: admin.id, status: 'publish' as const, title: 'Org One', slug: 'org-one', description: 'Runs things', excerpt: null, image: null, publishedAt: new Date('2026-01-01T00:00:00Z'), phone: null, website: null, email: 'one@example.org' },
      { authorId: null, status: 'publish' as const, title: 'Org Two', slug: 'org-two', description: null, excerpt: '<p>Short &amp; sweet</p>', image: null, publishedAt: new Date('2026-01-01T00:00:00Z'), phone: '+1 555', website: 'https://two.example.org', email: null },
    ]);

    const oddStart = new Date(Date.now() + 10 * day);
    const [odd, draft, hidden] = await events.save([
      {
        ...base,
        status: 'publish' as const,
        title: 'Odd & "quoted" <event>',
        slug: 'odd-event',
        description: '<p>Intro &amp; more</p>\n<script>nothing</script>',
        excerpt: 'Line one\nline two',
        image: 'https://img.example.org/odd.JPG',
        timezone: 'UTC+5:30',
        allDay: true,
        startUtc: oddStart,
        endUtc: new Date(oddStart.getTime() + 2 * day),
        startLocal: `${local(oddStart).slice(0, 10)} 00:00:00`,
        endLocal: `${local(new Date(oddStart.getTime() + 2 * day)).slice(0, 10)} 23:59:59`,
        cost: '5 - 20$',
        website: 'https://odd.example.org',
        sticky: true,
      },
      { ...base, status: 'draft' as const, title: 'Draft', slug: 'draft-event', timezone: 'UTC', startUtc: oddStart, endUtc: oddStart, startLocal: local(oddStart), endLocal: local(oddStart) },
      { ...base, status: 'publish' as const, title: 'Hidden', slug: 'hidden-event', timezone: 'UTC', startUtc: oddStart, endUtc: oddStart, startLocal: local(oddStart), endLocal: local(oddStart), hideFromListings: true },
    ]);
    ids.oddEvent = odd.id;
    ids.draftEvent = draft.id;
    await dataSource.getRepository(EventVenueLink).insert([
      { eventId: odd.id, venueId: hall.id, position: 0 },
      { eventId: odd.id, venueId: trashed.id, position: 1 },
      { eventId: odd.id, venueId: (await venues.findOneByOrFail({ slug: 'filler-venue-1' })).id, position: 2 },
      { eventId: hidden.id, venueId: hall.id, position: 0 },
    ]);
    await dataSource.getRepository(EventOrganizerLink).insert([
      { eventId: odd.id, organizerId: second.id, position: 0 },
      { eventId: odd.id, organizerId: first.id, position: 1 },
    ]);
    await dataSource.getRepository(EventCategoryLink).insert({ eventId: odd.id, categoryId: child.id });
    await insertPool(dataSource, odd.id, 40);
    await insertTicket(dataSource, { eventId: odd.id, provider: 'tc', name: 'Odd pass', price: '1025.50', capacityMode: 'global', capacity: null, saleEndUtc: oddStart });

    // Public attendee lists on every event, one buyer opted out.
    await dataSource.createQueryBuilder().update(Event).set({ showAttendeeList: true }).execute();
    const [someone] = await dataSource.getRepository(Attendee).find({ order: { id: 'ASC' }, take: 1 });
    await dataSource.getRepository(Attendee).update({ id: someone.id }, { optout: true });

    const tickets = await dataSource.getRepository(Ticket).find({ order: { id: 'ASC' } });
    const withTickets = new Set(tickets.map((ticket) => ticket.eventId));
    const [plain] = await events.createQueryBuilder('event').where('event.status = :status', { status: 'publish' }).orderBy('event.id', 'ASC').getMany().then((all) => all.filter((event) => !withTickets.has(event.id)));
    ids.plainEvent = plain.id;
    ids.ticketedEvent = tickets.find((ticket) => ticket.capacityMode === 'global')!.eventId;
  }

  describe('reads', () => {
    it.each<[string, () => string]>([
      ['the default list', () => EVENTS],
      ['a category, page 1', () => `${EVENTS}?categories=${ids.category}&page=1`],
      ['a category, page 2', () => `${EVENTS}?categories=${ids.category}&page=2`],
      ['a category, past the last page (404)', () => `${EVENTS}?categories=${ids.category}&page=20`],
      ['a search', () => `${EVENTS}?search=jazz`],
      ['a search with LIKE wildcards and no match', () => `${EVENTS}?search=${encodeURIComponent('50%_off!')}`],
      ['a published event with tickets', () => `${EVENTS}/${ids.ticketedEvent}`],
      ['a published event without tickets', () => `${EVENTS}/${ids.plainEvent}`],
      ['an event with every oddity', () => `${EVENTS}/${ids.oddEvent}`],
      ['an unknown event (404)', () => `${EVENTS}/999999`],
      ['a draft event (403)', () => `${EVENTS}/${ids.draftEvent}`],
      ['the venues, a full first page', () => '/cal/events/v1/venues'],
      ['the venues, page 2', () => '/cal/events/v1/venues?page=2'],
      ['the tickets with public attendees', () => '/cal/tickets/v1/tickets'],
      ['anonymous attendees', () => '/cal/tickets/v1/attendees'],
      ['an unknown route (404)', () => '/cal/events/v1/nowhere'],
    ])('answers %s like the service', async (_name, path) => {
      await expectSameAnswer('GET', path());
    });

    it('answers the attendees to an administrator like the service, and wrong credentials with the same 401', async () => {
      const { service } = await expectSameAnswer('GET', '/cal/tickets/v1/attendees', { Authorization: admin.authorization });
      expect(service.status).toBe(200);
      expect(service.body.attendees.length).toBeGreaterThan(0);
      expect(service.body.attendees[0].security_code).toBeDefined();
      const refused = await expectSameAnswer('GET', '/cal/tickets/v1/attendees', { Authorization: basicAuth(admin.login, 'not the password') });
      expect(refused.service.status).toBe(401);
    });

    it('lists more than one page of the category and of the whole list', async () => {
      const { service } = await expectSameAnswer('GET', `${EVENTS}?categories=${ids.category}&page=2`);
      expect(service.body.previous_rest_url).toBeDefined();
      expect(Number(service.headers['x-tec-totalpages'])).toBeGreaterThan(1);
    });
  });

  describe('cart and checkout', () => {
    let rsvpTicket: Ticket;
    let otherRsvpTicket: Ticket;

    beforeAll(async () => {
      const tickets = await testApp.dataSource.getRepository(Ticket).find({ where: { provider: 'rsvp' }, order: { id: 'ASC' } });
      const onSale = tickets.filter((ticket) => ticket.capacityMode === 'own' || ticket.capacityMode === 'unlimited');
      [rsvpTicket, otherRsvpTicket] = onSale;
    });

    async function sameWrite(tokens: { service?: string; baseline?: string }, body: unknown) {
      const service = await ask('service', 'POST', CART_PATH, tokens.service ? { 'X-Cart-Token': tokens.service } : {}, body);
      const copy = await ask('baseline', 'POST', CART_PATH, tokens.baseline ? { 'X-Cart-Token': tokens.baseline } : {}, body);
      expect({ status: copy.status, body: copy.body }).toEqual({ status: service.status, body: service.body });
      expect(copy.text).toBe(service.text);
      expect(copy.headers['content-type']).toBe(service.headers['content-type']);
      expect(kinds(copy.statements)).toEqual(kinds(service.statements));
      return { service, baseline: copy };
    }

    it('issues a token on the first write and takes it back on the next ones, as the service does', async () => {
      const first = await sameWrite({}, { provider: 'rsvp', tickets: [{ ticket_id: rsvpTicket.id, quantity: 2 }] });
      expect(first.service.status).toBe(200);
      const serviceToken = first.service.headers['x-cart-token'] as string;
      const baselineToken = first.baseline.headers['x-cart-token'] as string;
      for (const [token, reply] of [
        [serviceToken, first.service],
        [baselineToken, first.baseline],
      ] as const) {
        expect(token).toMatch(TOKEN_PATTERN);
        expect(reply.headers['set-cookie']).toEqual([`cal_cart=${token}; Path=/; HttpOnly; SameSite=Lax`]);
      }

      const next = await sameWrite({ service: serviceToken, baseline: baselineToken }, { provider: 'rsvp', tickets: [{ ticket_id: otherRsvpTicket.id, quantity: 1 }] });
      expect(next.service.body.tickets).toHaveLength(2);
      expect(next.service.headers['x-cart-token']).toBe(serviceToken);
      expect(next.baseline.headers['x-cart-token']).toBe(baselineToken);

      // Tokens are signed with the same NONCE_SECRET: each server reads the other's carts.
      const crossed = await ask('baseline', 'POST', CART_PATH, { 'X-Cart-Token': serviceToken }, { provider: 'rsvp', tickets: [] });
      expect(crossed.body).toEqual(next.service.body);
      expect(crossed.headers['x-cart-token']).toBe(serviceToken);
    });

    it('checks out an RSVP cart and a paid cart on a shared pool as the service does', async () => {
      const pooled = await testApp.dataSource.getRepository(Ticket).find({ where: { eventId: ids.ticketedEvent, provider: 'tc' }, order: { id: 'ASC' } });
      for (const [provider, lines] of [
        ['rsvp', [{ ticket_id: rsvpTicket.id, quantity: 2 }, { ticket_id: otherRsvpTicket.id, quantity: 1 }]],
        ['tc', pooled.map((ticket, index) => ({ ticket_id: ticket.id, quantity: index + 1 }))],
      ] as const) {
        const opened = await sameWrite({}, { provider, tickets: lines });
        const service = await ask('service', 'POST', CHECKOUT_PATH, { 'X-Cart-Token': opened.service.headers['x-cart-token'] as string }, { provider, purchaser: PURCHASER });
        const copy = await ask('baseline', 'POST', CHECKOUT_PATH, { 'X-Cart-Token': opened.baseline.headers['x-cart-token'] as string }, { provider, purchaser: PURCHASER });
        expect([copy.status, service.status]).toEqual([201, 201]);
        expect(copy.body.status).toBe(provider === 'rsvp' ? 'completed' : 'pending');
        expect(comparableOrder(copy.body)).toEqual(comparableOrder(service.body));
        expect(JSON.stringify(comparableOrder(copy.body))).toBe(JSON.stringify(comparableOrder(service.body)));
        expect(copy.headers.location).toBe(`http://${HOST}/cal/tickets/v1/orders/${copy.body.id}`);
        expect(service.headers.location).toBe(`http://${HOST}/cal/tickets/v1/orders/${service.body.id}`);
        expect(copy.headers['content-type']).toBe(service.headers['content-type']);
        expect(kinds(copy.statements)).toEqual(kinds(service.statements));

        // The cart lines are gone: a second checkout is the same 400 on both.
        const again = await ask('baseline', 'POST', CHECKOUT_PATH, { 'X-Cart-Token': opened.baseline.headers['x-cart-token'] as string }, { provider, purchaser: PURCHASER });
        expect([again.status, again.body.code]).toEqual([400, 'cart-empty']);
      }
    });

    it('answers a sold-out checkout and a sold-out cart write with the service’s 409', async () => {
      const event = await insertEvent(testApp.dataSource);
      const last = await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'tc', capacityMode: 'own', capacity: 1, price: '12.00' });
      const body = { provider: 'tc', tickets: [{ ticket_id: last.id, quantity: 1 }] };
      const opened = await sameWrite({}, body);
      const rival = await call(servicePort, 'POST', CART_PATH, {}, body);
      const rivalOrder = await call(servicePort, 'POST', CHECKOUT_PATH, { 'X-Cart-Token': rival.headers['x-cart-token'] as string }, { provider: 'tc', purchaser: PURCHASER });
      expect(rivalOrder.status).toBe(201);

      const service = await ask('service', 'POST', CHECKOUT_PATH, { 'X-Cart-Token': opened.service.headers['x-cart-token'] as string }, { provider: 'tc', purchaser: PURCHASER });
      const copy = await ask('baseline', 'POST', CHECKOUT_PATH, { 'X-Cart-Token': opened.baseline.headers['x-cart-token'] as string }, { provider: 'tc', purchaser: PURCHASER });
      expect(service.body).toEqual({
        code: 'ticket-capacity-not-available',
        message: `Ticket ${last.id} cannot be bought in that quantity: not enough units are left.`,
        data: { status: 409, ticket_id: last.id, reason: 'not-enough-left' },
      });
      expect({ status: copy.status, text: copy.text }).toEqual({ status: service.status, text: service.text });
      expect(kinds(copy.statements)).toEqual(kinds(service.statements));

      const refusedWrite = await sameWrite({}, body);
      expect(refusedWrite.service.status).toBe(409);
      expect((await reloadTicket(testApp.dataSource, last.id)).pending).toBe(1);
    });

    it('never oversells: 30 concurrent checkouts of a ticket of capacity 10, then of two tickets sharing a pool of 10', async () => {
      for (const shared of [false, true]) {
        const event = await insertEvent(testApp.dataSource);
        const tickets = shared
          ? [
              await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', price: '0.00', capacityMode: 'global', capacity: null }),
              await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', price: '0.00', capacityMode: 'capped', capacity: 8 }),
            ]
          : [await insertTicket(testApp.dataSource, { eventId: event.id, provider: 'rsvp', price: '0.00', capacityMode: 'own', capacity: 10 })];
        if (shared) await insertPool(testApp.dataSource, event.id, 10);

        const writes = await Promise.all(
          Array.from({ length: 30 }, (_unit, index) =>
            postOnOwnConnection(baselinePort, CART_PATH, { provider: 'rsvp', tickets: [{ ticket_id: tickets[index % tickets.length].id, quantity: 1 }] }),
          ),
        );
        expect(writes.map((write) => write.status)).toEqual(new Array(30).fill(200));
        const checkouts = await Promise.all(
          writes.map((write) =>
            postOnOwnConnection(baselinePort, CHECKOUT_PATH, { provider: 'rsvp', purchaser: PURCHASER }, { 'X-Cart-Token': write.headers['x-cart-token'] as string }),
          ),
        );
        const created = checkouts.filter((checkout) => checkout.status === 201);
        const refused = checkouts.filter((checkout) => checkout.status === 409);
        expect([created.length, refused.length]).toEqual([10, 20]);
        for (const response of refused) expect(response.body.code).toBe('ticket-capacity-not-available');

        const sold = await Promise.all(tickets.map((ticket) => reloadTicket(testApp.dataSource, ticket.id)));
        expect(sold.reduce((sum, ticket) => sum + ticket.sold, 0)).toBe(10);
        if (shared) expect((await reloadPool(testApp.dataSource, event.id)).sold).toBe(10);
        const attendees = await testApp.dataSource.getRepository(Attendee).countBy(tickets.map((ticket) => ({ ticketId: ticket.id })));
        expect(attendees).toBe(10);
      }
    });
  });
});
