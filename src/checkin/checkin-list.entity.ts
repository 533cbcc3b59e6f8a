import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Which attendees of one event may enter through a gate (docs/checkin.md, "Check-in lists"). */
@Entity({ name: 'checkin_lists' })
@Index('IDX_checkin_lists_event', ['eventId', 'id'])
@Index('UQ_checkin_lists_default', ['defaultEventId'], { unique: true })
export class CheckinList {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ type: 'varchar', length: 191 })
  name: string;

  /** The event's id on its default list, null on others: the unique index allows one default per event. */
  @Column({ name: 'default_event_id', type: 'int', nullable: true })
  defaultEventId: number | null;

  /** JSON array of ticket ids; empty: every ticket of the event. */
  @Column({ name: 'ticket_ids', type: 'text', nullable: true })
  ticketIds: string | null;

  @Column({ name: 'include_pending', type: 'boolean', default: false })
  includePending: boolean;

  @Column({ name: 'allow_multiple_entries', type: 'boolean', default: false })
  allowMultipleEntries: boolean;

  @Column({ name: 'allow_entry_after_exit', type: 'boolean', default: true })
  allowEntryAfterExit: boolean;

  /** Whether the list's devices and door staff may sell tickets at the door (POST /checkin/sell). */
  @Column({ name: 'allow_sales', type: 'boolean', default: false })
  allowSales: boolean;

  @Column({ name: 'starts_at', type: 'datetime', precision: 3, nullable: true })
  startsAt: Date | null;

  @Column({ name: 'ends_at', type: 'datetime', precision: 3, nullable: true })
  endsAt: Date | null;

  /** HMAC key of the sync's index (hex), sent to the list's devices. */
  @Column({ name: 'sync_key', type: 'varchar', length: 64 })
  syncKey: string;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
