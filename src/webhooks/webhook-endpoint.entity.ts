import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  description: string;

  /** JSON array of event types; null: every type. */
  @Column({ name: 'event_types', type: 'text', nullable: true })
  eventTypes: string | null;

  /** The signing key (`whsec_<base64>`) sealed by WebhookSecretBox: the signatures need it in clear, the database does not. */
  @Column({ type: 'varchar', length: 128 })
  secret: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Why the service disabled it (a 410 answer), or null. */
  @Column({ name: 'disabled_reason', type: 'varchar', length: 255, nullable: true })
  disabledReason: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
