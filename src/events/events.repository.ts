import { Injectable } from '@nestjs/common';
import { DeepPartial, EntityManager, In, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertInSlices, inSlices } from '../common/database/bulk-insert';
import { SqlDialect } from '../database/sql-dialect';
import { uniqueSlug, uniqueSlugs } from '../posts/slugs';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from './event-links.entity';
import type { EventSelector } from './event-selector';
import { Event } from './event.entity';
import { TransactionHost } from '../common/database/transaction-host';

type PostLinkField = 'venue' | 'organizer';
type TermLinkField = 'categories' | 'tags';

/** The event module's statements on events and their link rows. */
@Injectable()
export class EventsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The event by id or slug, locked until the transaction ends (MySQL) when `forUpdate`. */
  findBySelector(selector: EventSelector, forUpdate: boolean): Promise<Event | null> {
    const manager = this.tx.manager;
    const query = manager.createQueryBuilder(Event, 'event');
    if ('id' in selector) query.where('event.id = :id', { id: selector.id });
    else query.where('event.slug = :slug', { slug: selector.slug });
    if (forUpdate) SqlDialect.of(manager).forUpdate(query);
    return query.getOne();
  }

  /** The event's category and tag ids, as stored now. */
  async termIdsOf(eventId: number): Promise<{ categoryIds: number[]; tagIds: number[] }> {
    const manager = this.tx.manager;
    const categories = await manager.find(EventCategoryLink, { select: { categoryId: true }, where: { eventId } });
    const tags = await manager.find(EventTagLink, { select: { tagId: true }, where: { eventId } });
    return { categoryIds: categories.map((link) => link.categoryId), tagIds: tags.map((link) => link.tagId) };
  }

  // ---------------------------------------------------------------- writing

  /** An event row with these values, not written yet. */
  newEvent(values: DeepPartial<Event>): Event {
    const manager = this.tx.manager;
    return manager.create(Event, values);
  }

  /** `desired` as a slug no other event has (`excludeId`: the event being updated). */
  uniqueSlug(desired: string, excludeId?: number): Promise<string> {
    const manager = this.tx.manager;
    return uniqueSlug(manager.getRepository(Event), desired, excludeId);
  }

  /** Slugs for several new events, in order, unique among events and among themselves (one read). */
  uniqueSlugs(desired: string[]): Promise<string[]> {
    const manager = this.tx.manager;
    return uniqueSlugs(manager.getRepository(Event), desired);
  }

  async save(event: Event): Promise<void> {
    const manager = this.tx.manager;
    await manager.save(event);
  }

  /** New events in multi-row INSERTs; their ids are not read back (see idsBySlug). */
  async insertMany(events: Event[]): Promise<void> {
    const manager = this.tx.manager;
    await insertInSlices(
      manager,
      Event,
      events.map((event) => ({ ...event })),
    );
  }

  /** Ids by the unique slug: those of a multi-row INSERT are not consecutive everywhere. */
  async idsBySlug(slugs: string[]): Promise<Map<string, number>> {
    const manager = this.tx.manager;
    const ids = new Map<string, number>();
    for (const slice of inSlices(slugs)) {
      const rows = await manager
        .createQueryBuilder(Event, 'event')
        .select(['event.id', 'event.slug'])
        .where('event.slug IN (:...slugs)', { slugs: slice })
        .getMany();
      for (const row of rows) ids.set(row.slug, row.id);
    }
    return ids;
  }

  /**
   * The event's venues or organizers become `orderedIds`, in their order. A new event has no links
   * to delete, and it must not try: on MySQL a DELETE of an empty range takes a gap lock, and two
   * concurrent creates holding one each deadlock on their INSERTs.
   */
  async replacePostLinks(field: PostLinkField, eventId: number, orderedIds: number[], isNew: boolean): Promise<void> {
    const manager = this.tx.manager;
    if (field === 'venue') {
      if (!isNew) await manager.delete(EventVenueLink, { eventId });
      await insertRows(
        manager,
        EventVenueLink,
        orderedIds.map((venueId, position) => ({ eventId, venueId, position })),
      );
    } else {
      if (!isNew) await manager.delete(EventOrganizerLink, { eventId });
      await insertRows(
        manager,
        EventOrganizerLink,
        orderedIds.map((organizerId, position) => ({ eventId, organizerId, position })),
      );
    }
  }

  /**
   * Deletes the links that go and inserts those that come, by their whole primary key, so that an
   * update that keeps its terms touches no link row and none locks a range of another event's links.
   */
  async replaceTermLinks(field: TermLinkField, eventId: number, before: number[], after: number[]): Promise<void> {
    const manager = this.tx.manager;
    if (field === 'categories') await replaceTermLinks(manager, EventCategoryLink, 'categoryId', eventId, before, after);
    else await replaceTermLinks(manager, EventTagLink, 'tagId', eventId, before, after);
  }

  /** Links each event to the same venues or organizers, in their order, in multi-row INSERTs. */
  async insertPostLinksOfEvents(field: PostLinkField, eventIds: number[], postIds: number[]): Promise<void> {
    const manager = this.tx.manager;
    if (field === 'venue') {
      await insertInSlices(
        manager,
        EventVenueLink,
        eventIds.flatMap((eventId) => postIds.map((venueId, position) => ({ eventId, venueId, position }))),
      );
    } else {
      await insertInSlices(
        manager,
        EventOrganizerLink,
        eventIds.flatMap((eventId) => postIds.map((organizerId, position) => ({ eventId, organizerId, position }))),
      );
    }
  }

  /** Links each event to the same categories or tags, in multi-row INSERTs. */
  async insertTermLinksOfEvents(field: TermLinkField, eventIds: number[], termIds: number[]): Promise<void> {
    const manager = this.tx.manager;
    if (field === 'categories') {
      await insertInSlices(
        manager,
        EventCategoryLink,
        eventIds.flatMap((eventId) => termIds.map((categoryId) => ({ eventId, categoryId }))),
      );
    } else {
      await insertInSlices(
        manager,
        EventTagLink,
        eventIds.flatMap((eventId) => termIds.map((tagId) => ({ eventId, tagId }))),
      );
    }
  }
}

async function replaceTermLinks<T extends EventCategoryLink | EventTagLink>(
  manager: EntityManager,
  entity: new () => T,
  termColumn: 'categoryId' | 'tagId',
  eventId: number,
  before: number[],
  after: number[],
): Promise<void> {
  const gone = before.filter((id) => !after.includes(id));
  const added = after.filter((id) => !before.includes(id));
  if (gone.length) await manager.delete(entity, { eventId, [termColumn]: In(gone) });
  await insertRows(
    manager,
    entity,
    added.map((termId) => ({ eventId, [termColumn]: termId }) as never),
  );
}

async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: new () => T,
  rows: Array<QueryDeepPartialEntity<T>>,
): Promise<void> {
  if (rows.length > 0) await manager.insert(entity, rows);
}
