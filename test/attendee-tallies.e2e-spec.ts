import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { AttendeeTallies } from '../src/attendees/attendee-tallies';
import { AttendeeTally } from '../src/attendees/attendee-tally.entity';
import { Attendee } from '../src/attendees/attendee.entity';
import { Order } from '../src/orders/order.entity';
import { CART_PATH, CHECKOUT_PATH, checkout, fillCart, PURCHASER } from './helpers/buyers';
import { postOnOwnConnection } from './helpers/raw-http';
import { recordStatements, StatementRecorder } from './helpers/statement-recorder';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket } from './helpers/ticketing-fixtures';

const ATTENDEES = '/cal/tickets/v1/attendees';
const ADMIN_AUTH = basicAuth(ADMIN.login, ADMIN.password);

/**
 * The whole attendee list of a manager takes its total from the attendee tally (rows of +1/-1
 * written by triggers, folded now and then), not from a count of the table: exact after every
 * kind of write, on a second instance at once, and while folds run beside checkouts.
 */
describe('Attendee tallies (e2e)', () => {
  let writer: TestApp;
  let reader: TestApp;
  let recorder: StatementRecorder;
  let editor: TestUser;
  let author: TestUser;
  let ticketId: number;

  beforeAll(async () => {
    writer = await createTestApp();
    // A second instance on the same database (SQLite: its own in-memory database, so only the
    // single-instance checks apply there).
    reader = process.env.TEST_DATABASE_URL ? await createTestApp({ keepTables: true }) : writer;
    recorder = recordStatements(reader.dataSource);
    editor = await createUser(writer, 'editor');
    author = await createUser(writer, 'author');
    const event = await insertEvent(writer.dataSource);
    ticketId = (await insertTicket(writer.dataSource, { eventId: event.id, price: '0.00', capacity: 10_000 })).id;
  });

  afterAll(async () => {
    if (reader !== writer) await reader.close();
    await writer.close();
  });

  async function buy(units: number): Promise<void> {
    const buyer = await fillCart(writer, {}, 'tc', [{ ticket_id: ticketId, quantity: units }]);
    const response = await checkout(writer, buyer, { provider: 'tc', purchaser: PURCHASER });
    expect(response.status).toBe(201);
  }

  async function listTotal(app: TestApp, authorization: string, query = ''): Promise<number> {
    const response = await request(app.server).get(`${ATTENDEES}${query}`).set('Authorization', authorization).expect(200);
    return response.body.total as number;
  }

  const attendeeRows = () => writer.dataSource.getRepository(Attendee).count();
  const tallyRows = () => writer.dataSource.getRepository(AttendeeTally).count();
  const countsAttendees = (statements: string[]) => statements.some((statement) => /COUNT\(.*FROM attendees/i.test(statement));

  it("answers an administrator's and an editor's whole list from the tally, after each checkout, without counting the table", async () => {
    expect(await listTotal(reader, ADMIN_AUTH)).toBe(await attendeeRows());
    for (const units of [1, 2, 3]) {
      await buy(units);
      recorder.clear();
      const total = await listTotal(reader, ADMIN_AUTH);
      expect(countsAttendees(recorder.statements)).toBe(false);
      expect(total).toBe(await attendeeRows());
      expect(await listTotal(reader, editor.authorization, '?page=1&per_page=5&order=DESC&orderby=id')).toBe(await attendeeRows());
    }
    expect(await attendeeRows()).toBeGreaterThanOrEqual(6);
  });

  it('still counts the table for a filter and for a caller who manages only their own events', async () => {
    await buy(1);
    recorder.clear();
    const total = await listTotal(reader, ADMIN_AUTH, `?ticket_id=${ticketId}`);
    expect(countsAttendees(recorder.statements)).toBe(true);
    expect(total).toBe(await writer.dataSource.getRepository(Attendee).countBy({ ticketId }));
    // An author sees only attendees of their events and public ones: none of these.
    expect(await listTotal(reader, author.authorization)).toBe(0);
    // An empty id list chooses nothing, as if it were not sent.
    recorder.clear();
    const everyone = await listTotal(reader, ADMIN_AUTH, '?include_post=');
    expect(countsAttendees(recorder.statements)).toBe(false);
    expect(everyone).toBe(await attendeeRows());
  });

  it('folds its rows into one and keeps the sum', async () => {
    await buy(2);
    const before = await listTotal(reader, ADMIN_AUTH);
    expect(await tallyRows()).toBeGreaterThan(1);
    const removed = await writer.app.get(AttendeeTallies).fold();
    expect(removed).toBeGreaterThan(0);
    expect(await tallyRows()).toBe(1);
    expect(await writer.app.get(AttendeeTallies).fold()).toBe(0);
    expect(await listTotal(reader, ADMIN_AUTH)).toBe(before);
    expect(before).toBe(await attendeeRows());
  });

  it('folds on its own every ATTENDEE_TALLY_COMPACT_SECONDS (the suite turns it off)', async () => {
    process.env.ATTENDEE_TALLY_COMPACT_SECONDS = '1';
    let folding: TestApp;
    try {
      folding = await createTestApp({ keepTables: true });
    } finally {
      process.env.ATTENDEE_TALLY_COMPACT_SECONDS = '0';
    }
    try {
      const event = await insertEvent(folding.dataSource);
      const ticket = await insertTicket(folding.dataSource, { eventId: event.id, price: '0.00', capacity: 10 });
      for (const units of [1, 2]) {
        const buyer = await fillCart(folding, {}, 'tc', [{ ticket_id: ticket.id, quantity: units }]);
        expect((await checkout(folding, buyer, { provider: 'tc', purchaser: PURCHASER })).status).toBe(201);
      }
      const rows = () => folding.dataSource.getRepository(AttendeeTally).count();
      expect(await rows()).toBeGreaterThan(1);
      for (let waited = 0; (await rows()) > 1 && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await rows()).toBe(1);
      expect(await folding.app.get(AttendeeTallies).total()).toBe(await folding.dataSource.getRepository(Attendee).count());
    } finally {
      await folding.close();
    }
  });

  it('follows attendees deleted one by one and with their order', async () => {
    await buy(2);
    await buy(3);
    const attendee = await writer.dataSource.getRepository(Attendee).findOneOrFail({ where: {}, order: { id: 'ASC' } });
    await writer.dataSource.getRepository(Attendee).delete(attendee.id);
    expect(await listTotal(reader, ADMIN_AUTH)).toBe(await attendeeRows());
    // The order's other attendees go with it by foreign key.
    const order = await writer.dataSource.getRepository(Order).findOneOrFail({ where: {}, order: { id: 'DESC' } });
    await writer.dataSource.getRepository(Order).delete(order.id);
    expect(await writer.dataSource.getRepository(Attendee).countBy({ orderId: order.id })).toBe(0);
    expect(await listTotal(reader, ADMIN_AUTH)).toBe(await attendeeRows());
  });

  it('stays exact when folds run while buyers check out', async () => {
    await writer.app.listen(0, '127.0.0.1');
    const port = (writer.app.getHttpServer().address() as AddressInfo).port;
    const tallies = [writer.app.get(AttendeeTallies), reader.app.get(AttendeeTallies)];
    const buyers = 40;
    const carts = await Promise.all(
      Array.from({ length: buyers }, () =>
        postOnOwnConnection(port, CART_PATH, { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 }] }),
      ),
    );
    let selling = true;
    const folding = (async () => {
      let folds = 0;
      while (selling || folds < 2) {
        await Promise.all(tallies.map((tally) => tally.fold()));
        folds += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answers = await Promise.all(
      carts.map((cart) =>
        postOnOwnConnection(
          port,
          CHECKOUT_PATH,
          { provider: 'tc', purchaser: PURCHASER },
          { 'X-Cart-Token': cart.headers['x-cart-token'] as string },
        ),
      ),
    );
    selling = false;
    await folding;
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: buyers }, () => 201));
    expect(await listTotal(reader, ADMIN_AUTH)).toBe(await attendeeRows());
    await tallies[0].fold();
    expect(await tallyRows()).toBe(1);
    expect(await listTotal(reader, ADMIN_AUTH)).toBe(await attendeeRows());
  });
});
