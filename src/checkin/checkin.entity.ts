import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One scan, successful or not: the check-in history. */
@Entity({ name: 'checkins' })
@Index('UQ_checkins_nonce', ['nonceScope', 'nonce'], { unique: true })
@Index('IDX_checkins_list', ['listId', 'id'])
@Index('IDX_checkins_event', ['eventId', 'id'])
@Index('IDX_checkins_device', ['deviceId', 'id'])
@Index('IDX_checkins_attendee', ['attendeeId', 'listId', 'id'])
export class Checkin {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'list_id', type: 'int' })
  listId: number;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  /** Null for a secret nobody holds. */
  @Column({ name: 'attendee_id', type: 'int', nullable: true })
  attendeeId: number | null;

  @Column({ type: 'varchar', length: 10 })
  type: string;

  /** When it was scanned (an offline device's time for uploads). */
  @Column({ name: 'scanned_at', type: 'datetime', precision: 3 })
  scannedAt: Date;

  /** When the service received it. */
  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ type: 'boolean', default: false })
  successful: boolean;

  /** Recorded because the device said so (an offline scan), whatever the rules said. */
  @Column({ type: 'boolean', default: false })
  forced: boolean;

  /** The refusal, or for a forced scan the reason it would have been refused. */
  @Column({ type: 'varchar', length: 30, nullable: true })
  reason: string | null;

  @Column({ name: 'device_id', type: 'int', nullable: true })
  deviceId: number | null;

  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  /** `device:<id>` or `user:<id>`: whose nonce it is. */
  @Column({ name: 'nonce_scope', type: 'varchar', length: 40, nullable: true })
  nonceScope: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  nonce: string | null;

  /**
   * SHA-256 of the request that carried the nonce (CheckinRepository's requestDigest): a retry must
   * send the same request to be answered the stored answer. Null without a nonce, and on scans
   * recorded before requests were bound to their nonce.
   */
  @Column({ name: 'request_hash', type: 'varchar', length: 64, nullable: true })
  requestHash: string | null;

  /** When the scan was annulled (POST /checkin/annul); an annulled scan moves no count. */
  @Column({ name: 'annulled_at', type: 'datetime', precision: 3, nullable: true })
  annulledAt: Date | null;

  /** Who annulled it: the device, or the signed-in user. */
  @Column({ name: 'annulled_device_id', type: 'int', nullable: true })
  annulledDeviceId: number | null;

  @Column({ name: 'annulled_user_id', type: 'int', nullable: true })
  annulledUserId: number | null;

  /** The HTTP status and JSON body answered, replayed to a retry with the same nonce. */
  @Column({ name: 'answer_status', type: 'int' })
  answerStatus: number;

  @Column({ type: 'text' })
  answer: string;
}
