import { IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModuleRef } from '@nestjs/core';
import { buildScenarioContext, floorPlan } from '../bench/context';
import { BenchDatabase } from '../bench/database';
import type { FloorPlan } from '../bench/floor/plan';
import { ScenarioContext, scenarioPaths, SCENARIOS } from '../bench/scenarios';
import { FloorServer, startFloor } from '../bench/floor/server';
import { SaleFloorServer, startSaleFloor } from '../bench/floor/sale';
import { Category } from '../src/categories/category.entity';
import { DemoSeeder } from '../src/demo/demo-seeder';
import { Organizer } from '../src/organizers/organizer.entity';
import { Tag } from '../src/tags/tag.entity';
import { Venue } from '../src/venues/venue.entity';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

/**
 * The benchmark's floor (bench/floor) against the service on one small calendar: every route the
 * benchmark measures, asked of both with the same Host header, must answer the same status, the
 * same bytes and the same totals. The floor reads its documents from the service and builds its
 * own ordered tables, so this is what keeps its ids, order, counts and envelopes from drifting.
 */

const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
const onMariaDb = /^(mysql|mariadb):\/\//.test(databaseUrl);
const describeOnMariaDb = onMariaDb ? describe : describe.skip;

const HOST = 'cal.test';
const EVENTS = '/cal/events/v1/events';
const COMPARED_HEADERS = ['content-type', 'x-tec-total', 'x-tec-totalpages', 'x-et-total', 'x-et-total-pages'];

jest.setTimeout(120_000);

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

function get(url: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers: { Host: HOST, ...headers } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** 'same', or where two bodies part, with some context: whole bodies are too long to read in a failure. */
function firstDifference(actual: string, expected: string): string {
  if (actual === expected) return 'same';
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at += 1;
  return `differs at ${at} of ${expected.length}: …${expected.slice(Math.max(0, at - 150), at)}【expected ${expected.slice(at, at + 150)}】【got ${actual.slice(at, at + 150)}】`;
}

describeOnMariaDb(
  onMariaDb
    ? 'Bench floor against the service (e2e, MariaDB)'
    : 'Bench floor against the service: skipped, the floor speaks MySQL/MariaDB only (set TEST_DATABASE_URL=mysql://...)',
  () => {
    let testApp: TestApp;
    let floor: FloorServer;
    let serviceUrl: string;
    let admin: TestUser;
    const terms = { categories: [] as number[], tags: [] as number[], venues: [] as number[], organizers: [] as number[] };
    let listedIds: number[] = [];

    let context: ScenarioContext;

    /** The floor and the framework floor (bench/floor/framework.ts) both answer as the service does. */
    async function expectSameAnswer(path: string, headers: Record<string, string> = {}): Promise<Reply> {
      const service = await get(serviceUrl, path, headers);
      for (const [name, url] of [
        ['floor', floor.url],
        ['framework', floor.frameworkUrl!],
      ]) {
        const copy = await get(url, path, headers);
        expect({ name, path, status: copy.status, text: firstDifference(copy.text, service.text) }).toEqual({
          name,
          path,
          status: service.status,
          text: 'same',
        });
        for (const header of COMPARED_HEADERS)
          expect([name, path, header, copy.headers[header]]).toEqual([name, path, header, service.headers[header]]);
      }
      return service;
    }

    /** Events through the service's API, as a client makes them: ties on start time, several zones, every link kind, a draft and a hidden one. */
    async function addEvents(): Promise<void> {
      const zones = ['Europe/Paris', 'America/New_York', 'UTC', 'Asia/Kolkata'];
      const day = 86_400_000;
      for (let index = 0; index < 36; index += 1) {
        // Groups of three at the same instant (same day, hour and zone): their order falls to publication date, then id.
        const start = new Date(Date.now() + (2 + Math.floor(index / 3)) * day);
        const date = start.toISOString().slice(0, 10);
        const body = {
          title: `Floor check ${index} & "friends" <b>`,
          description: `<p>Event ${index}</p>`,
          start_date: `${date} 19:00`,
          end_date: `${date} 22:00`,
          timezone: zones[Math.floor(index / 3) % zones.length],
          status: index === 7 ? 'draft' : 'publish',
          hide_from_listings: index === 11,
          categories: index % 4 === 3 ? [] : [terms.categories[index % 2], ...(index % 5 === 0 ? [terms.categories[2]] : [])],
          tags: [terms.tags[index % terms.tags.length]],
          venue: terms.venues[index % 2],
          organizer: index % 3 === 0 ? [terms.organizers[0], terms.organizers[1]] : [terms.organizers[index % 2]],
          cost: index % 2 ? '10' : '5 - 20',
        };
        const response = await fetch(`${serviceUrl}${EVENTS}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: admin.authorization },
          body: JSON.stringify(body),
        });
        const answer = await response.text();
        // The body only when the create failed, to show why.
        expect([response.status, response.status === 201 ? '' : answer]).toEqual([201, '']);
      }
    }

    beforeAll(async () => {
      testApp = await createTestApp();
      await testApp.app.listen(0, '127.0.0.1');
      serviceUrl = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
      await new DemoSeeder(testApp.app.get(ModuleRef)).seed();
      admin = await createUser(testApp, 'administrator');
      const ids = async (entity: typeof Category | typeof Tag | typeof Venue | typeof Organizer) =>
        (await testApp.dataSource.getRepository(entity).find({ order: { id: 'ASC' } })).map((row) => row.id);
      terms.categories = await ids(Category);
      terms.tags = await ids(Tag);
      terms.venues = await ids(Venue);
      terms.organizers = await ids(Organizer);
      await addEvents();

      const firstPage = JSON.parse((await get(serviceUrl, `${EVENTS}?per_page=100`)).text) as {
        events: Array<{ id: number }>;
        total: number;
      };
      listedIds = firstPage.events.map((event) => event.id);
      expect(listedIds.length).toBe(firstPage.total);
      // The benchmark's own working set of this calendar (every filter value, its pages, every published event).
      const url = new URL(databaseUrl);
      const database = await BenchDatabase.create(`${url.protocol}//${url.username}@${url.host}`, url.pathname.slice(1));
      try {
        context = await buildScenarioContext(database, { managerAuthorization: admin.authorization });
      } finally {
        await database.close();
      }
      const scenarioPlan = floorPlan(context);
      const plan: FloorPlan = {
        eventLists: [{ query: '', pages: [1, 2, 3, 4] }, ...scenarioPlan.eventLists],
        eventIds: [...new Set([...listedIds, ...scenarioPlan.eventIds])],
        manager: { authorization: admin.authorization, ticketPages: [1, 2, 3], attendeePages: [1, 2, 3] },
      };
      // A cache of a few documents: most answers read their documents from the floor's tables, some from memory.
      floor = await startFloor({ databaseUrl, serviceUrl, plan, port: 0, frameworkPort: 0, documentCacheBytes: 64 * 1024 });
    });

    afterAll(async () => {
      await floor?.close();
      await testApp?.close();
    });

    it('has a calendar worth comparing: several pages, ties, filters with pages', async () => {
      expect(listedIds.length).toBeGreaterThan(40);
      const category = await expectSameAnswer(`${EVENTS}?categories=${terms.categories[0]}&per_page=5`);
      expect(Number(category.headers['x-tec-totalpages'])).toBeGreaterThan(2);
    });

    it('answers the default window like the service, on every page and past the last one', async () => {
      await expectSameAnswer(EVENTS);
      const pages = Math.ceil(listedIds.length / 5);
      for (let page = 1; page <= pages + 1; page += 1) await expectSameAnswer(`${EVENTS}?per_page=5&page=${page}`);
      await expectSameAnswer(`${EVENTS}?page=2`);
    });

    it('answers every filter, one value and two, like the service', async () => {
      const filters = [
        ...terms.categories.slice(0, 3).map((id) => `categories=${id}`),
        `categories=${terms.categories[0]},${terms.categories[1]}`,
        `categories=${terms.categories[1]},${terms.categories[2]}`,
        ...terms.tags.slice(0, 3).map((id) => `tags=${id}`),
        `tags=${terms.tags[0]},${terms.tags[1]}`,
        ...terms.venues.slice(0, 2).map((id) => `venue=${id}`),
        ...terms.organizers.slice(0, 2).map((id) => `organizer=${id}`),
        `organizer=${terms.organizers[0]},${terms.organizers[1]}`,
      ];
      for (const filter of filters) {
        const first = await expectSameAnswer(`${EVENTS}?${filter}`);
        const pages = Math.ceil(Number(first.headers['x-tec-total']) / 4);
        for (let page = 1; page <= pages; page += 1) await expectSameAnswer(`${EVENTS}?${filter}&per_page=4&page=${page}`);
      }
    });

    it('answers every listed event by id like the service', async () => {
      for (const id of listedIds) await expectSameAnswer(`${EVENTS}/${id}`);
    });

    it('answers a conditional GET of an event with 304 when its ETag matches, each target with its own ETag, like the service', async () => {
      for (const [name, url] of [
        ['service', serviceUrl],
        ['floor', floor.url],
        ['framework', floor.frameworkUrl!],
      ]) {
        const path = `${EVENTS}/${listedIds[0]}`;
        const first = await get(url, path);
        const etag = String(first.headers.etag);
        expect([name, etag]).toEqual([name, expect.stringMatching(/^(W\/)?"[^"]+"$/)]);
        const again = await get(url, path, { 'If-None-Match': etag });
        expect([name, again.status, again.text]).toEqual([name, 304, '']);
        expect([name, (await get(url, path, { 'If-None-Match': '"another"' })).status]).toEqual([name, 200]);
      }
    });

    it('answers every path of every scenario like the service (list, crawler, visitor, single event)', async () => {
      const walked = new Set<string>();
      for (const scenario of SCENARIOS) {
        const paths = scenarioPaths(context, scenario.name);
        if (scenario.name.startsWith('event')) expect([scenario.name, paths.length > 0]).toEqual([scenario.name, true]);
        for (const path of paths) walked.add(path);
        // And what the load process draws: each scenario's requests come from its working set.
        for (let n = 0; n < 20; n += 1) {
          const request = scenario.request(context, n);
          if (paths.length) expect(paths).toContain(request.path);
        }
      }
      expect(context.lists['events-category'].length).toBeGreaterThanOrEqual(3);
      expect(context.lists['events-two-categories'].length).toBe(context.lists['events-category'].length - 1);
      for (const path of walked) await expectSameAnswer(path);
    });

    it('answers the tickets and attendees lists to a manager like the service', async () => {
      for (const list of ['tickets', 'attendees']) {
        const first = await expectSameAnswer(`/cal/tickets/v1/${list}`, { Authorization: admin.authorization });
        expect(Number(first.headers['x-et-total'])).toBeGreaterThan(0);
        const pages = Math.min(3, Math.ceil(Number(first.headers['x-et-total']) / 5));
        for (let page = 1; page <= pages; page += 1)
          await expectSameAnswer(`/cal/tickets/v1/${list}?page=${page}&per_page=5`, { Authorization: admin.authorization });
      }
    });

    it('refuses the manager lists without a manager’s credentials', async () => {
      expect((await get(floor.url, '/cal/tickets/v1/attendees')).status).toBe(401);
      const editor = await createUser(testApp, 'author');
      expect((await get(floor.url, '/cal/tickets/v1/attendees', { Authorization: editor.authorization })).status).toBe(401);
    });

    /**
     * The sale floor (bench/floor/sale.ts) against the service: the benchmark's buyers drive both
     * alike, so both must answer the same statuses and write the same rows for a sale.
     */
    describe('the sale floor', () => {
      let saleFloor: SaleFloorServer;
      let database: BenchDatabase;
      let ticketCount = 0;

      type Row = Record<string, unknown>;
      const rows = (sql: string, parameters: unknown[] = []) => testApp.dataSource.query<Row[]>(sql, parameters);

      async function post(
        url: string,
        path: string,
        body: unknown,
        token?: string,
      ): Promise<{ status: number; token: string | null; body: Row }> {
        const response = await fetch(url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { 'x-cart-token': token } : {}) },
          body: JSON.stringify(body),
        });
        return { status: response.status, token: response.headers.get('x-cart-token'), body: (await response.json()) as Row };
      }

      /** A buyer's cycle on one target: a cart of `quantity` units, then its checkout (unless the cart write is refused). */
      async function buy(url: string, ticketId: number, quantity: number, buyer: string) {
        const cart = await post(url, '/cal/tickets/v1/cart', { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity }] });
        if (cart.status !== 200) return { cart, checkout: undefined };
        const checkout = await post(
          url,
          '/cal/tickets/v1/cart/checkout',
          { provider: 'tc', purchaser: { name: `Buyer ${buyer}`, email: `${buyer}@example.com` } },
          cart.token!,
        );
        return { cart, checkout };
      }

      /** A fresh free ticket of `capacity` units on a published event, as the benchmark's sale makes them. */
      async function freshTicket(capacity: number): Promise<number> {
        return (await database.createContendedTicket(capacity, `sale-floor-spec-${Date.now()}-${(ticketCount += 1)}`, 0)).id;
      }

      /** What an order wrote, without what differs between any two orders (ids, names, tokens, codes, times). */
      async function writtenRows(orderId: number) {
        const [order] = await rows(
          'SELECT provider, status, user_id, total_minor, currency, payment_method, expires_at, coupon_id, coupon_code, coupon_uses, discount_minor, completed_at IS NOT NULL AS completed FROM orders WHERE id = ?',
          [orderId],
        );
        const items = await rows('SELECT quantity, unit_price_minor FROM order_items WHERE order_id = ?', [orderId]);
        const attendees = await rows(
          `SELECT provider, status, order_status, rsvp_going, user_id, optout, meta, checked_in, checkin_blocked, checkin_revoked_at, coupon_code,
                  price_paid_minor, discount_minor, LENGTH(security_code) AS code_length, checkin_secret IS NOT NULL AS has_checkin_secret
           FROM attendees WHERE order_id = ? ORDER BY id`,
          [orderId],
        );
        const notices = await rows(
          "SELECT channel, status, attempts, payload FROM outbox_messages WHERE type = 'order.placed' AND JSON_VALUE(payload, '$.order_id') = ?",
          [orderId],
        );
        const placed = notices.map(({ payload, ...notice }) => {
          const { order_id: _id, purchaser_name: _name, purchaser_email: _email, ...data } = JSON.parse(String(payload)) as Row;
          return { ...notice, data };
        });
        return { order: Object.fromEntries(Object.entries(order).map(([key, value]) => [key, String(value)])), items, attendees, placed };
      }

      beforeAll(async () => {
        const url = new URL(databaseUrl);
        database = await BenchDatabase.create(`${url.protocol}//${url.username}@${url.host}`, url.pathname.slice(1));
        saleFloor = await startSaleFloor({ databaseUrl, port: 0, poolSize: 4 });
      });

      afterAll(async () => {
        await saleFloor?.close();
        await database?.close();
      });

      it('checks out with 201 and writes the rows the service writes: the order, its line, an attendee per unit, order.placed', async () => {
        const serviceTicket = await freshTicket(10);
        const floorTicket = await freshTicket(10);
        const service = await buy(serviceUrl, serviceTicket, 2, 'service-buyer');
        const floorSale = await buy(saleFloor.url, floorTicket, 2, 'floor-buyer');
        expect([service.cart.status, service.checkout?.status]).toEqual([200, 201]);
        expect([floorSale.cart.status, floorSale.checkout?.status]).toEqual([200, 201]);
        expect(floorSale.cart.token).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{32}$/));
        const orderId = Number(floorSale.checkout!.body.id);
        expect(floorSale.checkout!.body).toEqual({
          id: orderId,
          status: 'completed',
          provider: 'tc',
          total: '0.00',
          currency: 'USD',
          attendees: [
            { ticket_id: floorTicket, security_code: expect.stringMatching(/^[0-9a-f]{32}$/) },
            { ticket_id: floorTicket, security_code: expect.stringMatching(/^[0-9a-f]{32}$/) },
          ],
        });

        const floorRows = await writtenRows(orderId);
        expect(floorRows).toEqual(await writtenRows(Number(service.checkout!.body.id)));
        expect(floorRows.attendees).toHaveLength(2);
        expect(floorRows.placed).toHaveLength(1);
        expect(floorRows.items).toEqual([{ quantity: 2, unit_price_minor: expect.anything() }]);
        const [order] = await rows('SELECT cart_token, purchaser_email FROM orders WHERE id = ?', [orderId]);
        expect(order).toEqual({ cart_token: floorSale.cart.token, purchaser_email: 'floor-buyer@example.com' });
        expect(await rows('SELECT ticket_id, event_id FROM attendees WHERE order_id = ? GROUP BY ticket_id, event_id', [orderId])).toEqual([
          { ticket_id: floorTicket, event_id: expect.any(Number) },
        ]);
        for (const ticketId of [serviceTicket, floorTicket]) {
          const [counter] = await rows('SELECT sold, pending FROM ticket_capacity_counters WHERE ticket_id = ?', [ticketId]);
          expect([ticketId, counter]).toEqual([ticketId, { sold: 2, pending: 0 }]);
        }
        // The lines left the cart with the checkout; a second checkout of it has nothing to order.
        expect(
          await rows('SELECT c.id FROM carts c INNER JOIN cart_items i ON i.cart_id = c.id WHERE c.token = ?', [floorSale.cart.token]),
        ).toEqual([]);
        const again = await post(
          saleFloor.url,
          '/cal/tickets/v1/cart/checkout',
          { provider: 'tc', purchaser: { name: 'Again', email: 'again@example.com' } },
          floorSale.cart.token!,
        );
        expect([again.status, again.body.code]).toEqual([400, 'cart-empty']);
      });

      it('refuses an oversell with 409, at the cart write and at the checkout, as the service does, and writes nothing for it', async () => {
        for (const url of [serviceUrl, saleFloor.url]) {
          const ticketId = await freshTicket(3);
          const first = await buy(url, ticketId, 2, 'first');
          expect([url, first.checkout?.status]).toEqual([url, 201]);
          // One unit left: a cart of two is refused before anything is held.
          const greedy = await buy(url, ticketId, 2, 'greedy');
          expect([url, greedy.cart.status, greedy.cart.body.code]).toEqual([url, 409, 'ticket-capacity-not-available']);
          // Two carts of the last unit: the first checkout sells it, the second is refused and rolled back.
          const carts = [];
          for (const buyer of ['late-1', 'late-2']) {
            const cart = await post(url, '/cal/tickets/v1/cart', { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 }] });
            expect([url, cart.status]).toEqual([url, 200]);
            carts.push({ buyer, token: cart.token! });
          }
          const answers = [];
          for (const { buyer, token } of carts)
            answers.push(
              await post(
                url,
                '/cal/tickets/v1/cart/checkout',
                { provider: 'tc', purchaser: { name: buyer, email: `${buyer}@example.com` } },
                token,
              ),
            );
          expect([url, answers.map((answer) => answer.status), answers[1].body.code]).toEqual([
            url,
            [201, 409],
            'ticket-capacity-not-available',
          ]);
          const [counter] = await rows('SELECT sold, pending FROM ticket_capacity_counters WHERE ticket_id = ?', [ticketId]);
          const [written] = await rows(
            'SELECT COUNT(*) AS attendees, COUNT(DISTINCT order_id) AS orders FROM attendees WHERE ticket_id = ?',
            [ticketId],
          );
          expect([url, counter, written]).toEqual([url, { sold: 3, pending: 0 }, { attendees: 3, orders: 2 }]);
          // The refused checkout kept its cart line (its transaction rolled back) and placed no order.
          expect(await rows('SELECT COUNT(*) AS orders FROM orders WHERE cart_token = ?', [carts[1].token])).toEqual([{ orders: 0 }]);
          expect(
            await rows('SELECT i.quantity FROM carts c INNER JOIN cart_items i ON i.cart_id = c.id WHERE c.token = ?', [carts[1].token]),
          ).toEqual([{ quantity: 1 }]);
        }
      });

      it('never sells a cart twice nor beyond capacity when its buyers check out at once', async () => {
        const ticketId = await freshTicket(5);
        const carts = await Promise.all(
          Array.from({ length: 8 }, () =>
            post(saleFloor.url, '/cal/tickets/v1/cart', { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 }] }),
          ),
        );
        expect(carts.map((cart) => cart.status)).toEqual(Array(8).fill(200));
        // Every cart checked out twice at once: 5 units sold, one order per sold unit, no cart twice.
        const answers = await Promise.all(
          carts.flatMap((cart, index) =>
            [0, 1].map(() =>
              post(
                saleFloor.url,
                '/cal/tickets/v1/cart/checkout',
                { provider: 'tc', purchaser: { name: `Rush ${index}`, email: `rush${index}@example.com` } },
                cart.token!,
              ),
            ),
          ),
        );
        const sold = answers.filter((answer) => answer.status === 201);
        expect(sold).toHaveLength(5);
        expect(new Set(sold.map((answer) => answer.body.id)).size).toBe(5);
        expect(answers.every((answer) => [201, 400, 409].includes(answer.status))).toBe(true);
        const [counter] = await rows('SELECT sold FROM ticket_capacity_counters WHERE ticket_id = ?', [ticketId]);
        const [written] = await rows(
          'SELECT COUNT(*) AS attendees, COUNT(DISTINCT order_id) AS orders, COUNT(DISTINCT o.cart_token) AS carts FROM attendees a INNER JOIN orders o ON o.id = a.order_id WHERE a.ticket_id = ?',
          [ticketId],
        );
        expect([counter, written]).toEqual([{ sold: 5 }, { attendees: 5, orders: 5, carts: 5 }]);
      });
    });
  },
);
