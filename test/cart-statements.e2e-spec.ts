import request from 'supertest';
import { CART_PATH, fillCart, identify } from './helpers/buyers';
import { recordStatements, StatementRecorder, withoutTransactionControl } from './helpers/statement-recorder';
import { createTestApp, TestApp } from './helpers/test-app';
import { CLOCK } from '../src/common/clock';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, TestClock } from './helpers/ticketing-fixtures';

/**
 * What a cart write sends to the database. In a flash sale every buyer's first request is one, so
 * it does no lookup it can do without: an anonymous buyer's first write creates the cart with the
 * token it has just issued (no cart can hold it yet), an empty new cart has no lines to read, the
 * sale checks read with the tickets, and the answer is the lines as written, not read back.
 */
describe('Cart write statements (e2e)', () => {
  let testApp: TestApp;
  let recorder: StatementRecorder;
  let ticketId: number;
  let otherTicketId: number;
  const clock = new TestClock();

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
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
      'SELECT ticket.id AS', // the listed tickets, their events' status and pools
      'INSERT INTO carts(id,',
      'INSERT INTO cart_items(cart_id,',
    ]);
  });

  it('reads the lines of a cart that has some once, keeps them, and moves its idle clock at most once a minute', async () => {
    const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticketId, quantity: 1 }]);
    const write = (quantity: number) =>
      identify(request(testApp.server).post(CART_PATH), buyer)
        .send({ provider: 'tc', tickets: [{ ticket_id: otherTicketId, quantity }] })
        .expect(200);
    const touches = () => recorder.statements.filter((statement) => statement.startsWith('UPDATE carts SET updated_at')).length;

    recorder.clear();
    const response = await write(1);
    expect(recorder.statements.filter((statement) => /^SELECT .* FROM cart_items/.test(statement))).toHaveLength(1);
    expect(touches()).toBe(0);
    expect((response.body.tickets as Array<{ ticket_id: number }>).map((line) => line.ticket_id).sort()).toEqual(
      [ticketId, otherTicketId].sort(),
    );

    clock.advanceMinutes(1);
    recorder.clear();
    await write(2);
    expect(touches()).toBe(1);
  });
});
