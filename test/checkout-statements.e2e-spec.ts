import { Attendee } from '../src/attendees/attendee.entity';
import { IdempotencyKey } from '../src/orders/idempotency-key.entity';
import { Order } from '../src/orders/order.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { checkout, fillCart, PURCHASER } from './helpers/buyers';
import { recordStatements, StatementRecorder } from './helpers/statement-recorder';
import { createTestApp, TestApp } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket, reloadPool, reloadTicket } from './helpers/ticketing-fixtures';

/**
 * What one checkout sends to the database, and above all what it sends while it holds the
 * capacity rows every other buyer of the ticket waits for: from the first conditional UPDATE of a
 * counter or pool to COMMIT nothing else may run, or a flash sale queues behind it.
 */
describe('Checkout statements (e2e)', () => {
  let testApp: TestApp;
  let recorder: StatementRecorder;

  beforeAll(async () => {
    testApp = await createTestApp();
    recorder = recordStatements(testApp.dataSource);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const isCapacityTake = (statement: string) => /^(UPDATE (ticket_capacity_counters|ticket_pools) |BEGIN NOT ATOMIC)/.test(statement);
  /** MariaDB takes capacity and commits in one compound statement (CapacityService.takeAllAndFinish); TypeORM's COMMIT then ends nothing. */
  const mariadb = () => testApp.dataSource.options.type === 'mysql';
  /** The take's compound statement, which also sends the checkout's held writes and answers their ids (`held_ids`). */
  const COMPOUND =
    /^BEGIN NOT ATOMIC .*UPDATE ticket_capacity_counters .* COMMIT; END IF; SELECT short_step, emptied(?:, lefts)?(?:, CONCAT_WS\(.*\) AS held_ids)?; END$/;

  /** The statements of one checkout of `units` units of each ticket, the capacity takes marked. */
  async function recordCheckout(ticketIds: number[], units: number, idempotencyKey?: string): Promise<string[]> {
    const buyer = await fillCart(
      testApp,
      {},
      'tc',
      ticketIds.map((ticket_id) => ({ ticket_id, quantity: units })),
    );
    recorder.clear();
    const response = await checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }, idempotencyKey);
    expect(response.status).toBe(201);
    return recorder.statements;
  }

  /**
   * Statements from the first capacity take to the end of the transaction: COMMIT, or on MariaDB
   * the compound statement that commits (TypeORM's COMMIT after it is answered without a round
   * trip). After the commit only the count caches' generation is renewed (CountCacheInvalidation),
   * holding no capacity row.
   */
  function underCapacityLock(recorded: string[]): string[] {
    const first = recorded.findIndex(isCapacityTake);
    expect(first).toBeGreaterThanOrEqual(0);
    const commit = recorded.lastIndexOf('COMMIT');
    const end = commit >= 0 ? commit : recorded.length - 1 - [...recorded].reverse().findIndex(isCapacityTake);
    expect(recorded.slice(end + 1).every((statement) => statement.startsWith('UPDATE cache_generations'))).toBe(true);
    return recorded.slice(first, end + 1);
  }

  /** A take that ends the transaction: MariaDB's compound statement commits by itself; elsewhere COMMIT follows. */
  const committingTake = (take: RegExp) => (mariadb() ? [expect.stringMatching(take)] : [expect.stringMatching(take), 'COMMIT']);

  // With a listener of UnitsTaken, the same takes answer what is left (RETURNING on SQLite, `lefts` in the compound statement).
  const TAKE = /^UPDATE ticket_capacity_counters SET .* > \S+(?: RETURNING .*)?$/;
  const TAKE_LAST = /^UPDATE ticket_capacity_counters SET .* >= \S+(?: RETURNING .*)?$/;

  it('holds a ticket of its own capacity for its conditional UPDATE and the commit only', async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 100 });
    const recorded = await recordCheckout([ticket.id], 2);
    if (process.env.PRINT_STATEMENTS)
      process.stdout.write(`${recorded.length} statements:\n${recorded.map((s) => `  ${s.slice(0, 200)}`).join('\n')}\n`);
    expect(underCapacityLock(recorded)).toEqual(committingTake(mariadb() ? COMPOUND : TAKE));
    if (mariadb()) {
      // The cart's lines deleted, the order, its line, its two attendees and its notifications inserted,
      // all before the take, in the one statement that takes and commits.
      const [compound] = recorded.filter((statement) => statement.startsWith('BEGIN NOT ATOMIC'));
      const writes = compound.match(/(DELETE FROM \S+|INSERT INTO \w+|UPDATE \w+)/g);
      expect(writes).toEqual([
        'DELETE FROM cart_items',
        'INSERT INTO orders',
        'INSERT INTO order_items',
        'INSERT INTO attendees',
        'INSERT INTO attendees',
        'INSERT INTO outbox_messages',
        // The take, and the take of the last units should it find too few for the first.
        'UPDATE ticket_capacity_counters',
        'UPDATE ticket_capacity_counters',
      ]);
      expect(recorded.filter((statement) => /^(INSERT|DELETE)/.test(statement))).toEqual([]);
    } else {
      // Two attendees, one INSERT.
      expect(recorded.filter((statement) => /^INSERT INTO attendees/.test(statement))).toHaveLength(1);
    }
  });

  it('reads a ticket it checked out a moment ago from no table again', async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 100 });
    await recordCheckout([ticket.id], 1);
    const recorded = await recordCheckout([ticket.id], 1);
    expect(recorded.filter((statement) => /FROM (tickets|events) /.test(statement))).toEqual([]);
    // MariaDB: START TRANSACTION, the live cart's lines, and the compound statement that deletes
    // them, inserts the order, items, attendees and outbox rows, takes the capacity and commits.
    // Elsewhere: BEGIN, the lines, DELETE lines, INSERT order, items, attendees, one SELECT of their
    // ids, INSERT outbox, take (then COMMIT).
    expect(recorded.filter((statement) => statement !== 'COMMIT' && !statement.startsWith('UPDATE cache_generations')).length).toBe(
      mariadb() ? 3 : 9,
    );
  });

  it('takes the last units with a second UPDATE and writes the sold-out notice before COMMIT', async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 3 });
    await recordCheckout([ticket.id], 1);
    const recorded = await recordCheckout([ticket.id], 2);
    // The compound statement leaves the emptied row locked and the transaction open for the notice.
    expect(underCapacityLock(recorded)).toEqual([
      ...(mariadb() ? [expect.stringMatching(COMPOUND)] : [expect.stringMatching(TAKE), expect.stringMatching(TAKE_LAST)]),
      expect.stringMatching(/^INSERT INTO outbox_messages/),
      'COMMIT',
    ]);
    const soldOut = await testApp.dataSource.getRepository(OutboxMessage).findBy({ type: 'ticket.sold_out' });
    expect(soldOut.map((message) => JSON.parse(message.payload) as unknown)).toContainEqual({
      ticket_id: ticket.id,
      event_id: event.id,
      name: ticket.name,
    });
  });

  it('holds a capped ticket and its event pool for their UPDATEs and COMMIT only', async () => {
    const event = await insertEvent(testApp.dataSource);
    await insertPool(testApp.dataSource, event.id, 50);
    const capped = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacityMode: 'capped', capacity: 20 });
    const global = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacityMode: 'global', capacity: null });
    const recorded = await recordCheckout([capped.id, global.id], 1);
    const takes = mariadb()
      ? [
          expect.stringMatching(
            /^BEGIN NOT ATOMIC .*UPDATE ticket_capacity_counters .*UPDATE ticket_capacity_counters .*UPDATE ticket_pools /,
          ),
        ]
      : [
          expect.stringMatching(
            /^UPDATE ticket_capacity_counters SET .*\(capacity IS NULL OR capacity - sold - pending > \S+\)(?: RETURNING .*)?$/,
          ),
          // A global ticket has no limit of its own.
          expect.stringMatching(/^UPDATE ticket_capacity_counters SET .* capacity_mode = \?(?: RETURNING .*)?$/),
          expect.stringMatching(/^UPDATE ticket_pools SET .* > \S+(?: RETURNING .*)?$/),
        ];
    expect(underCapacityLock(recorded)).toEqual(mariadb() ? takes : [...takes, 'COMMIT']);
  });

  it('reports the tickets of an event pool its take empties as sold out, and refuses the next buyer', async () => {
    const event = await insertEvent(testApp.dataSource);
    await insertPool(testApp.dataSource, event.id, 3);
    const capped = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacityMode: 'capped', capacity: 10 });
    const global = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacityMode: 'global', capacity: null });
    const own = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 10 });
    const first = await fillCart(testApp, {}, 'tc', [{ ticket_id: capped.id, quantity: 1 }]);
    const second = await fillCart(
      testApp,
      {},
      'tc',
      [capped.id, global.id, own.id].map((ticket_id) => ({ ticket_id, quantity: 1 })),
    );
    const late = await fillCart(testApp, {}, 'tc', [{ ticket_id: global.id, quantity: 1 }]);
    const soldOutIds = async () =>
      (await testApp.dataSource.getRepository(OutboxMessage).findBy({ type: 'ticket.sold_out' }))
        .map((message) => (JSON.parse(message.payload) as { ticket_id: number }).ticket_id)
        .filter((id) => [capped.id, global.id, own.id].includes(id))
        .sort((a, b) => a - b);

    expect((await checkout(testApp, first, { provider: 'tc', purchaser: PURCHASER })).status).toBe(201);
    expect(await soldOutIds()).toEqual([]);
    expect((await checkout(testApp, second, { provider: 'tc', purchaser: PURCHASER })).status).toBe(201);
    expect(await soldOutIds()).toEqual([capped.id, global.id]);
    const refused = await checkout(testApp, late, { provider: 'tc', purchaser: PURCHASER });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ticket-capacity-not-available');
    expect(await reloadPool(testApp.dataSource, event.id)).toMatchObject({ sold: 3, pending: 0 });
    expect((await reloadTicket(testApp.dataSource, global.id)).sold).toBe(1);
  });

  it('holds the capacity row for its UPDATE and COMMIT only with an Idempotency-Key too', async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '10.00', capacity: 100 });
    const recorded = await recordCheckout([ticket.id], 1, 'statements-key-1');
    expect(underCapacityLock(recorded)).toEqual(committingTake(mariadb() ? COMPOUND : TAKE));
    // The key's bookkeeping is one INSERT with the answer (in the compound statement on MariaDB): no read, no UPDATE.
    const bookkeeping = recorded.filter((statement) => /idempotency_keys/.test(statement));
    if (mariadb()) {
      expect(bookkeeping).toEqual([expect.stringMatching(/^BEGIN NOT ATOMIC .*INSERT INTO idempotency_keys/)]);
      // START TRANSACTION, the cart's lines, the compound statement (a new ticket is read once more, from tickets and events).
      const reads = /FROM (tickets|events) /;
      expect(recorded.filter((statement) => !reads.test(statement) && !statement.startsWith('UPDATE cache_generations'))).toHaveLength(3);
    } else {
      expect(bookkeeping).toEqual([expect.stringMatching(/^INSERT INTO idempotency_keys/)]);
    }
  });

  it('answers, notifies and remembers with the ids its INSERTs generated', async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 100 });
    const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 3 }]);
    const response = await checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }, 'statements-key-ids');
    expect(response.status).toBe(201);
    const body = response.body as { id: number; attendees: Array<{ id: number }> };
    const order = await testApp.dataSource.getRepository(Order).findOneByOrFail({ id: body.id });
    expect(order.cartToken).toBe(buyer.token);
    const attendees = await testApp.dataSource.getRepository(Attendee).find({ where: { orderId: order.id }, order: { id: 'ASC' } });
    expect(body.attendees.map((attendee) => attendee.id)).toEqual(attendees.map((attendee) => attendee.id));
    expect(new Set(body.attendees.map((attendee) => attendee.id)).size).toBe(3);
    // Within strings too: each attendee's rest_url and global_id name its real id, no stand-in.
    expect(JSON.stringify(response.body)).not.toMatch(/-\d{12,}/);
    expect((response.body as { attendees: Array<{ rest_url: string }> }).attendees.map((attendee) => attendee.rest_url)).toEqual(
      attendees.map((attendee) => expect.stringMatching(new RegExp(`/attendees/${attendee.id}$`)) as unknown),
    );
    const payloads = async (type: string) =>
      (await testApp.dataSource.getRepository(OutboxMessage).findBy({ type }))
        .map((message) => JSON.parse(message.payload) as { order_id: number; attendee_id?: number })
        .filter((payload) => payload.order_id === order.id);
    expect(await payloads('order.placed')).toHaveLength(1);
    expect((await payloads('attendee.created')).map((payload) => payload.attendee_id)).toEqual(attendees.map((attendee) => attendee.id));
    const key = await testApp.dataSource.getRepository(IdempotencyKey).findOneByOrFail({ idempotencyKey: 'statements-key-ids' });
    expect(key.statusCode).toBe(201);
    expect(JSON.parse(key.responseBody)).toEqual(response.body);
  });
});
