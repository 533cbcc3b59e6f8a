import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { RequestContext, SignedInContext } from '../auth/request-context';
import { CLOCK, Clock } from '../common/clock';
import { EventWrites } from '../event-routes/event-writes';
import type { CreateEventDto } from '../events/dto/create-event.dto';
import type { EventResponse } from '../events/dto/event.response';
import type { ListEventsQuery } from '../events/dto/list-events.query';
import type { UpdateEventDto } from '../events/dto/update-event.dto';
import { EventListExtras, EventReads } from '../catalogue/event-reads.service';
import { TecEventResponse } from './dto/tec-post.response';
import { toTecEvent } from './tec-posts.mapper';
import { createEventBody, eventsQuery } from './tec-requests';
import { asTec, pageNumber, parseJsonItems, parseJsonText, TecPage } from './tec-responses';

/**
 * tec/v1's events: the events namespace's reads and writes (EventReads, EventWrites, with
 * every rule they hold), shown in the WordPress post shape.
 */
@Injectable()
export class TecEventsService {
  constructor(
    private readonly reads: EventReads,
    private readonly writes: EventWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private now(): DateTime {
    return DateTime.fromJSDate(this.clock.now(), { zone: 'UTC' });
  }

  list(query: ListEventsQuery, extras: EventListExtras, context: RequestContext): Promise<TecPage<TecEventResponse>> {
    return asTec(
      'read',
      async () => {
        const page = await this.reads.list(query, context, extras);
        const now = this.now();
        return {
          items: parseJsonItems<EventResponse>(page.events.items).map((event) => toTecEvent(event, context, now)),
          page: pageNumber(query),
          total: page.total,
          totalPages: page.totalPages,
        };
      },
      eventsQuery.tecName,
    );
  }

  get(id: number, context: RequestContext): Promise<TecEventResponse> {
    return asTec('read', async () =>
      toTecEvent(await parseJsonText<EventResponse>(await this.reads.get({ id }, context)), context, this.now()),
    );
  }

  create(input: CreateEventDto, context: SignedInContext): Promise<TecEventResponse> {
    return asTec(
      'created',
      async () => toTecEvent(await this.writes.create(input, context.user, context), context, this.now()),
      createEventBody.tecName,
    );
  }

  update(id: number, input: UpdateEventDto, context: SignedInContext): Promise<TecEventResponse> {
    return asTec(
      'updated',
      async () => toTecEvent(await this.writes.update({ id }, input, context.user, context), context, this.now()),
      createEventBody.tecName,
    );
  }

  /** Trashes the event, or deletes it with `force`; TEC answers `[]`. */
  async remove(id: number, force: boolean, context: SignedInContext): Promise<[]> {
    await asTec('deleted', () => this.writes.remove({ id }, force, context.user, context));
    return [];
  }
}
