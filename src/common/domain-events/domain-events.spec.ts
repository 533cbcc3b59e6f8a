import { DataSource } from 'typeorm';
import { TransactionHost } from '../database/transaction-host';
import type { DomainEvent } from './domain-event';
import { DomainEvents } from './domain-events';

const soldOut: DomainEvent = { kind: 'TicketsSoldOut', tickets: [{ id: 1, eventId: 2, name: 'Early bird' }] };

describe('DomainEvents', () => {
  let dataSource: DataSource;
  let tx: TransactionHost;

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE written (what TEXT)');
    tx = new TransactionHost(dataSource);
  });

  afterEach(() => dataSource.destroy());

  it('awaits each listener in the order they subscribed, with the events', async () => {
    const calls: string[] = [];
    const bus = new DomainEvents(tx);
    bus.subscribe(async (events) => {
      expect(events).toEqual([soldOut, soldOut]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      calls.push('first');
    });
    bus.subscribe(() => {
      calls.push('second');
      return Promise.resolve();
    });
    await bus.publish(soldOut, soldOut);
    expect(calls).toEqual(['first', 'second']);
  });

  it('calls nobody when nothing is published', async () => {
    const bus = new DomainEvents(tx);
    const listener = jest.fn(() => Promise.resolve());
    bus.subscribe(listener);
    await bus.publish();
    expect(listener).not.toHaveBeenCalled();
  });

  it("runs in-transaction listeners in the writer's transaction: one that throws stops the later ones and rolls the rows back", async () => {
    const bus = new DomainEvents(tx);
    const later = jest.fn(() => Promise.resolve());
    bus.subscribe(async () => {
      expect(tx.inTransaction).toBe(true);
      await tx.manager.query(`INSERT INTO written (what) VALUES ('notification')`);
    });
    bus.subscribe(() => Promise.reject(new Error('listener failed')));
    bus.subscribe(later);
    await expect(
      tx.run(async () => {
        await tx.manager.query(`INSERT INTO written (what) VALUES ('change')`);
        await bus.publish(soldOut);
      }),
    ).rejects.toThrow('listener failed');
    expect(later).not.toHaveBeenCalled();
    expect(await dataSource.query('SELECT what FROM written')).toEqual([]);
  });
});
