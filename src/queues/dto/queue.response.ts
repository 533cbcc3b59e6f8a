import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

export const QUEUE_STATES = ['scheduled', 'prequeue', 'open', 'paused', 'closed', 'sold_out'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export const ENTRY_STATES = ['prequeue', 'waiting', 'admitted', 'completed', 'expired', 'revoked', 'closed', 'sold_out'] as const;
export type EntryState = (typeof ENTRY_STATES)[number];

@ApiSchema({ name: 'QueueEta' })
export class QueueEta {
  @ApiProperty({ description: 'Seconds at the median admission rate of the last minute', type: 'integer' })
  p50: number;

  @ApiProperty({ description: 'Seconds at a slow (10th percentile) rate: nine waits in ten are shorter', type: 'integer' })
  p90: number;
}

/** A waiting room's settings and state (GET /queues/{id}). */
@ApiSchema({ name: 'Queue' })
export class QueueResponse {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ type: 'integer' })
  post_id: number;

  @ApiProperty({ type: [Number], nullable: true, description: 'null: every ticket of the event' })
  ticket_ids: number[] | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  prequeue_opens_at: string | null;

  @ApiProperty({ format: 'date-time' })
  opens_at: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  closes_at: string | null;

  @ApiProperty({ type: 'integer' })
  max_active: number;

  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string', enum: ['auto'] }] })
  max_admit_per_minute: number | 'auto';

  @ApiProperty({
    type: 'integer',
    description: 'Admissions per minute the counter runs at now: max_admit_per_minute, or where `auto` has got to',
  })
  admission_rate: number;

  @ApiProperty({ type: 'integer' })
  admission_minutes: number;

  @ApiProperty({ type: 'integer' })
  units_per_admission: number;

  @ApiProperty()
  queue_all: boolean;

  @ApiProperty()
  paused: boolean;

  @ApiProperty({
    type: 'integer',
    description: 'Leading zero bits of SHA-256("{id}:{request_id}:{nonce}") a join must show in `challenge_nonce`; 0: none',
  })
  challenge_bits: number;

  @ApiProperty({ enum: QUEUE_STATES })
  status: QueueState;

  @ApiProperty({ type: 'integer', description: 'Entries at positions up to this one have been admitted' })
  serving_counter: number;

  @ApiProperty({ type: 'integer', description: 'Entries not admitted yet (the pre-queue included)' })
  queue_size: number;

  @ApiProperty({ description: "The queue's page for buyers" })
  page_url: string;
}

/** The part of the status every entry shares (GET /queues/{id}/status): cacheable for a second. */
@ApiSchema({ name: 'QueueSharedStatus' })
export class QueueSharedStatusResponse {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ enum: QUEUE_STATES })
  status: QueueState;

  @ApiProperty({ type: 'integer' })
  serving_counter: number;

  @ApiProperty({ type: 'integer' })
  queue_size: number;

  @ApiProperty({ type: 'integer', description: 'Admissions over the last minute' })
  admitted_per_minute: number;

  @ApiProperty({ format: 'date-time' })
  opens_at: string;

  @ApiProperty({ format: 'date-time' })
  last_updated: string;
}

/** One entry's place (POST /queues/{id}/entries, GET …/entries/{request_id}). */
@ApiSchema({ name: 'QueueEntryStatus' })
export class QueueEntryResponse {
  @ApiProperty()
  request_id: string;

  @ApiProperty({ enum: ENTRY_STATES })
  status: EntryState;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null in the pre-queue (positions are drawn at opens_at)' })
  position: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Entries still to be admitted before this one' })
  ahead: number | null;

  @ApiProperty({ type: 'integer' })
  serving_counter: number;

  @ApiProperty({ type: 'integer' })
  queue_size: number;

  @ApiProperty({ type: QueueEta, nullable: true, description: 'Wait until admission; null when unknown' })
  eta_seconds: QueueEta | null;

  @ApiProperty({ type: 'integer', description: 'Ask again after this many seconds' })
  refresh_after_seconds: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'admitted: until when the admission can be claimed and used',
  })
  admission_expires_at: string | null;

  @ApiProperty({ format: 'date-time', description: 'The pre-queue is shuffled and admissions begin' })
  opens_at: string;
}

/** POST …/admission: the admission token, sent as X-Queue-Token (or the cal_queue cookie) with cart writes and the checkout. */
@ApiSchema({ name: 'QueueAdmission' })
export class QueueAdmissionResponse {
  @ApiProperty({ description: 'Compact JWS (HS256): aud queue:{id}, sub the request_id, exp, jti' })
  token: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;

  @ApiProperty({ type: 'integer', description: 'Units this admission may still check out' })
  units_left: number;
}

@ApiSchema({ name: 'QueueMetrics' })
export class QueueMetricsResponse {
  @ApiProperty({ type: 'integer', description: 'Entries not admitted yet' })
  waiting: number;

  @ApiProperty({ type: 'integer', description: 'Admitted entries whose turn is not over' })
  active: number;

  @ApiProperty({ type: 'integer', description: 'Admissions over the last minute' })
  admitted_per_minute: number;

  @ApiProperty({ type: 'integer', description: 'Turns that ended with units checked out' })
  completed: number;

  @ApiProperty({ type: 'integer', description: 'Turns that lapsed unused or with units left' })
  abandoned: number;

  @ApiProperty({ type: 'number', description: 'abandoned / (completed + abandoned); 0 before any turn ended' })
  abandonment_rate: number;

  @ApiProperty({ type: 'integer' })
  revoked: number;

  @ApiProperty({ type: 'integer', description: 'Entries joined in all' })
  joined: number;
}
