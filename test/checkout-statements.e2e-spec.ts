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
  const COMPOUND = /^BEGIN NOT ATOMIC .*UPDATE ticket_capacity_counters .* COMMIT; END IF; SELECT short_step, emptied(?:, lefts)?; END$/;

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
    // Two attendees, one INSERT.
    expect(recorded.filter((statement) => /^INSERT INTO attendees/.test(statement))).toHaveLength(1);
  });

  it('reads a ticket it checked out a moment ago from no table again', async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 100 });
    await recordCheckout([ticket.id], 1);
    const recorded = await recordCheckout([ticket.id], 1);
    expect(recorded.filter((statement) => /FROM (tickets|events) /.test(statement))).toEqual([]);
    // BEGIN, the live cart's lines, DELETE lines, INSERT order, items, attendees (with their ids on
    // MariaDB, else one SELECT of the ids), INSERT outbox, take (and COMMIT on MariaDB).
    expect(recorded.filter((statement) => statement !== 'COMMIT' && !statement.startsWith('UPDATE cache_generations')).length).toBe(
      mariadb() ? 8 : 9,
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
  });
});
