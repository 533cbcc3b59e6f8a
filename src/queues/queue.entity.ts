import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A waiting room for one on-sale (docs/waiting-room.md): the tickets of an event (all, or those in
 * `ticketIds`) are sold only to buyers it admitted while it is live. `servingCounter` is the one row
 * every instance advances, with a conditional UPDATE on the values it read (QueuesRepository.advanceCounter).
 */
@Entity({ name: 'queues' })
@Index('IDX_queues_event', ['eventId'])
@Index('IDX_queues_closed', ['closedAt'])
export class Queue {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  /** JSON array of the ticket ids the queue guards; null: every ticket of the event. */
  @Column({ name: 'ticket_ids', type: 'varchar', length: 2000, nullable: true })
  ticketIds: string | null;

  @Column({ name: 'prequeue_opens_at', type: 'datetime', precision: 3, nullable: true })
  prequeueOpensAt: Date | null;

  @Column({ name: 'opens_at', type: 'datetime', precision: 3 })
  opensAt: Date;

  @Column({ name: 'closes_at', type: 'datetime', precision: 3, nullable: true })
  closesAt: Date | null;

  @Column({ name: 'max_active', type: 'int' })
  maxActive: number;

  /** Admissions per minute; null: auto (as many as `max_active` leaves room for). */
  @Column({ name: 'max_admit_per_minute', type: 'int', nullable: true })
  maxAdmitPerMinute: number | null;

  @Column({ name: 'admission_minutes', type: 'int' })
  admissionMinutes: number;

  /** Units one admission may check out in all. */
  @Column({ name: 'units_per_admission', type: 'int' })
  unitsPerAdmission: number;

  /** Queue even when there is room; off: a joiner finding nobody waiting and room is admitted at once. */
  @Column({ name: 'queue_all', type: 'boolean' })
  queueAll: boolean;

  @Column({ type: 'boolean' })
  paused: boolean;

  /** The seed of the pre-queue's shuffle (hex), drawn at creation and never shown. */
  @Column({ name: 'shuffle_seed', type: 'varchar', length: 64 })
  shuffleSeed: string;

  /** When the pre-queue was shuffled and FIFO joining began; null before. */
  @Column({ name: 'opened_at', type: 'datetime', precision: 3, nullable: true })
  openedAt: Date | null;

  /** The last position given; positions 1..last_position exist. */
  @Column({ name: 'last_position', type: 'int' })
  lastPosition: number;

  /** Entries at positions up to this one have been admitted. */
  @Column({ name: 'serving_counter', type: 'int' })
  servingCounter: number;

  /** Up to when the counter's admissions are counted (the rate's clock). */
  @Column({ name: 'counter_at', type: 'datetime', precision: 3, nullable: true })
  counterAt: Date | null;

  /** Moves at every advance: the advance's UPDATE is conditional on the version it read (one winner among instances). */
  @Column({ name: 'counter_version', type: 'int' })
  counterVersion: number;

  /** Recent admissions per tick, JSON `[[epoch ms, admitted], ...]`, for the ETA. */
  @Column({ name: 'rate_samples', type: 'varchar', length: 4000 })
  rateSamples: string;

  /** The `auto` rate the ticker follows now (admissions per minute, queue-auto-rate.ts); null before it first set one. */
  @Column({ name: 'auto_rate', type: 'int', nullable: true })
  autoRate: number | null;

  /** Leading zero bits the join's proof-of-work must have (queue-challenge.ts); 0: no challenge. */
  @Column({ name: 'challenge_bits', type: 'int', default: 0 })
  challengeBits: number;

  /** Entries joined in all (the join's row lock is this row's). */
  @Column({ name: 'joined_count', type: 'int' })
  joinedCount: number;

  @Column({ name: 'closed_at', type: 'datetime', precision: 3, nullable: true })
  closedAt: Date | null;

  /** Why it closed: `closed` (closes_at, or by hand) or `sold_out`. */
  @Column({ name: 'closed_reason', type: 'varchar', length: 16, nullable: true })
  closedReason: 'closed' | 'sold_out' | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

export const ENTRY_STATUSES = ['prequeue', 'waiting', 'admitted', 'completed', 'expired', 'revoked'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** One buyer's place in a queue, known by the client-made `request_id` and the SHA-256 of its secret. */
@Entity({ name: 'queue_entries' })
@Index('UQ_queue_entries_request', ['queueId', 'requestId'], { unique: true })
@Index('UQ_queue_entries_position', ['queueId', 'position'], { unique: true })
@Index('IDX_queue_entries_status', ['queueId', 'status', 'admittedAt'])
@Index('IDX_queue_entries_address', ['queueId', 'clientAddress'])
@Index('IDX_queue_entries_user', ['queueId', 'userId'])
export class QueueEntry {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'queue_id', type: 'int' })
  queueId: number;

  @Column({ name: 'request_id', type: 'varchar', length: 64 })
  requestId: string;

  /** Hex SHA-256 of the client's secret: the admission is given only to whoever shows the secret. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64 })
  secretHash: string;

  @Column({ type: 'varchar', length: 16 })
  status: EntryStatus;

  /** Null while in the pre-queue (before the shuffle at opens_at). */
  @Column({ type: 'int', nullable: true })
  position: number | null;

  @Column({ name: 'client_address', type: 'varchar', length: 64, nullable: true })
  clientAddress: string | null;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  @Column({ name: 'joined_at', type: 'datetime', precision: 3 })
  joinedAt: Date;

  @Column({ name: 'admitted_at', type: 'datetime', precision: 3, nullable: true })
  admittedAt: Date | null;

  @Column({ name: 'finished_at', type: 'datetime', precision: 3, nullable: true })
  finishedAt: Date | null;

  /** The admission time predicted when the entry got its position (at the join, or the opening): the ETA's error is measured from it. */
  @Column({ name: 'eta_at', type: 'datetime', precision: 3, nullable: true })
  etaAt: Date | null;
}

/**
 * An admission token issued to an entry (once: a retry gets the same token, signed again from these
 * claims). The deny-list is `revoked_at`; `units_used` becomes `unit_limit` by a conditional UPDATE
 * at checkout: an admission is one order.
 */
@Entity({ name: 'queue_admissions' })
@Index('UQ_queue_admissions_entry', ['entryId'], { unique: true })
@Index('IDX_queue_admissions_queue', ['queueId', 'issuedAt'])
@Index('IDX_queue_admissions_checkout', ['queueId', 'lastCheckoutAt'])
export class QueueAdmission {
  @Column({ type: 'varchar', length: 32, primary: true })
  jti: string;

  @Column({ name: 'queue_id', type: 'int' })
  queueId: number;

  @Column({ name: 'entry_id', type: 'int' })
  entryId: number;

  @Column({ name: 'issued_at', type: 'datetime', precision: 3 })
  issuedAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'unit_limit', type: 'int' })
  unitLimit: number;

  @Column({ name: 'units_used', type: 'int' })
  unitsUsed: number;

  @Column({ name: 'revoked_at', type: 'datetime', precision: 3, nullable: true })
  revokedAt: Date | null;

  /** When a checkout last took units of it: the `auto` rate follows how many admissions check out a minute. */
  @Column({ name: 'last_checkout_at', type: 'datetime', precision: 3, nullable: true })
  lastCheckoutAt: Date | null;
}
