import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An event's venues (the original allows several with its PRO add-on), in order. */
@Entity({ name: 'event_venue_links' })
@Index('IDX_event_venue_links_venue_id', ['venueId', 'eventId'])
export class EventVenueLink {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'venue_id', type: 'int' })
  venueId: number;

  @Column({ type: 'int', default: 0 })
  position: number;
}

/** An event's organizers, in the order they were given. */
@Entity({ name: 'event_organizer_links' })
@Index('IDX_event_organizer_links_organizer_id', ['organizerId', 'eventId'])
export class EventOrganizerLink {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'organizer_id', type: 'int' })
  organizerId: number;

  @Column({ type: 'int', default: 0 })
  position: number;
}

@Entity({ name: 'event_category_links' })
@Index('IDX_event_category_links_category_id', ['categoryId', 'eventId'])
export class EventCategoryLink {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'category_id', type: 'int' })
  categoryId: number;
}

@Entity({ name: 'event_tag_links' })
@Index('IDX_event_tag_links_tag_id', ['tagId', 'eventId'])
export class EventTagLink {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'tag_id', type: 'int' })
  tagId: number;
}
