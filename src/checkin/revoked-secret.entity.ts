import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A secret replaced by a new one: scanning it answers `revoked` rather than `invalid`. */
@Entity({ name: 'checkin_revoked_secrets' })
@Index('UQ_checkin_revoked_secrets_secret', ['secret'], { unique: true })
@Index('IDX_checkin_revoked_secrets_event', ['eventId', 'revokedAt'])
export class RevokedSecret {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  secret: string;

  @Column({ name: 'attendee_id', type: 'int' })
  attendeeId: number;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'revoked_at', type: 'datetime', precision: 3 })
  revokedAt: Date;
}
