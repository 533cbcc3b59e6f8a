import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from './domain-event';

/** Reacts to what a write published, with the writer's transaction manager. */
export type DomainEventListener = (manager: EntityManager, events: readonly DomainEvent[]) => Promise<void>;

/**
 * Writes publish what happened here instead of calling whatever must follow (the outbox's
 * notifications, ...); those subscribe at module init. `publish` runs inside the writer's
 * transaction and awaits every listener in the order they subscribed: what a listener writes with
 * `manager` commits or rolls back with the write, and a listener that throws fails the write.
 */
@Injectable()
export class DomainEvents {
  private readonly listeners: DomainEventListener[] = [];

  subscribe(listener: DomainEventListener): void {
    this.listeners.push(listener);
  }

  async publish(manager: EntityManager, ...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const listener of this.listeners) await listener(manager, events);
  }
}
