import { Column, Entity, Index } from 'typeorm';
import { PostEntity } from '../posts/post.entity-base';

@Entity({ name: 'events' })
@Index('UQ_events_slug', ['slug'], { unique: true })
@Index('IDX_events_schedule', ['startUtc', 'publishedAt', 'id', 'status', 'hideFromListings', 'endUtc'])
@Index('IDX_events_start', ['startUtc', 'id'])
@Index('IDX_events_end', ['endUtc'])
@Index('IDX_events_featured', ['featured', 'startUtc'])
@Index('IDX_events_author', ['authorId'])
@Index('IDX_events_parent', ['postParentId'])
export class Event extends PostEntity {
  /** IANA name or UTC±N, as sent; wall-clock fields are in this zone. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay: boolean;

  @Column({ name: 'start_utc', type: 'datetime' })
  startUtc: Date;

  @Column({ name: 'end_utc', type: 'datetime' })
  endUtc: Date;

  /** `YYYY-MM-DD HH:MM:SS` in the event's zone. */
  @Column({ name: 'start_local', type: 'varchar', length: 19 })
  startLocal: string;

  @Column({ name: 'end_local', type: 'varchar', length: 19 })
  endLocal: string;

  /** The admission price as sent: "10", "Free", "5 - 20$"... */
  @Column({ type: 'varchar', length: 255, nullable: true })
  cost: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  website: string | null;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink: boolean;

  @Column({ name: 'hide_from_listings', type: 'boolean', default: false })
  hideFromListings: boolean;

  @Column({ type: 'boolean', default: false })
  sticky: boolean;

  @Column({ type: 'boolean', default: false })
  featured: boolean;

  @Column({ name: 'post_parent_id', type: 'int', nullable: true })
  postParentId: number | null;

  /** Whether the public may see the event's attendee list (names only). */
  @Column({ name: 'show_attendee_list', type: 'boolean', default: false })
  showAttendeeList: boolean;

  /** Moved by database triggers whenever anything the event's response shows changes (the document cache's key). */
  @Column({ name: 'document_version', type: 'int', default: 1, insert: false, update: false })
  documentVersion: number;
}
