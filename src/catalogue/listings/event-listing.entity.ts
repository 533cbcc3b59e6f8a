import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { PostStatus } from '../../posts/post-status';

/** The list dimension a row of the read model stands for (`event_listings.dim`). */
export enum EventListingDimension {
  /** Every listed event (the default window); `value` 0. */
  All = 0,
  /** An event is listed under each of its categories and each of their ancestors (CategoryTreeListings1765090000000). */
  Category = 1,
  Tag = 2,
  Venue = 3,
  Organizer = 4,
  /** `value` 1 for featured events, 0 for the others. */
  Featured = 5,
  /** Events with a venue that has both coordinates; `value` 0. */
  Geoloc = 6,
}

/**
 * What a row of the read model holds of its listed event, after what it is listed under (one
 * value: EventListing; a pair of values: EventListingPair): the list's order, then what a page
 * filters on besides.
 */
export abstract class ListedEventColumns {
  @PrimaryColumn({ type: 'varchar', length: 20 })
  status: PostStatus;

  @PrimaryColumn({ name: 'start_utc', type: 'datetime' })
  startUtc: Date;

  @PrimaryColumn({ name: 'published_at', type: 'datetime' })
  publishedAt: Date;

  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'end_utc', type: 'datetime' })
  endUtc: Date;

  @Column({ name: 'author_id', type: 'int', nullable: true })
  authorId: number | null;
}

/**
 * The events list's read model: one row per listed event (not hidden from listings) and
 * dimension value, holding what a page filters and orders on. Its primary key is the list's
 * order within a dimension value and status, so a page is one ordered range read. Written only
 * by the triggers of migrations EventListings1764830000000 and CategoryTreeListings1765090000000,
 * in the transaction of each write to events, their links, terms, venues and organizers.
 */
@Entity({ name: 'event_listings' })
@Index('IDX_event_listings_event', ['eventId', 'dim', 'value'])
export class EventListing extends ListedEventColumns {
  @PrimaryColumn({ type: 'smallint' })
  dim: EventListingDimension;

  @PrimaryColumn({ type: 'int' })
  value: number;
}
