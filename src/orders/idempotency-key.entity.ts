import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** The first response to a request sent with an `Idempotency-Key`, replayed to retries for 24 hours. */
@Entity({ name: 'idempotency_keys' })
@Index('UQ_idempotency_keys_scope_key', ['scope', 'idempotencyKey'], { unique: true })
@Index('IDX_idempotency_keys_created', ['createdAt'])
export class IdempotencyKey {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** `user:<id>` or `cart:<token>`. */
  @Column({ type: 'varchar', length: 100 })
  scope: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255 })
  idempotencyKey: string;

  /** SHA-256 of the request body, to tell a retry from a reuse of the key. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ name: 'status_code', type: 'int' })
  statusCode: number;

  @Column({ name: 'response_body', type: 'text' })
  responseBody: string;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
