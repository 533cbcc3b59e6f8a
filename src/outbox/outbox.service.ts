import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { EventType } from './event-types';
import { OutboxRepository } from './outbox.repository';

/** A notification's data: flat values, and lists of ids (bounded: see MAX_OCCURRENCES_PER_WRITE for series). */
export type EventData = Record<string, string | number | boolean | null | number[]>;

/** A message for one recipient or endpoint, written by the worker's fan-out or by a resend or redeliver. */
export interface DirectMessage {
  channel: 'email' | 'webhook';
  type: string;
  payload: string;
  recipient?: string | null;
  endpointId?: number | null;
  messageId?: string | null;
}

/**
 * Writes into the outbox with the caller's transaction manager, in the same transaction as the
 * change that causes it: a rollback writes nothing, a commit is delivered by the worker
 * (src/outbox-worker/) even if the process dies right after it. Features do not write
 * notifications themselves: they publish domain events, which OutboxNotifications turns into
 * notifications (outbox-notifications.ts); `queue` is for messages to one recipient or endpoint.
 */
@Injectable()
export class OutboxService {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: OutboxRepository,
  ) {}

  /** Notifications of several types, in one INSERT, in the order given. */
  async publishAll(events: Array<{ type: EventType; data: EventData }>): Promise<void> {
    if (events.length === 0) return;
    const now = this.clock.now();
    await this.repository.insert(
      events.map(({ type, data }) => ({
        channel: 'event' as const,
        type,
        payload: JSON.stringify(data),
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
  }

  /** Email or webhook messages, due now, in one INSERT. */
  async queue(messages: DirectMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const now = this.clock.now();
    await this.repository.insert(
      messages.map((message) => ({
        channel: message.channel,
        type: message.type,
        payload: message.payload,
        recipient: message.recipient ?? null,
        endpointId: message.endpointId ?? null,
        messageId: message.messageId ?? null,
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
  }
}
