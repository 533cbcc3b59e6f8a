import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { PostStatus } from '../posts/post-status';
import type { EventListingDimension } from './event-listing.entity';

/**
 * One listed event and one pair of its values of a dimension (categories, tags, venues or
 * organizers): the events a two-value filter would count twice. Written only by the triggers of
 * migration EventListingPairs1765100000000 on the read model (EventListing); counted per day in
 * EventListingPairDay.
 */
@Entity({ name: 'event_listing_pairs' })
@Index('IDX_event_listing_pairs_event', ['eventId', 'dim'])
export class EventListingPair {
  @PrimaryColumn({ type: 'smallint' })
  dim: EventListingDimension;

  /** The smaller of the two values. */
  @PrimaryColumn({ type: 'int' })
  low: number;

  @PrimaryColumn({ type: 'int' })
  high: number;

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

/** EventListingDay of the pairs: per pair, status and UTC day of the start, their number and longest duration. */
@Entity({ name: 'event_listing_pair_days' })
export class EventListingPairDay {
  @PrimaryColumn({ type: 'smallint' })
  dim: EventListingDimension;

  @PrimaryColumn({ type: 'int' })
  low: number;

  @PrimaryColumn({ type: 'int' })
  high: number;

  @PrimaryColumn({ type: 'varchar', length: 20 })
  status: PostStatus;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'int' })
  events: number;

  @Column({ type: 'int' })
  longest: number;
}
