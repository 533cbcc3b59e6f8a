import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const EXPORT_KINDS = ['attendees', 'orders'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** queued → running → done → expired (file deleted), or failed. */
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

const bigintNumber = { from: (value: unknown) => Number(value ?? 0), to: (value: unknown) => value };

/** An asynchronous export: what was asked, by whom, and where its run stands. */
@Entity({ name: 'export_jobs' })
@Index('IDX_export_jobs_status', ['status', 'id'])
@Index('IDX_export_jobs_expires', ['status', 'expiresAt'])
export class ExportJob {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 20 })
  kind: ExportKind;

  @Column({ type: 'varchar', length: 10 })
  format: ExportFormat;

  @Column({ type: 'varchar', length: 20 })
  status: ExportStatus;

  /** Who asked: the export runs with this user's access, read again when it runs. */
  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  /** The API token the job was asked with (its limits and masking apply), or null for a user's own credentials. */
  @Column({ name: 'token_id', type: 'int', nullable: true })
  tokenId: number | null;

  /** The list filters, as JSON of the validated query. */
  @Column({ type: 'text' })
  query: string;

  /** The worker run that holds the job (a UUID), so that only it records the outcome. */
  @Column({ name: 'claim_token', type: 'varchar', length: 36, nullable: true })
  claimToken: string | null;

  @Column({ name: 'claimed_at', type: 'datetime', nullable: true })
  claimedAt: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'row_count', type: 'int', default: 0 })
  rowCount: number;

  @Column({ name: 'size_bytes', type: 'bigint', default: 0, transformer: bigintNumber })
  sizeBytes: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ name: 'completed_at', type: 'datetime', nullable: true })
  completedAt: Date | null;

  /** Until when the file can be downloaded (set when done). */
  @Column({ name: 'expires_at', type: 'datetime', nullable: true })
  expiresAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

/** One piece (at most 1 MiB) of a finished export's file, in order of `seq`. */
@Entity({ name: 'export_chunks' })
export class ExportChunk {
  @PrimaryColumn({ name: 'job_id', type: 'int' })
  jobId: number;

  @PrimaryColumn({ type: 'int' })
  seq: number;

  @Column({ type: 'blob' })
  data: Buffer;
}
