import request from 'supertest';
import { CART_PATH, fillCart, identify } from './helpers/buyers';
import { recordStatements, StatementRecorder, withoutTransactionControl } from './helpers/statement-recorder';
import { createTestApp, TestApp } from './helpers/test-app';
import { insertEvent, insertTicket } from './helpers/ticketing-fixtures';

/**
 * What a cart write sends to the database. In a flash sale every buyer's first request is one, so
 * it does no lookup it can do without: an anonymous buyer's first write creates the cart with the
 * token it has just issued (no cart can hold it yet), and an empty new cart has no lines to read.
 */
describe('Cart write statements (e2e)', () => {
  let testApp: TestApp;
  let recorder: StatementRecorder;
  let ticketId: number;
  let otherTicketId: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    recorder = recordStatements(testApp.dataSource);
    const event = await insertEvent(testApp.dataSource);
    ticketId = (await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 100 })).id;
    otherTicketId = (await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 100 })).id;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const verbs = (recorded: string[]) => recorded.map((statement) => statement.split(' ').slice(0, 3).join(' '));

  it("creates an anonymous buyer's cart in one INSERT and reads no cart line before writing its own", async () => {
    recorder.clear();
    await fillCart(testApp, {}, 'tc', [{ ticket_id: ticketId, quantity: 2 }]);
    const recorded = withoutTransactionControl(recorder.statements);
    expect(verbs(recorded)).toEqual([
      'SELECT Ticket.id AS', // the listed tickets
      'INSERT INTO carts(id,',
      'SELECT Event.id AS', // sale checks: event status and pool
      expect.stringMatching(/^SELECT TicketPool/),
      'INSERT INTO cart_items(cart_id,',
      'SELECT item.ticket_id AS', // the cart as answered
    ]);
  });

  it('reads the lines of a cart that has some, and keeps them', async () => {
    const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticketId, quantity: 1 }]);
    recorder.clear();
    const response = await identify(request(testApp.server).post(CART_PATH), buyer)
      .send({ provider: 'tc', tickets: [{ ticket_id: otherTicketId, quantity: 1 }] })
      .expect(200);
    expect(recorder.statements.some((statement) => /^SELECT .* FROM cart_items/.test(statement))).toBe(true);
    expect(recorder.statements.some((statement) => statement.startsWith('UPDATE carts SET updated_at'))).toBe(true);
    expect((response.body.tickets as Array<{ ticket_id: number }>).map((line) => line.ticket_id).sort()).toEqual(
      [ticketId, otherTicketId].sort(),
    );
  });
});
