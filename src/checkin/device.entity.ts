import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A scanner registered by a manager; it holds only hashes of its tokens. */
@Entity({ name: 'checkin_devices' })
@Index('UQ_checkin_devices_initialization', ['initializationTokenHash'], { unique: true })
@Index('UQ_checkin_devices_api_token', ['apiTokenHash'], { unique: true })
export class Device {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Shown as the gate in the history. */
  @Column({ type: 'varchar', length: 191 })
  name: string;

  /** JSON array of the lists it may scan for. */
  @Column({ name: 'list_ids', type: 'text' })
  listIds: string;

  /** SHA-256 of the initialization token until it is used, then null. */
  @Column({ name: 'initialization_token_hash', type: 'varchar', length: 64, nullable: true })
  initializationTokenHash: string | null;

  @Column({ name: 'initialization_expires_at', type: 'datetime', precision: 3, nullable: true })
  initializationExpiresAt: Date | null;

  @Column({ name: 'api_token_hash', type: 'varchar', length: 64, nullable: true })
  apiTokenHash: string | null;

  @Column({ name: 'initialized_at', type: 'datetime', precision: 3, nullable: true })
  initializedAt: Date | null;

  @Column({ type: 'varchar', length: 191, nullable: true })
  hardware: string | null;

  @Column({ type: 'varchar', length: 191, nullable: true })
  software: string | null;

  @Column({ name: 'revoked_at', type: 'datetime', precision: 3, nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'created_by', type: 'int', nullable: true })
  createdBy: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
