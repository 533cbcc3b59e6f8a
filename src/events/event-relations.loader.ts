import { Inject, Injectable, Optional } from '@nestjs/common';
import { EntityManager, ObjectLiteral } from 'typeorm';
import { Category } from '../categories/category.entity';
import { Organizer } from '../organizers/organizer.entity';
import { Tag } from '../tags/tag.entity';
import { Venue } from '../venues/venue.entity';
import { EventCategoryLink, EventOrganizerLink, EventTagLink, EventVenueLink } from './event-links.entity';
import { EVENT_SERIES, EVENT_TICKETING, EventSeriesReader, EventTicketing, NO_SERIES, NO_TICKETING } from './event-ports';
import { EventRelations } from './events.mapper';
import { SqlDialect } from '../database/sql-dialect';
import { TransactionHost } from '../common/database/transaction-host';

type LinkEntity = typeof EventVenueLink | typeof EventOrganizerLink | typeof EventCategoryLink | typeof EventTagLink;

/**
 * Loads what a page of events shows besides the event rows, in a fixed number of queries whatever
 * the page size: one per linked type (link rows joined with their targets; terms carry their stored counts) and
 * the ticketing facts.
 */
@Injectable()
export class EventRelationsLoader {
  constructor(
    private readonly tx: TransactionHost,
    @Optional() @Inject(EVENT_TICKETING) private readonly ticketing: EventTicketing = NO_TICKETING,
    @Optional() @Inject(EVENT_SERIES) private readonly series: EventSeriesReader = NO_SERIES,
  ) {}

  async load(eventIds: number[]): Promise<Map<number, EventRelations>> {
    const relations = new Map<number, EventRelations>(
      eventIds.map((id) => [id, { venues: [], organizers: [], categories: [], tags: [], ticketed: false }]),
    );
    if (eventIds.length === 0) return relations;

    const [venues, organizers, categories, tags, ticketProviders, series] = await Promise.all([
      this.linked(Venue, EventVenueLink, 'venueId', eventIds, true),
      this.linked(Organizer, EventOrganizerLink, 'organizerId', eventIds, true),
      this.linked(Category, EventCategoryLink, 'categoryId', eventIds, false),
      this.linked(Tag, EventTagLink, 'tagId', eventIds, false),
      this.ticketing.ticketProviders(eventIds),
      this.series.seriesOf(eventIds),
    ]);

    for (const [eventId, venue] of venues) relations.get(eventId)?.venues.push(venue);
    for (const [eventId, organizer] of organizers) relations.get(eventId)?.organizers.push(organizer);
    for (const [eventId, term] of categories) relations.get(eventId)?.categories.push({ term, count: term.publishedEventCount });
    for (const [eventId, term] of tags) relations.get(eventId)?.tags.push({ term, count: term.publishedEventCount });
    for (const [eventId, providers] of ticketProviders) {
      const entry = relations.get(eventId);
      if (entry) entry.ticketed = providers;
    }
    for (const [eventId, facts] of series) {
      const entry = relations.get(eventId);
      if (entry) entry.series = facts;
    }
    return relations;
  }

  /** `[eventId, target]` pairs, ordered by link position (posts) or name (terms). Trashed posts are left out. */
  private async linked<T extends ObjectLiteral & { id: number }>(
    target: new () => T,
    link: LinkEntity,
    targetColumn: 'venueId' | 'organizerId' | 'categoryId' | 'tagId',
    eventIds: number[],
    isPost: boolean,
  ): Promise<Array<[number, T]>> {
    const manager = this.tx.manager;
    const query = manager
      .createQueryBuilder(target, 'target')
      .innerJoin(link, 'link', `link.${targetColumn} = target.id`)
      .addSelect('link.eventId', 'link_event_id')
      .where('link.eventId IN (:...eventIds)', { eventIds });
    // Posts in link order. Terms by name, sorted here: MariaDB sorted the joined rows through a
    // temporary table, and the few rows of a page sort as well in memory, with the collation's rules.
    if (isPost) query.andWhere("target.status <> 'trash'").orderBy('link.position', 'ASC').addOrderBy('target.id', 'ASC');
    const { entities, raw } = await query.getRawAndEntities<{ link_event_id: number; target_id: number }>();
    const byId = new Map(entities.map((entity) => [entity.id, entity]));
    const pairs = raw.flatMap((row) => {
      const entity = byId.get(Number(row.target_id));
      return entity ? [[Number(row.link_event_id), entity] as [number, T]] : [];
    });
    if (!isPost) {
      const compareNames = nameOrder(manager);
      pairs.sort(([, a], [, b]) => compareNames(String(a.name), String(b.name)) || a.id - b.id);
    }
    return pairs;
  }
}

/** Names in the order the database sorts them (SqlDialect.textOrder). */
function nameOrder(manager: EntityManager): (a: string, b: string) => number {
  return SqlDialect.of(manager).textOrder();
}
