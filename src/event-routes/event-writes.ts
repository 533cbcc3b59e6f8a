import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/roles';
import type { RequestContext } from '../auth/request-context';
import type { CreateEventDto } from '../events/dto/create-event.dto';
import type { EventResponse } from '../events/dto/event.response';
import type { UpdateEventDto } from '../events/dto/update-event.dto';
import type { EventSelector } from '../events/event-selector';
import { EventsService } from '../events/events.service';
import { SeriesService } from '../series/series.service';

/**
 * Where an events route's write goes: a create with `recurrence`, and the edits and deletes of an
 * occurrence of a series, to the series module; every other event write to the events module. It
 * sits above both, so neither calls the other back.
 */
@Injectable()
export class EventWrites {
  constructor(
    private readonly events: EventsService,
    private readonly series: SeriesService,
  ) {}

  create(input: CreateEventDto, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    if (input.recurrence !== undefined && input.recurrence !== null) return this.series.create(input, user, context);
    return this.events.create(input, user, context);
  }

  /** `scope` (this, following, all) matters for occurrences of a series only (docs/recurring-events.md). */
  async update(
    selector: EventSelector,
    input: UpdateEventDto,
    user: AuthenticatedUser,
    context: RequestContext,
    scope?: unknown,
  ): Promise<EventResponse> {
    return (await this.series.update(selector, input, scope, user, context)) ?? this.events.update(selector, input, user, context);
  }

  async remove(
    selector: EventSelector,
    force: boolean,
    user: AuthenticatedUser,
    context: RequestContext,
    scope?: unknown,
  ): Promise<EventResponse> {
    return (await this.series.remove(selector, force, scope, user, context)) ?? this.events.remove(selector, force, user, context);
  }
}
