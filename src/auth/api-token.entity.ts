import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { PersonalDataAccess } from './scopes';
import { User } from './user.entity';

/**
 * An API token (issue 43, docs/tokens.md): a Bearer secret `cal_<prefix>_<random>` standing for its
 * owner, narrowed to its scopes and events. Only the SHA-256 of the secret is kept; `prefix` finds
 * the row. Deleting the owner deletes their tokens.
 */
@Entity({ name: 'api_tokens' })
@Index('UQ_api_tokens_prefix', ['prefix'], { unique: true })
@Index('IDX_api_tokens_user', ['userId'])
export class ApiToken {
  @PrimaryGeneratedColumn({ type: 'int' })
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_api_tokens_user' })
  owner?: User;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** The public part of the secret, shown in lists: `cal_<prefix>_…`. */
  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  /** SHA-256 (hex) of the whole secret. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64 })
  secretHash: string;

  /** Comma-separated scopes (auth/scopes.ts). */
  @Column({ type: 'varchar', length: 1000 })
  scopes: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  preset: string | null;

  /** Comma-separated event ids; null: every event the owner may act on. */
  @Column({ name: 'limit_events', type: 'varchar', length: 2000, nullable: true })
  limitEvents: string | null;

  @Column({ type: 'varchar', length: 8 })
  pii: PersonalDataAccess;

  @Column({ name: 'expires_at', type: 'datetime', nullable: true })
  expiresAt: Date | null;

  /** Comma-separated addresses and CIDR ranges; null: any address. */
  @Column({ name: 'allowed_ips', type: 'varchar', length: 2000, nullable: true })
  allowedIps: string | null;

  @Column({ name: 'last_used_at', type: 'datetime', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'datetime', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
