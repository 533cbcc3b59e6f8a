import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import type { RequestContext } from '../auth/request-context';
import type { CreateEventDto } from './dto/create-event.dto';
import type { UpdateEventDto } from './dto/update-event.dto';
import type { EventResponse, Recurrence } from './dto/event.response';
import type { EventSelector } from './event-selector';

/** What an occurrence's response shows of its series. */
export interface EventSeriesFacts {
  seriesId: number;
  recurrence: Recurrence;
}

/**
 * What the series module does for the events routes: creating a series (a create with
 * `recurrence`), edits and deletes of occurrences with a scope, and each event's series. `update`
 * and `remove` answer null for an event outside any series, which the events service then handles.
 */
export interface EventSeriesHandler {
  create(input: CreateEventDto, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse>;
  update(
    selector: EventSelector,
    input: UpdateEventDto,
    scope: unknown,
    user: AuthenticatedUser,
    context: RequestContext,
  ): Promise<EventResponse | null>;
  remove(
    selector: EventSelector,
    force: boolean,
    scope: unknown,
    user: AuthenticatedUser,
    context: RequestContext,
  ): Promise<EventResponse | null>;
  seriesOf(eventIds: number[], manager: EntityManager): Promise<Map<number, EventSeriesFacts>>;
  /** The occurrences a ticket created with scope=all goes to (those not trashed nor ended, and this one); null outside a series. */
  ticketTargets(eventId: number, manager: EntityManager): Promise<number[] | null>;
  /** Keeps a ticket created with scope=all for the occurrences the series gets later. */
  rememberTicket(eventId: number, ticket: object, manager: EntityManager): Promise<void>;
  /** Throws a 400 naming `series` when no series has this id. */
  assertSeriesExists(seriesId: number): Promise<void>;
}

/** Extension point filled by the series module at start-up, so that the events module does not depend on it. */
@Injectable()
export class EventSeriesHooks {
  handler: EventSeriesHandler | null = null;

  register(handler: EventSeriesHandler): void {
    this.handler = handler;
  }

  async seriesOf(eventIds: number[], manager: EntityManager): Promise<Map<number, EventSeriesFacts>> {
    if (!this.handler || eventIds.length === 0) return new Map();
    return this.handler.seriesOf(eventIds, manager);
  }
}
