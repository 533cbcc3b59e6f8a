import { DataSource, EntityManager } from 'typeorm';
import type { DomainEvent } from './domain-event';
import { DomainEvents } from './domain-events';

const soldOut: DomainEvent = { kind: 'TicketsSoldOut', tickets: [{ id: 1, eventId: 2, name: 'Early bird' }] };
const manager = {} as EntityManager;

describe('DomainEvents', () => {
  it('awaits each listener in the order they subscribed, with the manager and the events', async () => {
    const calls: string[] = [];
    const bus = new DomainEvents();
    bus.subscribe(async (given, events) => {
      expect(given).toBe(manager);
      expect(events).toEqual([soldOut, soldOut]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      calls.push('first');
    });
    bus.subscribe((given) => {
      expect(given).toBe(manager);
      calls.push('second');
      return Promise.resolve();
    });
    await bus.publish(manager, soldOut, soldOut);
    expect(calls).toEqual(['first', 'second']);
  });

  it('calls nobody when nothing is published', async () => {
    const bus = new DomainEvents();
    const listener = jest.fn(() => Promise.resolve());
    bus.subscribe(listener);
    await bus.publish(manager);
    expect(listener).not.toHaveBeenCalled();
  });

  it("fails the write when a listener throws: the later ones do not run and the transaction's rows roll back", async () => {
    const dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      await dataSource.query('CREATE TABLE written (what TEXT)');
      const bus = new DomainEvents();
      const later = jest.fn(() => Promise.resolve());
      bus.subscribe(async (given) => {
        await given.query(`INSERT INTO written (what) VALUES ('notification')`);
      });
      bus.subscribe(() => Promise.reject(new Error('listener failed')));
      bus.subscribe(later);
      await expect(
        dataSource.transaction(async (transaction) => {
          await transaction.query(`INSERT INTO written (what) VALUES ('change')`);
          await bus.publish(transaction, soldOut);
        }),
      ).rejects.toThrow('listener failed');
      expect(later).not.toHaveBeenCalled();
      expect(await dataSource.query('SELECT what FROM written')).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
