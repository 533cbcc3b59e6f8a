import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { FixedOffsetZone } from 'luxon';
import { Attendee } from '../attendees/attendee.entity';
import { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { formatInZone } from '../common/dates/date-format';
import { wallClockToInstant } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { invalidParam, missingParams } from '../common/errors/api-error';
import { DateFilterEdge, readDateFilter } from '../common/list-filters/date-filter';
import { missingIdsReason } from '../common/list-filters/ids-must-exist';
import { QueryEcho } from '../common/list-filters/query-echo';
import { parseStatusList } from '../common/list-filters/status-list';
import type { RequestContext } from '../auth/request-context';
import { assertPageInRange, countPages, parsePageRequest, totalWithOffset } from '../common/pagination/pagination';
import { POST_STATUSES, PostStatus } from '../posts/post-status';
import { appConfig } from '../config/app.config';
import { Event } from '../events/event.entity';
import type { EventTicketing, EventTicketOffer } from '../events/event-ports';
import { TICKET_SERIES, TicketSeries } from './ticket-ports';
import { availableUnits, PoolCounts } from './capacity';
import { attendeeFieldsColumn, parseAttendeeFields } from '../attendee-questions/attendee-fields';
import { CouponsService } from '../coupons/coupons.service';
import { CapacityService } from './capacity.service';
import { CreateTicketDto, IAC_VALUES } from './dto/create-ticket.dto';
import { DeleteTicketParams } from './dto/delete-ticket.dto';
import { ListTicketsQuery } from './dto/list-tickets.query';
import type { TicketResponse } from './dto/ticket.response';
import { UpdateTicketDto } from './dto/update-ticket.dto';
import { CapacityPlan, isSharedMode, parseTicketPrice, planCapacity, plainTicketText, resolveSaleBoundary } from './ticket-input';
import { CountRange, TicketListFilters } from './ticket-list';
import { resolveProvider } from './ticket-providers';
import { Ticket } from './ticket.entity';
import { TicketResponseKind, TicketView, toTicketResponse } from './tickets.mapper';
import { invalidCommerceModule, ticketHasAttendees, ticketNotAccessible, ticketNotFound, ticketWriteForbidden } from './ticket-errors';
import { isForeignKeyViolation } from '../common/database/transactions';
import { NewCounter, TicketEventFacts, TicketMatch, TicketsRepository } from './tickets.repository';
import { moneyRules } from '../payments/payment-amounts';
import { TransactionHost } from '../common/database/transaction-host';
import { canReadTicket, canSeeHiddenTicket, defaultTicketEventStatuses } from '../access/ticket-access';
import { canManageEvent, managesEveryEvent } from '../access/event-access';
import { ticketAttendeeLists } from '../access/attendee-access';

/** A ticket with what selling it depends on: its event and the event's shared pool (null when none). */
export interface TicketWithEvent {
  ticket: Ticket;
  event: Event;
  pool: PoolCounts | null;
}

export interface TicketPage {
  rest_url: string;
  total: number;
  total_pages: number;
  tickets: TicketResponse[];
}

/** The name as stored: plain text, which must not end up empty. */
function readTicketName(raw: string): string {
  const name = plainTicketText(raw);
  if (name === '') throw invalidParam('name', 'name must not be empty');
  return name;
}

@Injectable()
export class TicketsService implements EventTicketing {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly capacity: CapacityService,
    private readonly tickets: TicketsRepository,
    @Optional() @Inject(TICKET_SERIES) private readonly series: TicketSeries | null,
    private readonly coupons: CouponsService,
  ) {}

  // ---------------------------------------------------------------- reading

  async get(id: number, context: RequestContext, coupon?: string): Promise<TicketResponse> {
    const reveal = coupon ? await this.coupons.revealingScope(coupon, { address: context.clientAddress }) : null;
    const ticket = await this.tickets.ticket(id);
    if (!ticket) throw ticketNotFound();
    const event = await this.tickets.eventOrFail(ticket.eventId);
    if (!canReadTicket(context.user, ticket, event)) throw ticketNotAccessible();
    if (!canSeeHiddenTicket(context.user, ticket, event, reveal)) throw ticketNotFound();
    const [view] = await this.buildViews([ticket], [event], context.user);
    return toTicketResponse(view, context, { currency: this.config.currency, kind: 'single' });
  }

  async list(query: ListTicketsQuery, context: RequestContext): Promise<TicketPage> {
    const paging = parsePageRequest(query, 'tickets');
    const echo = new QueryEcho();
    echo
      .add('page', query.page === undefined ? undefined : paging.page)
      .add('per_page', query.per_page === undefined ? undefined : paging.perPage);
    const filters = await this.readListFilters(query, context.user, echo);
    const reveal = query.coupon ? await this.coupons.revealingScope(query.coupon, { address: context.clientAddress }) : null;

    const match: TicketMatch = { user: context.user, reveal, filters };
    const skipped = query.offset ?? 0;
    // The page first: it reads the generations the cached total is checked against, so that a
    // warm list is one statement fewer. A page past the end reads no row and is refused below.
    const page = await this.tickets.pageMatching(match, skipped + paging.offset, paging.perPage);
    const matching = await this.tickets.countMatching(match);
    const total = totalWithOffset(matching, skipped);
    const totalPages = countPages(total, paging.perPage);
    assertPageInRange(paging.page, totalPages, { kind: 'invalid' });

    const views = total > 0 ? await this.buildViews(page.tickets, page.events, context.user, page.pools) : [];
    return {
      rest_url: echo.url(context.namespaceUrl('tickets', 'tickets/')),
      total,
      total_pages: totalPages,
      tickets: views.map((view) => toTicketResponse(view, context, { currency: this.config.currency, kind: 'list' })),
    };
  }

  /**
   * Tickets by id with their events and pools, for checkout and carts; unknown ids are left out.
   * Pass the transaction's manager to read inside it.
   */
  async findByIds(ids: number[]): Promise<Map<number, TicketWithEvent>> {
    const uniqueIds = [...new Set(ids)];
    if (uniqueIds.length === 0) return new Map();
    const tickets = await this.tickets.tickets(uniqueIds);
    const eventIds = [...new Set(tickets.map((ticket) => ticket.eventId))];
    const [events, pools] = await Promise.all([this.tickets.events(eventIds), this.capacity.pools(eventIds)]);
    const eventsById = new Map(events.map((event) => [event.id, event]));
    return new Map(
      tickets.map((ticket) => [ticket.id, { ticket, event: eventsById.get(ticket.eventId)!, pool: pools.get(ticket.eventId) ?? null }]),
    );
  }

  // ---------------------------------------------------------------- facts for the events namespace

  /** The providers of each event's tickets (events without tickets are absent), paid ones first as the original lists them. */
  async ticketProviders(eventIds: number[]): Promise<Map<number, string[]>> {
    return this.tickets.providersByEvent(eventIds);
  }

  async hasAttendees(eventId: number): Promise<boolean> {
    return this.tickets.eventHasAttendees(eventId);
  }

  /**
   * The event's published tickets in menu order, with whether any unit is left (pending holds count
   * as taken), in one statement (TicketsRepository.offeredTickets).
   */
  async ticketOffers(eventId: number): Promise<EventTicketOffer[]> {
    const { tickets, pool } = await this.tickets.offeredTickets(eventId);
    return tickets.map((ticket) => ({
      priceMinor: ticket.priceMinor,
      saleStartUtc: ticket.saleStartUtc,
      saleEndUtc: ticket.saleEndUtc,
      publishedAt: ticket.publishedAt,
      inStock: availableUnits(CapacityService.stateOf(ticket, pool)) !== 0,
    }));
  }

  // ---------------------------------------------------------------- writing

  /**
   * `scope=all` on an occurrence of a series: the ticket is created on every occurrence that has
   * not ended (each with its own capacity) and on those the series gets later (docs/recurring-events.md).
   */
  async create(input: CreateTicketDto, user: AuthenticatedUser, context: RequestContext, scope?: unknown): Promise<TicketResponse> {
    if (scope !== undefined && scope !== '' && scope !== 'this' && scope !== 'all')
      throw invalidParam('scope', 'scope must be this or all');
    return this.tx.run(async () => {
      if (scope !== 'all') return this.present(await this.createWithin(input, user), context, 'write');
      const targets = this.series ? await this.series.ticketTargets(input.post_id) : null;
      if (!targets) throw invalidParam('scope', 'scope=all applies to occurrences of a series; this event is none');
      const events = await this.tickets.eventsById(targets);
      const copies = await this.createCopiesWithin(
        input,
        targets.flatMap((eventId) => events.get(eventId) ?? []),
        user,
      );
      const created = copies.get(input.post_id) ?? 0;
      await this.series!.rememberTicket(input.post_id, input);
      // The response is read inside the transaction: what was written, even if another request
      // deletes the ticket the moment this one commits.
      return this.present(created, context, 'write');
    });
  }

  /** The single-ticket create inside the caller's transaction; series copy their tickets through it. */
  async createWithin(input: CreateTicketDto, user: AuthenticatedUser): Promise<number> {
    const provider = resolveProvider(input.provider);
    if (!provider) throw invalidCommerceModule();
    const event = await this.tickets.event(input.post_id);
    if (!event) throw invalidParam('post_id', `post_id refers to no event: ${input.post_id}`);
    const priceMinor = provider === 'tc' ? parseTicketPrice(input.price, moneyRules(this.config)) : 0;
    const poolExists = await this.tickets.hasPool(event.id);
    const plan = planCapacity(input.ticket, null, poolExists)!;
    const window = this.saleWindow(input, event, null);
    const name = readTicketName(input.name);
    if (!canManageEvent(user, event)) throw ticketWriteForbidden();

    if (plan.eventCapacity !== null) await this.tickets.setPoolCapacity(event.id, plan.eventCapacity);
    const description = input.description ? plainTicketText(input.description) : null;
    const row = newTicketRow(
      input,
      { eventId: event.id, authorId: user.id, provider, name, description, priceMinor, plan, window },
      this.clock.now(),
    );
    const ticketId = await this.tickets.insertTicket(row);
    await this.capacity.createCounter({ id: ticketId, capacityMode: plan.mode, capacity: plan.capacity });
    return ticketId;
  }

  /**
   * The same ticket on many events (the occurrences of a series) inside the caller's transaction:
   * what `createWithin` checks and writes for each event, in a number of statements that does not
   * grow with their number (multi-row INSERTs, see insertInSlices). Answers each event's new
   * ticket id.
   */
  async createCopiesWithin(
    input: Omit<CreateTicketDto, 'post_id'>,
    events: Event[],
    user: AuthenticatedUser,
  ): Promise<Map<number, number>> {
    if (events.length === 0) return new Map();
    const provider = resolveProvider(input.provider);
    if (!provider) throw invalidCommerceModule();
    const priceMinor = provider === 'tc' ? parseTicketPrice(input.price, moneyRules(this.config)) : 0;
    const eventIds = events.map((event) => event.id);
    const pooled = await this.tickets.pooledEventIds(eventIds);
    const now = this.clock.now();
    const description = input.description ? plainTicketText(input.description) : null;
    let name: string | undefined;
    const pools = new Map<number, number[]>();
    const rows = events.map((event) => {
      // Checked in createWithin's order, so that a bad input answers the same error.
      const plan = planCapacity(input.ticket, null, pooled.has(event.id))!;
      const window = this.saleWindow(input as CreateTicketDto, event, null);
      name ??= readTicketName(input.name);
      if (!canManageEvent(user, event)) throw ticketWriteForbidden();
      if (plan.eventCapacity !== null) pools.set(plan.eventCapacity, [...(pools.get(plan.eventCapacity) ?? []), event.id]);
      return newTicketRow(input, { eventId: event.id, authorId: user.id, provider, name, description, priceMinor, plan, window }, now);
    });
    // setPoolCapacity for each event that gets a pool capacity, grouped by the capacity.
    for (const [capacity, ids] of pools) await this.tickets.setPoolCapacities(ids, capacity);
    await this.tickets.insertTickets(rows);
    // The new tickets are those of these events without a counter: every other ticket got its
    // counter in the transaction that created it, and ids of a multi-row INSERT are not known.
    const created = new Map<number, number>();
    const counters: NewCounter[] = [];
    for (const ticket of await this.tickets.ticketsWithoutCounter(eventIds)) {
      created.set(ticket.eventId, ticket.id);
      counters.push({ ticketId: ticket.id, capacityMode: ticket.capacityMode, capacity: ticket.capacity, sold: 0, pending: 0 });
    }
    await this.tickets.insertCounters(counters);
    return created;
  }

  async update(id: number, input: UpdateTicketDto, user: AuthenticatedUser, context: RequestContext): Promise<TicketResponse> {
    // The response is read inside the transaction (see create).
    return this.tx.run(async () => {
      const { ticket, event } = await this.findForWrite(id, input.post_id, user);
      const changes: Partial<Ticket> = {};
      if (input.price !== undefined && ticket.provider === 'tc')
        changes.priceMinor = parseTicketPrice(input.price, moneyRules(this.config));
      const poolExists = await this.tickets.hasPool(event.id);
      const plan = planCapacity(input.ticket, { mode: ticket.capacityMode, capacity: ticket.capacity }, poolExists);
      const window = this.saleWindow(input, event, ticket);
      if (input.name !== undefined) changes.name = readTicketName(input.name);
      if (!canManageEvent(user, event)) throw ticketWriteForbidden();
      Object.assign(changes, optionalFieldChanges(input));
      if (window.start !== undefined) changes.saleStartUtc = window.start;
      if (window.end !== undefined) changes.saleEndUtc = window.end;
      if (plan) {
        if (plan.eventCapacity !== null) await this.tickets.setPoolCapacity(event.id, plan.eventCapacity);
        await this.moveCountsBetweenPools(ticket, plan.mode);
        await this.capacity.setCounterLimit(ticket.id, { capacityMode: plan.mode, capacity: plan.capacity });
        changes.capacityMode = plan.mode;
        changes.capacity = plan.capacity;
      }
      // Only the columns written here (sold and pending live in the counter, moved by CapacityService).
      await this.tickets.updateTicket(ticket.id, { ...changes, updatedAt: this.clock.now() });
      // A raised cap (or a waitlist switched on) may free units for the waitlist: offered in this transaction.
      if (plan || input.waitlist || input.waitlist_auto_offer) await this.capacity.unitsMayBeFree([ticket.id]);
      return this.present(ticket.id, context, 'write');
    });
  }

  async remove(
    id: number,
    body: DeleteTicketParams,
    query: DeleteTicketParams,
    user: AuthenticatedUser,
    context: RequestContext,
  ): Promise<TicketResponse> {
    const postId = body.post_id ?? query.post_id;
    if (postId === undefined) throw missingParams(['post_id']);
    return this.tx.run(async () => {
      const { ticket, event } = await this.findForWrite(id, postId, user);
      if (!canManageEvent(user, event)) throw ticketWriteForbidden();
      if (await this.tickets.ticketInUse(ticket.id)) throw ticketHasAttendees();
      const [view] = await this.buildViews([ticket], [event], user);
      const response = toTicketResponse(view, context, { currency: this.config.currency, kind: 'write' });
      await this.moveCountsBetweenPools(ticket, 'own');
      try {
        await this.tickets.deleteTicket(ticket.id);
      } catch (error) {
        // An order taken between the check and the delete keeps the ticket.
        if (isForeignKeyViolation(error)) throw ticketHasAttendees();
        throw error;
      }
      return response;
    });
  }

  // ---------------------------------------------------------------- helpers

  private async present(id: number, context: RequestContext, kind: TicketResponseKind): Promise<TicketResponse> {
    const ticket = await this.tickets.ticketOrFail(id);
    const event = await this.tickets.eventOrFail(ticket.eventId);
    const [view] = await this.buildViews([ticket], [event], context.user);
    return toTicketResponse(view, context, { currency: this.config.currency, kind });
  }

  /**
   * A ticket about to be changed, locked against concurrent writes: it must exist (404), be
   * readable by the caller (401) and belong to `postId` (400).
   */
  private async findForWrite(id: number, postId: number, user: AuthenticatedUser): Promise<{ ticket: Ticket; event: Event }> {
    const ticket = await this.tickets.lockTicket(id);
    if (!ticket) throw ticketNotFound();
    const event = await this.tickets.eventOrFail(ticket.eventId);
    if (!canReadTicket(user, ticket, event)) throw ticketNotAccessible();
    if (postId !== ticket.eventId) throw invalidParam('post_id', `post_id must be the event of ticket ${ticket.id}`);
    return { ticket, event };
  }

  /**
   * The page's pools (unless known) and visible attendees in up to two queries. Managers of an event see
   * every attendee of its tickets; others only public ones of events that show their list:
   * published, not opted out, going, with a completed order.
   */
  private async buildViews(
    tickets: Ticket[],
    events: TicketEventFacts[],
    user: AuthenticatedUser | undefined,
    knownPools?: Map<number, PoolCounts>,
  ): Promise<TicketView[]> {
    if (tickets.length === 0) return [];
    const eventsById = new Map(events.map((event) => [event.id, event]));
    const pools = knownPools ?? (await this.capacity.pools([...eventsById.keys()]));
    const lists = ticketAttendeeLists(user, tickets, eventsById);
    const attendees = await this.tickets.visibleAttendees(lists);
    const attendeesByTicket = new Map<number, Attendee[]>();
    for (const attendee of attendees) {
      const list = attendeesByTicket.get(attendee.ticketId) ?? [];
      list.push(attendee);
      attendeesByTicket.set(attendee.ticketId, list);
    }
    const managed = new Set(lists.managedIds);
    return tickets.map((ticket) => ({
      ticket,
      event: eventsById.get(ticket.eventId)!,
      pool: pools.get(ticket.eventId) ?? null,
      attendees: attendeesByTicket.get(ticket.id) ?? [],
      manage: managed.has(ticket.id),
    }));
  }

  /**
   * A ticket joining the event pool brings its sold and pending units into the pool's counts;
   * one leaving it (or deleted) takes them out. Its counter row is locked first, so its counts
   * cannot move meanwhile.
   */
  private async moveCountsBetweenPools(ticket: Ticket, newMode: Ticket['capacityMode']): Promise<void> {
    const wasShared = isSharedMode(ticket.capacityMode);
    const nowShared = isSharedMode(newMode);
    if (wasShared === nowShared) return;
    const counts = await this.capacity.lockCounts(ticket.id);
    if (counts.sold === 0 && counts.pending === 0) return;
    await this.tickets.movePoolCounts(ticket.eventId, counts, nowShared ? 'join' : 'leave');
  }

  /**
   * The sale window of a write as instants; undefined members are left as they are. Dates are read
   * in the event's time zone. Defaults on create: from the event's publication day to its start.
   */
  private saleWindow(
    input: UpdateTicketDto | CreateTicketDto,
    event: Event,
    ticket: Ticket | null,
  ): { start?: Date | null; end?: Date | null } {
    const zone = resolveTimeZone(event.timezone) ?? FixedOffsetZone.utcInstance;
    const isUpdate = ticket !== null;
    const local = (instant: Date | null) => (instant ? formatInZone(instant, zone) : null);
    const startBase = isUpdate ? local(ticket.saleStartUtc) : `${formatInZone(event.publishedAt, zone).slice(0, 10)} 00:00:00`;
    const endBase = isUpdate ? local(ticket.saleEndUtc) : event.startLocal;
    const startSent = input.start_date !== undefined || input.start_time !== undefined;
    const endSent = input.end_date !== undefined || input.end_time !== undefined;

    const startLocal = resolveSaleBoundary(
      { date: input.start_date, time: input.start_time, dateField: 'start_date', timeField: 'start_time' },
      startBase,
      isUpdate,
      '00:00:00',
    );
    const endLocal = resolveSaleBoundary(
      { date: input.end_date, time: input.end_time, dateField: 'end_date', timeField: 'end_time' },
      endBase,
      isUpdate,
      '23:59:59',
    );
    const start = startLocal ? wallClockToInstant(startLocal, zone) : null;
    const end = endLocal ? wallClockToInstant(endLocal, zone) : null;
    if (start && end && end.getTime() < start.getTime()) throw invalidParam('end_date', 'the sale cannot end before it starts');
    if (!isUpdate) return { start, end };
    return { ...(startSent ? { start } : {}), ...(endSent ? { end } : {}) };
  }

  /** Reads and checks the list filters; what was recognised is added to `echo` for `rest_url`. */
  private async readListFilters(query: ListTicketsQuery, user: AuthenticatedUser | undefined, echo: QueryEcho): Promise<TicketListFilters> {
    const filters: TicketListFilters = {
      ...readSearchAndOrder(query, echo),
      ...(await readIdFilters(this.tickets, query, echo)),
      // Counts and capacities are the business of those who run events; the original ignores them for others.
      ...(managesEveryEvent(user) ? readCountRanges(query, echo) : {}),
      ...readDateFilters(query, echo),
      eventStatuses: readStatusFilter(query.post_status, 'post_status', echo, defaultTicketEventStatuses(user)),
      ticketStatuses: readStatusFilter(query.status, 'status', echo, ['publish']),
      matchNothing: false,
    };
    if (query.currency !== undefined) {
      const codes = query.currency.map((code) => code.trim().toUpperCase());
      const invalid = codes.find((code) => !/^[A-Z]{3}$/.test(code));
      if (invalid !== undefined) throw invalidParam('currency', 'currency must hold ISO 4217 codes such as USD');
      if (!codes.includes(this.config.currency.code)) filters.matchNothing = true;
      echo.add('currency', codes);
    }
    if (query.attendee_information_available !== undefined) {
      // Tickets that ask attendee questions (src/attendee-questions) store their fields; the others NULL.
      filters.attendeeInformation = query.attendee_information_available;
      echo.add('attendee_information_available', query.attendee_information_available);
    }
    return filters;
  }
}

type ListFilterPart = Partial<TicketListFilters>;

function readSearchAndOrder(query: ListTicketsQuery, echo: QueryEcho): ListFilterPart & Pick<TicketListFilters, 'order' | 'orderBy'> {
  const search = query.search?.trim() || undefined;
  echo.add('search', search).add('offset', query.offset).add('order', query.order).add('orderby', query.orderby);
  echo.add('is_available', query.is_available);
  echo.add('provider', query.provider);
  return {
    search,
    order: query.order ?? 'ASC',
    orderBy: query.orderby ?? 'title',
    isAvailable: query.is_available,
    providers: query.provider && [...new Set(query.provider.map(resolveProvider).filter((provider) => provider !== null))],
  };
}

/**
 * Ticket ids filter as the original's post__in and post__not_in do: ids that name nothing match
 * nothing. Event ids must each name an event (else 400 naming the field).
 */
async function readIdFilters(tickets: TicketsRepository, query: ListTicketsQuery, echo: QueryEcho): Promise<ListFilterPart> {
  const named = (ids: number[] | undefined) => (ids?.length ? ids : undefined);
  for (const field of ['include_post', 'exclude_post'] as const) {
    if (!named(query[field])) continue;
    const missing = await tickets.missingEventIds(query[field]!);
    if (missing.length > 0) throw invalidParam(field, missingIdsReason(field, missing));
  }
  echo
    .add('include', query.include)
    .add('exclude', query.exclude)
    .add('include_post', query.include_post)
    .add('exclude_post', query.exclude_post);
  return {
    include: named(query.include),
    exclude: named(query.exclude),
    includePost: named(query.include_post),
    excludePost: named(query.exclude_post),
  };
}

function readCountRanges(query: ListTicketsQuery, echo: QueryEcho): ListFilterPart {
  const range = (name: string, min: number | undefined, max: number | undefined): CountRange | undefined => {
    echo.add(`${name}_min`, min).add(`${name}_max`, max);
    return min === undefined && max === undefined ? undefined : { min, max };
  };
  return {
    attendees: range('attendees', query.attendees_min, query.attendees_max),
    checkedIn: range('checkedin', query.checkedin_min, query.checkedin_max),
    capacity: range('capacity', query.capacity_min, query.capacity_max),
  };
}

/** Creation and sale dates, read in UTC. */
function readDateFilters(query: ListTicketsQuery, echo: QueryEcho): ListFilterPart {
  const read = (field: 'after' | 'before' | 'available_from' | 'available_until', edge: DateFilterEdge) => {
    const filter = readDateFilter(query[field], field, FixedOffsetZone.utcInstance, edge);
    if (filter) echo.add(field, query[field]!.trim());
    return filter?.instant;
  };
  return {
    createdFrom: read('after', 'from'),
    createdUntil: read('before', 'until'),
    saleStartsFrom: read('available_from', 'from'),
    saleEndsUntil: read('available_until', 'until'),
  };
}

/** Post statuses or `any` (null: everything but trash); `absent` when none is asked for. */
function readStatusFilter(raw: string[] | undefined, field: string, echo: QueryEcho, absent: PostStatus[] | null): PostStatus[] | null {
  const statuses = parseStatusList(raw, field, { allowed: POST_STATUSES, acceptsAny: true });
  if (statuses === undefined) return absent;
  echo.add(
    field,
    raw!.map((value) => value.trim().toLowerCase()),
  );
  return statuses === 'any' ? null : statuses;
}

/** What a new ticket's row is made of besides the input: worked out once per create, or once per series. */
interface NewTicketParts {
  eventId: number;
  authorId: number;
  provider: Ticket['provider'];
  name: string;
  description: string | null;
  priceMinor: number;
  plan: CapacityPlan;
  window: { start?: Date | null; end?: Date | null };
}

/** The row a ticket create inserts, for one event or for each occurrence of a series. */
function newTicketRow(input: Omit<CreateTicketDto, 'post_id'>, parts: NewTicketParts, now: Date): Partial<Ticket> {
  return {
    eventId: parts.eventId,
    authorId: parts.authorId,
    provider: parts.provider,
    status: 'publish',
    name: parts.name,
    description: parts.description,
    priceMinor: parts.priceMinor,
    sku: input.sku?.trim() || null,
    iac: input.iac || 'none',
    showDescription: input.show_description ?? true,
    hiddenWithoutCoupon: input.hidden_without_coupon ?? false,
    attendeeInformationFields:
      input.attendee_information_fields === undefined ? null : attendeeFieldsColumn(parseAttendeeFields(input.attendee_information_fields)),
    menuOrder: input.menu_order ?? 0,
    waitlist: input.waitlist ?? false,
    waitlistAutoOffer: input.waitlist_auto_offer ?? true,
    saleStartUtc: parts.window.start ?? null,
    saleEndUtc: parts.window.end ?? null,
    capacityMode: parts.plan.mode,
    capacity: parts.plan.capacity,
    publishedAt: now,
    createdAt: now,
    updatedAt: now,
  };
}

/** The optional fields an update sends, as column changes (those left out keep their values). */
function optionalFieldChanges(input: UpdateTicketDto): Partial<Ticket> {
  const changes: Partial<Ticket> = {};
  // JSON null clears these optional texts, as "" does.
  if (input.description !== undefined) changes.description = input.description === null ? null : plainTicketText(input.description) || null;
  if (input.sku !== undefined) changes.sku = input.sku?.trim() || null;
  if (input.iac !== undefined) changes.iac = input.iac || IAC_VALUES[0];
  if (input.show_description !== undefined) changes.showDescription = input.show_description;
  if (input.hidden_without_coupon !== undefined) changes.hiddenWithoutCoupon = input.hidden_without_coupon;
  if (input.attendee_information_fields !== undefined)
    changes.attendeeInformationFields = attendeeFieldsColumn(parseAttendeeFields(input.attendee_information_fields));
  if (input.menu_order !== undefined) changes.menuOrder = input.menu_order;
  if (input.waitlist !== undefined) changes.waitlist = input.waitlist;
  if (input.waitlist_auto_offer !== undefined) changes.waitlistAutoOffer = input.waitlist_auto_offer;
  return changes;
}
