import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { parseDateInput } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { forbidden, invalidParam } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { CheckinList } from './checkin-list.entity';
import { checkinListHasCheckins, checkinListIsDefault, checkinListNotFound } from './checkin-errors';
import { toCheckinListResponse, toGateCounts } from './checkin.mapper';
import { ListCounts, NO_COUNTS } from './door-counts';
import { CheckinListFilter, CheckinRepository, DoorEvent } from './checkin.repository';
import { generateSyncKey } from './checkin-secrets';
import { DoorListCache } from './door-lists.cache';
import { CheckinListPage, CheckinListResponse, ListStatusResponse } from './dto/checkin.response';
import { CreateCheckinListDto, ListCheckinListsQuery, UpdateCheckinListDto } from './dto/checkin-list.dto';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent } from '../access/event-access';
import { assertMayScan, doorListScope } from '../access/door-access';
import type { DoorCaller } from './door-route';

/** Reads a window bound: ISO 8601 with an offset, or wall-clock time in the site time zone; null/"" clear it. */
export function readInstant(raw: string | null | undefined, field: string, context: RequestContext): Date | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw.trim() === '') return null;
  const parsed = parseDateInput(raw, resolveTimeZone(context.siteTimezone) ?? resolveTimeZone('UTC')!);
  if (!parsed) throw invalidParam(field, `${field} must be an ISO 8601 date-time or YYYY-MM-DD HH:MM:SS`);
  return parsed.instant;
}

/**
 * Check-in lists: written by the managers of their event; read by them, by door staff and by the
 * devices of the list. Every event has a default list (`is_default`), created on first use.
 */
@Injectable()
export class CheckinListsService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: CheckinRepository,
    private readonly doorLists: DoorListCache,
  ) {}

  async create(input: CreateCheckinListDto, user: AuthenticatedUser, context: RequestContext): Promise<CheckinListResponse> {
    const event = await this.repository.event(input.post_id);
    if (!event) throw invalidParam('post_id', 'post_id must be an existing event');
    const values = await this.listValues(event.id, input, context);
    if (!canManageEvent(user, event)) throw forbidden(false, 'Sorry, you are not allowed to manage check-in of this event.');
    return this.tx.run(async () => {
      await this.repository.ensureDefaultList(event.id);
      const list = await this.repository.insertList({
        eventId: event.id,
        name: input.name,
        defaultEventId: null,
        syncKey: generateSyncKey(),
        ticketIds: '[]',
        ...values,
      });
      return toCheckinListResponse(list, (await this.repository.counts([list])).get(list.id) ?? NO_COUNTS, event);
    });
  }

  /**
   * Lists the caller may see: a device its own, door staff and those managing every event all,
   * authors their events'. Naming an event creates its default list if it has none yet.
   */
  async list(query: ListCheckinListsQuery, caller: DoorCaller): Promise<CheckinListPage> {
    if (query.post_id !== undefined) {
      const event = await this.repository.event(query.post_id);
      if (!event) throw invalidParam('post_id', 'post_id must be an existing event');
      await this.repository.ensureDefaultList(event.id);
    }
    const scope = doorListScope(caller);
    if (!scope) throw forbidden(false, 'Sorry, you are not allowed to see check-in lists.');
    const filter: CheckinListFilter = { eventId: query.post_id };
    if (scope.kind === 'ids') filter.ids = scope.ids;
    if (scope.kind === 'managed') filter.managedBy = scope.user;
    if (scope.kind === 'events') filter.eventIds = scope.eventIds;
    const lists = await this.repository.listLists(filter);
    const counts = await this.repository.counts(lists);
    const events = new Map((await this.repository.events(lists.map((list) => list.eventId))).map((event) => [event.id, event]));
    return {
      checkin_lists: lists.map((list) =>
        toCheckinListResponse(list, counts.get(list.id) ?? NO_COUNTS, events.get(list.eventId) as DoorEvent),
      ),
      total: lists.length,
    };
  }

  async get(id: number, caller: DoorCaller): Promise<CheckinListResponse> {
    const { list, event } = await this.readable(id, caller);
    return toCheckinListResponse(list, (await this.repository.counts([list])).get(list.id) ?? NO_COUNTS, event);
  }

  async status(id: number, caller: DoorCaller): Promise<ListStatusResponse> {
    const { list, event } = await this.readable(id, caller);
    const perTicket = (await this.repository.ticketCounts([list])).get(list.id) ?? new Map<number, ListCounts>();
    const tickets = await this.repository.tickets(list.eventId);
    const counts = (await this.repository.counts([list])).get(list.id) ?? NO_COUNTS;
    const admitted = new Set(JSON.parse(list.ticketIds ?? '[]') as number[]);
    const gates = await this.repository.gateCounts(list.id);
    return {
      list: toCheckinListResponse(list, counts, event),
      tickets: tickets
        .filter((ticket) => admitted.size === 0 || admitted.has(ticket.id))
        .map((ticket) => {
          const ticketCounts = perTicket.get(ticket.id) ?? NO_COUNTS;
          return {
            ticket_id: ticket.id,
            title: ticket.name,
            position_count: ticketCounts.position,
            checkin_count: ticketCounts.checkin,
            inside_count: ticketCounts.inside,
          };
        }),
      gates: toGateCounts(gates),
    };
  }

  async update(id: number, input: UpdateCheckinListDto, user: AuthenticatedUser, context: RequestContext): Promise<CheckinListResponse> {
    const { list, event } = await this.managed(id, user);
    const values = await this.listValues(event.id, input, context);
    const startsAt = values.startsAt === undefined ? list.startsAt : values.startsAt;
    const endsAt = values.endsAt === undefined ? list.endsAt : values.endsAt;
    if (startsAt && endsAt && endsAt < startsAt) throw invalidParam('ends_at', 'ends_at must not be before starts_at');
    return this.tx
      .run(async () => {
        await this.repository.updateList(id, {
          ...values,
          ...(input.name !== undefined ? { name: input.name } : {}),
          updatedAt: this.clock.now(),
        });
        const updated = (await this.repository.findList(id)) as CheckinList;
        return toCheckinListResponse(updated, (await this.repository.counts([updated])).get(id) ?? NO_COUNTS, event);
      })
      .finally(() => this.doorLists.forget(id));
  }

  async remove(id: number, user: AuthenticatedUser): Promise<CheckinListResponse> {
    const { list, event } = await this.managed(id, user);
    if (list.defaultEventId !== null) throw checkinListIsDefault();
    return this.tx
      .run(async () => {
        if (await this.repository.hasCheckins(id)) throw checkinListHasCheckins();
        const response = toCheckinListResponse(list, (await this.repository.counts([list])).get(id) ?? NO_COUNTS, event);
        await this.repository.deleteList(id);
        return response;
      })
      .finally(() => this.doorLists.forget(id));
  }

  // ---------------------------------------------------------------- access

  /** The list and its event, for a caller who may scan on it (404 unknown, 403 otherwise). */
  async readable(id: number, caller: DoorCaller): Promise<{ list: CheckinList; event: DoorEvent }> {
    const list = await this.repository.findList(id);
    if (!list) throw checkinListNotFound();
    const event = (await this.repository.event(list.eventId)) as DoorEvent;
    assertMayScan(caller, list, event);
    return { list, event };
  }

  private async managed(id: number, user: AuthenticatedUser): Promise<{ list: CheckinList; event: DoorEvent }> {
    const list = await this.repository.findList(id);
    if (!list) throw checkinListNotFound();
    const event = (await this.repository.event(list.eventId)) as DoorEvent;
    if (!canManageEvent(user, event)) throw forbidden(false, 'Sorry, you are not allowed to manage check-in of this event.');
    return { list, event };
  }

  /** The columns a create or update sets, checked: tickets of the event, a window that ends after it starts. */
  private async listValues(eventId: number, input: UpdateCheckinListDto, context: RequestContext): Promise<Partial<CheckinList>> {
    const values: Partial<CheckinList> = {};
    if (input.ticket_ids !== undefined) {
      const ids = [...new Set(input.ticket_ids)];
      if (ids.length > 0) {
        const found = await this.repository.countEventTickets(eventId, ids);
        if (found !== ids.length) throw invalidParam('ticket_ids', 'ticket_ids must be tickets of the list’s event');
      }
      values.ticketIds = JSON.stringify(ids.sort((a, b) => a - b));
    }
    if (input.include_pending !== undefined) values.includePending = input.include_pending;
    if (input.allow_multiple_entries !== undefined) values.allowMultipleEntries = input.allow_multiple_entries;
    if (input.allow_entry_after_exit !== undefined) values.allowEntryAfterExit = input.allow_entry_after_exit;
    if (input.allow_sales !== undefined) values.allowSales = input.allow_sales;
    const startsAt = readInstant(input.starts_at, 'starts_at', context);
    const endsAt = readInstant(input.ends_at, 'ends_at', context);
    if (startsAt !== undefined) values.startsAt = startsAt;
    if (endsAt !== undefined) values.endsAt = endsAt;
    if (startsAt && endsAt && endsAt < startsAt) throw invalidParam('ends_at', 'ends_at must not be before starts_at');
    return values;
  }
}
