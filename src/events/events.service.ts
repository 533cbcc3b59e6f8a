import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { User } from '../auth/user.entity';
import type { AuthenticatedUser } from '../auth/roles';
import { CategoriesService } from '../categories/categories.service';
import { CLOCK, Clock } from '../common/clock';
import { formatInZone } from '../common/dates/date-format';
import { parseDateInput, wallClockToInstant, withTimeOfDay } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { TransactionOptions } from '../common/database/transactions';
import { DomainEvents } from '../common/domain-events/domain-events';
import { invalidParam } from '../common/errors/api-error';
import type { RequestContext } from '../auth/request-context';
import { assertIdsExist } from '../common/list-filters/ids-must-exist';
import { assertCanCreatePost, assertCanDelete, assertCanEdit, canAssignAuthor, resolveWriteStatus } from '../access/post-access';
import { trashOrRemove } from '../posts/post-lifecycle';
import { sanitizeRichText } from '../posts/rich-text';
import { appConfig } from '../config/app.config';
import { OrganizersService } from '../organizers/organizers.service';
import { TagsService } from '../tags/tags.service';
import { VenuesService } from '../venues/venues.service';
import { CreateEventDto } from './dto/create-event.dto';
import type { EventResponse } from './dto/event.response';
import { UpdateEventDto } from './dto/update-event.dto';
import { parseCostInput } from './event-cost';
import { EVENT_TICKETING, EventTicketing, NO_TICKETING } from './event-ports';
import { LinkedPostInput, readLinkedPosts, readTermValues } from './event-link-input';
import { EventRelationsLoader } from './event-relations.loader';
import { Event } from './event.entity';
import { toEventResponse } from './events.mapper';
import { cannotEditOthersEvents, eventHasAttendees, eventNotFound } from './event-errors';
import type { EventSelector } from './event-selector';
import { EventsRepository } from './events.repository';
import { applyDeclaredFields } from './event-fields';
import { TransactionHost } from '../common/database/transaction-host';

export type { EventSelector } from './event-selector';

/** One of the events `createManyWithin` creates: its slug as wanted (made unique) and its dates. */
export interface BulkEventOccurrence {
  slug: string;
  start_date: string;
  end_date: string;
}

/** What an event contributes to its terms' counts of published events. */
interface EventTermState {
  published: boolean;
  categoryIds: number[];
  tagIds: number[];
}

/** Event writes delete and insert link rows next to other events' links: no gap locks (see runInTransaction). */
const EVENT_WRITE: TransactionOptions = { readCommitted: true };

const DATE_FORMATS_HINT = 'YYYY-MM-DD HH:MM:SS, ISO 8601 or a unix timestamp';

@Injectable()
export class EventsService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly relations: EventRelationsLoader,
    @Optional() @Inject(EVENT_TICKETING) private readonly ticketing: EventTicketing = NO_TICKETING,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly categories: CategoriesService,
    private readonly tags: TagsService,
    private readonly domainEvents: DomainEvents,
    private readonly repository: EventsRepository,
  ) {}

  // ---------------------------------------------------------------- writing

  async create(input: CreateEventDto, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    // A series is the series module's (event-routes/event-writes.ts routes it there): never a lone event without its rule.
    if (input.recurrence !== undefined && input.recurrence !== null)
      throw new Error('EventsService.create makes one event; a create with recurrence goes through EventWrites');
    const saved = await this.tx.run(() => this.createWithin(input, user), EVENT_WRITE);
    return this.present(saved, context);
  }

  /**
   * The single-event create inside the caller's transaction: what every event write maintains
   * applies. Series create their occurrences through it, each with the first as `postParentId`.
   */
  async createWithin(input: CreateEventDto, user: AuthenticatedUser, postParentId: number | null = null): Promise<Event> {
    assertCanCreatePost(user);
    const event = this.newEvent(user, postParentId);
    await this.applyInput(event, input, user, true);
    await this.domainEvents.publish({ kind: 'EventWritten', event, previousStatus: null, removed: false });
    return event;
  }

  /**
   * Many new events that share every field but their slug and dates (the occurrences of a series),
   * inside the caller's transaction, in a number of statements that does not grow with their
   * number: what `createWithin` checks is checked once, the slugs are made unique with one read,
   * and the events, their links and their terms' counts are written with multi-row statements
   * (insertInSlices). The read model follows by its row triggers. Publishes no EventWritten: the
   * caller publishes one SeriesOccurrencesCreated for them all. Answers the events in the order of
   * `occurrences`.
   */
  async createManyWithin(
    input: Omit<CreateEventDto, 'start_date' | 'end_date' | 'slug'>,
    occurrences: BulkEventOccurrence[],
    user: AuthenticatedUser,
    postParentId: number | null = null,
  ): Promise<Event[]> {
    assertCanCreatePost(user);
    if (occurrences.length === 0) return [];
    // The fields they share, as createWithin and applyInput set them, once.
    const shared = this.newEvent(user, postParentId);
    applyContentFields(shared, input);
    const events = occurrences.map((occurrence) => {
      const event = this.repository.newEvent({ ...shared });
      this.applySchedule(event, { ...input, start_date: occurrence.start_date, end_date: occurrence.end_date });
      return event;
    });
    await this.applyAuthorAndPublication(shared, input, user);
    const status = resolveWriteStatus(user, input.status, undefined);
    const categories = readTermValues(input.categories, 'categories');
    const categoryIds = categories?.length ? ascendingIds(await this.categories.resolveForEvent(categories, user)) : [];
    const tags = readTermValues(input.tags, 'tags');
    const tagIds = tags?.length ? ascendingIds(await this.tags.resolveForEvent(tags, user)) : [];
    // Term rows before the inserts that fire the read model's triggers (see lockTerms).
    await this.lockTerms({ categoryIds, tagIds });
    const slugs = await this.repository.uniqueSlugs(occurrences.map((occurrence) => occurrence.slug));
    events.forEach((event, index) =>
      Object.assign(event, { authorId: shared.authorId, publishedAt: shared.publishedAt, status, slug: slugs[index] }),
    );

    await this.repository.insertMany(events);
    const ids = await this.repository.idsBySlug(slugs);
    for (const event of events) event.id = ids.get(event.slug)!;
    const eventIds = events.map((event) => event.id);

    const venues = readLinkedPosts(input.venue, 'venue');
    const venueIds = venues ? await this.linkedPostIds(venues, 'venue', user) : [];
    await this.repository.insertPostLinksOfEvents('venue', eventIds, venueIds);
    const organizers = readLinkedPosts(input.organizer, 'organizer');
    const organizerIds = organizers ? await this.linkedPostIds(organizers, 'organizer', user) : [];
    await this.repository.insertPostLinksOfEvents('organizer', eventIds, organizerIds);
    // One UPDATE per kind adds the number of events.
    if (status === 'publish') {
      const times = (termIds: number[]) => events.flatMap(() => termIds);
      await this.categories.adjustPublishedEvents(times(categoryIds), []);
      await this.tags.adjustPublishedEvents(times(tagIds), []);
    }
    await this.repository.insertTermLinksOfEvents('categories', eventIds, categoryIds);
    await this.repository.insertTermLinksOfEvents('tags', eventIds, tagIds);
    return events;
  }

  /** An event alone; the routes send occurrences of a series to the series module first (event-routes/event-writes.ts). */
  async update(selector: EventSelector, input: UpdateEventDto, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    const saved = await this.tx.run(() => this.updateWithin(selector, input, user), EVENT_WRITE);
    return this.present(saved, context);
  }

  /** The single-event update inside the caller's transaction. */
  async updateWithin(selector: EventSelector, input: UpdateEventDto, user: AuthenticatedUser): Promise<Event> {
    const event = await this.findOrFail(selector, true);
    assertCanEdit(user, event, event.id);
    const previousStatus = event.status;
    await this.applyInput(event, input, user, false);
    await this.domainEvents.publish({ kind: 'EventWritten', event, previousStatus, removed: false });
    return event;
  }

  async remove(selector: EventSelector, force: boolean, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    return this.tx.run(() => this.removeWithin(selector, force, user, context), EVENT_WRITE);
  }

  /** The single-event trash or delete inside the caller's transaction; answers the event as removed. */
  async removeWithin(selector: EventSelector, force: boolean, user: AuthenticatedUser, context: RequestContext): Promise<EventResponse> {
    const manager = this.tx.manager;
    const event = await this.findOrFail(selector, true);
    assertCanDelete(user, event, event.id);
    if (force && (await this.ticketing.hasAttendees(event.id))) {
      throw eventHasAttendees();
    }
    // The response shows the event as it was removed, links included.
    const related = (await this.relations.load([event.id])).get(event.id)!;
    const terms: EventTermState = {
      published: event.status === 'publish',
      categoryIds: related.categories.map(({ term }) => term.id),
      tagIds: related.tags.map(({ term }) => term.id),
    };
    // The event row, then its term rows (lockTerms), then the counts and the event's own rows.
    await this.lockTerms(terms);
    await this.keepTermCounts(terms, { ...terms, published: false });
    const removed = await trashOrRemove(manager, event, 'event', force);
    await this.domainEvents.publish({ kind: 'EventWritten', event: removed, previousStatus: null, removed: true });
    return toEventResponse(removed, related, context, { jsonLd: false, currency: this.config.currency });
  }

  /** An event just written, as write routes answer it. */
  respond(event: Event, context: RequestContext): Promise<EventResponse> {
    return this.present(event, context);
  }

  // ---------------------------------------------------------------- helpers

  /** Write routes answer what they wrote, built from the rows (the row in hand lacks its new document version). */
  private async present(event: Event, context: RequestContext): Promise<EventResponse> {
    const related = (await this.relations.load([event.id])).get(event.id)!;
    return toEventResponse(event, related, context, { jsonLd: false, currency: this.config.currency });
  }

  private async findOrFail(selector: EventSelector, forUpdate = false): Promise<Event> {
    const event = await this.repository.findBySelector(selector, forUpdate);
    if (!event) throw eventNotFound(selector);
    return event;
  }

  /** Applies a create or update body to `event` and its links, inside the caller's transaction. */
  private async applyInput(event: Event, input: UpdateEventDto, user: AuthenticatedUser, isNew: boolean): Promise<void> {
    applyContentFields(event, input);
    const termsBefore = isNew ? null : await this.termState(event);
    this.applySchedule(event, input);
    await this.applyAuthorAndPublication(event, input, user);
    event.status = resolveWriteStatus(user, input.status, isNew ? undefined : event.status);
    const termsAfter = await this.resolveTerms(event, input, user, termsBefore);
    await this.lockTerms(termsBefore ?? { categoryIds: [], tagIds: [] }, termsAfter);
    await this.saveWithSlug(event, input, isNew);
    await this.applyPostLinks(event, input, user, isNew);
    await this.applyTerms(event, input, termsBefore, termsAfter);
  }

  /**
   * The lock order of event writes, so that writers sharing terms queue instead of deadlocking:
   * the event row (an update or removal reads it `FOR UPDATE` first), then the rows of every term
   * the write involves, before and after (categories, then tags, each by ascending id), and only
   * then the writes whose triggers keep the read model (event_listings, event_listing_days, whose
   * day counters events sharing a term also share), the document versions and the terms' counts.
   * Taken whether or not the event counts for its terms (drafts too): their link rows' triggers
   * move the same day counters.
   */
  private async lockTerms(...states: Array<Pick<EventTermState, 'categoryIds' | 'tagIds'>>): Promise<void> {
    await this.categories.lockForEventWrite(ascending(states.flatMap((state) => state.categoryIds)));
    await this.tags.lockForEventWrite(ascending(states.flatMap((state) => state.tagIds)));
  }

  /** A new event with the defaults of a create, before its body applies. */
  private newEvent(user: AuthenticatedUser, postParentId: number | null): Event {
    return this.repository.newEvent({
      authorId: user.id,
      timezone: this.config.siteTimezone,
      allDay: false,
      showMap: true,
      showMapLink: true,
      hideFromListings: false,
      sticky: false,
      featured: false,
      cost: null,
      website: null,
      image: null,
      description: null,
      excerpt: null,
      postParentId,
      showAttendeeList: false,
      publishedAt: this.clock.now(),
    });
  }

  /** Saves the event, with a slug made unique from the one sent (or the title) when new or asked for. */
  private async saveWithSlug(event: Event, input: UpdateEventDto, isNew: boolean): Promise<void> {
    if (isNew || input.slug !== undefined) {
      event.slug = await this.repository.uniqueSlug(input.slug ?? event.title, isNew ? undefined : event.id);
    }
    await this.repository.save(event);
  }

  /** The venues and organizers sent replace the event's; those not sent are left as they are. */
  private async applyPostLinks(event: Event, input: UpdateEventDto, user: AuthenticatedUser, isNew: boolean): Promise<void> {
    const venues = readLinkedPosts(input.venue, 'venue');
    if (venues) await this.replacePostLinks(event.id, venues, 'venue', user, isNew);
    const organizers = readLinkedPosts(input.organizer, 'organizer');
    if (organizers) await this.replacePostLinks(event.id, organizers, 'organizer', user, isNew);
  }

  /** The terms the event has after the write: those sent (found or created), else those it had. */
  private async resolveTerms(
    event: Event,
    input: UpdateEventDto,
    user: AuthenticatedUser,
    termsBefore: EventTermState | null,
  ): Promise<EventTermState> {
    const termsAfter: EventTermState = {
      published: event.status === 'publish',
      categoryIds: termsBefore?.categoryIds ?? [],
      tagIds: termsBefore?.tagIds ?? [],
    };
    const categories = readTermValues(input.categories, 'categories');
    if (categories) termsAfter.categoryIds = categories.length ? ascendingIds(await this.categories.resolveForEvent(categories, user)) : [];
    const tags = readTermValues(input.tags, 'tags');
    if (tags) termsAfter.tagIds = tags.length ? ascendingIds(await this.tags.resolveForEvent(tags, user)) : [];
    return termsAfter;
  }

  /** The terms' counts and the event's link rows move from `termsBefore` to `termsAfter` (their rows locked already). */
  private async applyTerms(
    event: Event,
    input: UpdateEventDto,
    termsBefore: EventTermState | null,
    termsAfter: EventTermState,
  ): Promise<void> {
    const categories = readTermValues(input.categories, 'categories');
    const tags = readTermValues(input.tags, 'tags');
    await this.keepTermCounts(termsBefore, termsAfter);
    const before = termsBefore ?? { categoryIds: [], tagIds: [] };
    if (categories) await this.repository.replaceTermLinks('categories', event.id, before.categoryIds, termsAfter.categoryIds);
    if (tags) await this.repository.replaceTermLinks('tags', event.id, before.tagIds, termsAfter.tagIds);
  }

  /** The event's terms and whether it counts for them (published), as stored now. */
  private async termState(event: Event): Promise<EventTermState> {
    return { published: event.status === 'publish', ...(await this.repository.termIdsOf(event.id)) };
  }

  /** Moves the terms' stored counts of published events from what the event was to what it is. */
  private async keepTermCounts(before: EventTermState | null, after: EventTermState): Promise<void> {
    await this.categories.adjustPublishedEvents(after.published ? after.categoryIds : [], before?.published ? before.categoryIds : []);
    await this.tags.adjustPublishedEvents(after.published ? after.tagIds : [], before?.published ? before.tagIds : []);
  }

  /**
   * Time zone, dates and all-day together: a new zone without new dates keeps the wall-clock
   * times; all-day events run from 00:00:00 of their first day to 23:59:59 of their last; the end
   * may not come before the start (the original silently moves it; we refuse).
   */
  private applySchedule(event: Event, input: UpdateEventDto): void {
    if (input.timezone !== undefined) {
      const name = input.timezone.trim() || this.config.siteTimezone;
      if (!resolveTimeZone(name)) throw invalidParam('timezone', 'timezone must be an IANA time zone name (Europe/Paris) or UTC±N');
      event.timezone = name;
    }
    if (input.all_day !== undefined) event.allDay = input.all_day;
    const zone = resolveTimeZone(event.timezone)!;
    const read = (field: 'start_date' | 'end_date', current: string | undefined): string => {
      const raw = input[field];
      if (raw === undefined || raw === null) return current as string;
      const parsed = parseDateInput(raw, zone);
      if (!parsed) throw invalidParam(field, `${field} must be a date: ${DATE_FORMATS_HINT}`);
      return parsed.local;
    };
    let startLocal = read('start_date', event.startLocal);
    let endLocal = read('end_date', event.endLocal);
    if (event.allDay) {
      startLocal = withTimeOfDay(startLocal, '00:00:00');
      endLocal = withTimeOfDay(endLocal, '23:59:59');
    }
    const startUtc = wallClockToInstant(startLocal, zone);
    const endUtc = wallClockToInstant(endLocal, zone);
    if (endUtc.getTime() < startUtc.getTime()) throw invalidParam('end_date', 'end_date must not be before start_date');
    // Wall-clock values that a DST gap skips are stored as the instant they resolve to.
    event.startLocal = formatInZone(startUtc, zone);
    event.endLocal = formatInZone(endUtc, zone);
    event.startUtc = startUtc;
    event.endUtc = endUtc;
  }

  private async applyAuthorAndPublication(event: Event, input: UpdateEventDto, user: AuthenticatedUser): Promise<void> {
    const manager = this.tx.manager;
    if (input.author !== undefined && input.author !== event.authorId) {
      await assertIdsExist(manager, User, [input.author], 'author');
      if (!canAssignAuthor(user, input.author)) {
        throw cannotEditOthersEvents();
      }
      event.authorId = input.author;
    }
    if (input.date_utc !== undefined) {
      const parsed = parseDateInput(input.date_utc, resolveTimeZone('UTC')!);
      if (!parsed) throw invalidParam('date_utc', `date_utc must be a date: ${DATE_FORMATS_HINT}`);
      event.publishedAt = parsed.instant;
    } else if (input.date !== undefined) {
      const parsed = parseDateInput(input.date, resolveTimeZone(this.config.siteTimezone)!);
      if (!parsed) throw invalidParam('date', `date must be a date: ${DATE_FORMATS_HINT}`);
      event.publishedAt = parsed.instant;
    }
  }

  /** The ids of the venues or organizers sent, in order, each once: checked, or found or created from fields. */
  private async linkedPostIds(inputs: LinkedPostInput[], field: 'venue' | 'organizer', user: AuthenticatedUser): Promise<number[]> {
    const ids = inputs.flatMap((input) => ('id' in input ? [input.id] : []));
    if (ids.length) await (field === 'venue' ? this.venues : this.organizers).assertLinkable(ids, field, user);
    const linkedIds: number[] = [];
    for (const input of inputs) {
      if ('id' in input) linkedIds.push(input.id);
      else if (field === 'venue') linkedIds.push((await this.venues.findOrCreateForEvent(input.fields, user)).id);
      else linkedIds.push((await this.organizers.findOrCreateForEvent(input.fields, user)).id);
    }
    return unique(linkedIds);
  }

  /** The venues or organizers sent become the event's, in their order (EventsRepository.replacePostLinks). */
  private async replacePostLinks(
    eventId: number,
    inputs: LinkedPostInput[],
    field: 'venue' | 'organizer',
    user: AuthenticatedUser,
    isNew: boolean,
  ): Promise<void> {
    const ordered = await this.linkedPostIds(inputs, field, user);
    await this.repository.replacePostLinks(field, eventId, ordered, isNew);
  }
}

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}

/** Lock order of term rows: ascending ids. */
function ascendingIds(terms: Array<{ id: number }>): number[] {
  return ascending(terms.map((term) => term.id));
}

function ascending(ids: number[]): number[] {
  return unique(ids).sort((a, b) => a - b);
}

/** The event's own text and display fields sent in the body; `""` clears the optional ones. */
function applyContentFields(event: Event, input: UpdateEventDto): void {
  if (input.title !== undefined) event.title = input.title.trim();
  if (input.description !== undefined) event.description = input.description === '' ? null : sanitizeRichText(input.description);
  if (input.excerpt !== undefined) event.excerpt = input.excerpt === '' ? null : sanitizeRichText(input.excerpt);
  if (input.image !== undefined) event.image = input.image || null;
  if (input.website !== undefined) event.website = input.website || null;
  if (input.cost !== undefined) event.cost = parseCostInput(input.cost);
  applyDeclaredFields(event, input);
}
