import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PostStatus } from '../../posts/post-status';
import type { EventListingDimension } from './event-listing.entity';

/** What a day counter holds, after what it counts (one value: EventListingDay; a pair: EventListingPairDay). */
export abstract class ListingDayCounters {
  @PrimaryColumn({ type: 'varchar', length: 20 })
  status: PostStatus;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'int' })
  events: number;

  @Column({ type: 'int' })
  longest: number;
}

/**
 * Counters over the read model (EventListing): per dimension value, status and UTC day of the
 * start, how many rows start that day and the longest of their durations in seconds (an upper
 * bound that never shrinks). Written only by the triggers of migration
 * EventListingDays1764830000001; read by EventListingsReader for list totals.
 */
@Entity({ name: 'event_listing_days' })
export class EventListingDay extends ListingDayCounters {
  @PrimaryColumn({ type: 'smallint' })
  dim: EventListingDimension;

  @PrimaryColumn({ type: 'int' })
  value: number;
}
