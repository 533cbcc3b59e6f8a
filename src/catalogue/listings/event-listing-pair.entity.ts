import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ListingDayCounters } from './event-listing-day.entity';
import { ListedEventColumns, type EventListingDimension } from './event-listing.entity';

/**
 * One listed event and one pair of its values of a dimension (categories, tags, venues or
 * organizers): the events a two-value filter would count twice. Written only by the triggers of
 * migration EventListingPairs1765100000000 on the read model (EventListing); counted per day in
 * EventListingPairDay.
 */
@Entity({ name: 'event_listing_pairs' })
@Index('IDX_event_listing_pairs_event', ['eventId', 'dim'])
export class EventListingPair extends ListedEventColumns {
  @PrimaryColumn({ type: 'smallint' })
  dim: EventListingDimension;

  /** The smaller of the two values. */
  @PrimaryColumn({ type: 'int' })
  low: number;

  @PrimaryColumn({ type: 'int' })
  high: number;
}

/** EventListingDay of the pairs: per pair, status and UTC day of the start, their number and longest duration. */
@Entity({ name: 'event_listing_pair_days' })
export class EventListingPairDay extends ListingDayCounters {
  @PrimaryColumn({ type: 'smallint' })
  dim: EventListingDimension;

  @PrimaryColumn({ type: 'int' })
  low: number;

  @PrimaryColumn({ type: 'int' })
  high: number;
}
