import type { UnitsTaken } from '../src/common/domain-events/domain-event';
import { DomainEvents } from '../src/common/domain-events/domain-events';
import { checkout, fillCart, PURCHASER } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
import { recordStatements, StatementRecorder } from './helpers/statement-recorder';
import { createTestApp, TestApp } from './helpers/test-app';
import { insertPool, insertTicket } from './helpers/ticketing-fixtures';

/**
 * A take of capacity publishes what its tickets have left (UnitsTaken) from its own statements:
 * `RETURNING` on SQLite, a read inside the compound statement on MariaDB. A listener costs the
 * checkout no statement; without one, the statements are those of test/checkout-statements.e2e-spec.ts.
 */
describe('UnitsTaken: what a take leaves, from its own statements (e2e)', () => {
  let testApp: TestApp;
  let recorder: StatementRecorder;
  const heard: UnitsTaken[] = [];
  const counted: Array<{ sold: number }> = [];

  beforeAll(async () => {
    testApp = await createTestApp();
    recorder = recordStatements(testApp.dataSource);
  });

  afterAll(async () => {
    await testApp.close();
  });

  async function buy(lines: Array<{ ticket_id: number; quantity: number }>): Promise<string[]> {
    const buyer = await fillCart(testApp, {}, 'tc', lines);
    recorder.clear();
    const response = await checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER });
    expect(response.status).toBe(201);
    // Not the count caches' renewal after the commit, nor this spec's listener's own read.
    return recorder.statements.filter((statement) => !/^(UPDATE cache_generations|SELECT sold FROM)/.test(statement));
  }

  it('costs a checkout no statement more once something listens (after commit, the take committed)', async () => {
    const event = await insertEvent(testApp.dataSource);
    const before = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 10 });
    const unheard = await buy([{ ticket_id: before.id, quantity: 2 }]);

    testApp.app.get(DomainEvents).subscribe(
      async (events) => {
        heard.push(...(events as UnitsTaken[]));
        // After the commit: another connection sees the units sold.
        const [row] = await testApp.dataSource.query<Array<{ sold: number }>>(
          'SELECT sold FROM ticket_capacity_counters WHERE ticket_id = ?',
          [(events[0] as UnitsTaken).tickets[0].id],
        );
        counted.push({ sold: Number(row.sold) });
      },
      { kinds: ['UnitsTaken'], phase: 'after-commit', name: 'spec' },
    );
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 10, name: 'Floor' });
    const heardStatements = await buy([{ ticket_id: ticket.id, quantity: 2 }]);
    expect(heardStatements).toHaveLength(unheard.length);
    expect(heard).toEqual([
      {
        kind: 'UnitsTaken',
        count: 'sold',
        tickets: [{ id: ticket.id, eventId: event.id, name: 'Floor', taken: 2, left: 8, capacity: 10 }],
      },
    ]);
    expect(counted).toEqual([{ sold: 2 }]);
  });

  it("names the row with fewer left: a capped ticket's own counter or its event's pool", async () => {
    heard.length = 0;
    const event = await insertEvent(testApp.dataSource);
    await insertPool(testApp.dataSource, event.id, 12);
    const capped = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      price: '0.00',
      capacityMode: 'capped',
      capacity: 5,
      name: 'Capped',
    });
    const global = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      price: '0.00',
      capacityMode: 'global',
      capacity: null,
      name: 'Pool',
    });
    const unlimited = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      price: '0.00',
      capacityMode: 'unlimited',
      capacity: null,
    });
    await buy([
      { ticket_id: capped.id, quantity: 1 },
      { ticket_id: global.id, quantity: 3 },
      { ticket_id: unlimited.id, quantity: 1 },
    ]);
    expect(heard).toHaveLength(1);
    expect(heard[0].tickets).toEqual([
      // Own counter: 4 of 5 left; the pool: 8 of 12.
      { id: capped.id, eventId: event.id, name: 'Capped', taken: 1, left: 4, capacity: 5 },
      { id: global.id, eventId: event.id, name: 'Pool', taken: 4, left: 8, capacity: 12 },
    ]);
  });

  it('reports the last units taken (left 0) beside the sold-out notice', async () => {
    heard.length = 0;
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 3, name: 'Last' });
    await buy([{ ticket_id: ticket.id, quantity: 3 }]);
    expect(heard.map((taken) => taken.tickets)).toEqual([
      [{ id: ticket.id, eventId: event.id, name: 'Last', taken: 3, left: 0, capacity: 3 }],
    ]);
  });

  it('refuses a listener of UnitsTaken in any phase but after-commit', () => {
    expect(() =>
      testApp.app.get(DomainEvents).subscribe(() => Promise.resolve(), { kinds: ['UnitsTaken'], name: 'LowStock.early' }),
    ).toThrow(/LowStock\.early listens to UnitsTaken, which only an after-commit listener may/);
  });
});
