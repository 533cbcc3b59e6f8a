import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A recurring event: its rule, read in its zone from the wall-clock start of its first
 * occurrence, and what new occurrences copy. Each occurrence is a real event
 * (EventSeriesOccurrence ties them); the horizon job creates those that come into the horizon.
 */
@Entity({ name: 'event_series' })
@Index('IDX_event_series_horizon', ['exhausted', 'expandedUntil'])
export class EventSeries {
  @PrimaryGeneratedColumn({ type: 'int' })
  id: number;

  /** The series' first event, every other occurrence's `post_parent`. */
  @Column({ name: 'first_event_id', type: 'int', nullable: true })
  firstEventId: number | null;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  /** The zone the rule is read in (the events' zone). */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  /** DTSTART: wall-clock start of the first occurrence, `YYYY-MM-DD HH:MM:SS`. */
  @Column({ name: 'start_local', type: 'varchar', length: 19 })
  startLocal: string;

  /** Wall-clock length of each occurrence, in seconds. */
  @Column({ name: 'duration_seconds', type: 'int' })
  durationSeconds: number;

  /** The RRULE value, without `RRULE:`. */
  @Column({ type: 'varchar', length: 500 })
  rrule: string;

  /** JSON array of wall-clock dates. */
  @Column({ type: 'text' })
  rdates: string;

  /** JSON array of wall-clock dates, those of deleted occurrences included. */
  @Column({ type: 'text' })
  exdates: string;

  /** JSON: the event fields every new occurrence gets (SeriesTemplate). */
  @Column({ type: 'text' })
  template: string;

  /** Occurrences that start before this instant exist. */
  @Column({ name: 'expanded_until', type: 'datetime' })
  expandedUntil: Date;

  /** The rule has no occurrence after expandedUntil: the horizon job leaves the series alone. */
  @Column({ type: 'boolean', default: false })
  exhausted: boolean;

  /** An instance extending the series holds it until then (the horizon job's claim). */
  @Column({ name: 'claimed_until', type: 'datetime', nullable: true })
  claimedUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

/** An event that is an occurrence of a series. */
@Entity({ name: 'event_series_occurrences' })
@Index('UQ_event_series_occurrences_date', ['seriesId', 'occurrenceLocal'], { unique: true })
export class EventSeriesOccurrence {
  @Column({ name: 'event_id', type: 'int', primary: true })
  eventId: number;

  @Column({ name: 'series_id', type: 'int' })
  seriesId: number;

  /** The wall-clock start the rule gave it (its RECURRENCE-ID), even once moved. */
  @Column({ name: 'occurrence_local', type: 'varchar', length: 19 })
  occurrenceLocal: string;

  /** Edited on its own (scope=this): series-wide edits leave it alone. */
  @Column({ type: 'boolean', default: false })
  detached: boolean;
}
