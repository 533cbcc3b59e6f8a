import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { PeriodicTask } from '../common/background/periodic-task';
import { ApiError } from '../common/errors/api-error';
import { CLOCK, Clock } from '../common/clock';
import { appConfig } from '../config/app.config';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';

/** A run not finished this long after its claim is taken to be dead (its instance stopped) and run again. */
export const EXPORT_LEASE_MS = 30 * 60_000;
/** Runs of one job before it is marked failed. */
const MAX_ATTEMPTS = 3;

/** What one round did. */
export interface ExportRound {
  /** The job run, if any. */
  jobId: number | null;
  status: 'done' | 'failed' | 'lost' | null;
  expired: number;
}

/**
 * Runs queued exports, one at a time per instance, every EXPORT_POLL_INTERVAL_MS (EXPORT_WORKER=false:
 * this instance only queues them). A job is claimed with a conditional UPDATE (`status = 'queued'`),
 * so of several instances polling at once exactly one runs it; a run whose instance died is claimed
 * again after EXPORT_LEASE_MS. Its outcome is recorded only while its claim holds. Each round also
 * expires finished files past EXPORT_TTL_HOURS and deletes them.
 */
@Injectable()
export class ExportWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExportWorker.name);
  private readonly rounds = new PeriodicTask('export round', () => this.round(), this.logger);

  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: ExportsRepository,
    private readonly exports: ExportsService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.exports.worker) this.rounds.start(this.config.exports.pollIntervalMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** One round: expires what is due, then claims and runs the oldest waiting job. Rounds of one instance never overlap. */
  runOnce(): Promise<ExportRound> {
    return this.rounds.runNow();
  }

  private async round(): Promise<ExportRound> {
    const now = this.clock.now();
    const expired = await this.repository.expireDue(now);
    const staleBefore = new Date(now.getTime() - EXPORT_LEASE_MS);
    const jobId = await this.repository.nextClaimable(staleBefore);
    if (jobId === null) return { jobId: null, status: null, expired };
    const token = randomUUID();
    if (!(await this.repository.claim(jobId, token, now, staleBefore))) return { jobId, status: 'lost', expired };
    const job = await this.repository.findJob(jobId);
    if (!job) return { jobId, status: 'lost', expired };
    try {
      const outcome = await this.exports.runJob(job);
      const finished = this.clock.now();
      const recorded = await this.repository.finishRun(job.id, token, {
        status: 'done',
        rowCount: outcome.rows,
        sizeBytes: outcome.bytes,
        completedAt: finished,
        expiresAt: new Date(finished.getTime() + this.config.exports.ttlHours * 3600_000),
        error: null,
        updatedAt: finished,
      });
      return { jobId, status: recorded ? 'done' : 'lost', expired };
    } catch (error) {
      // Filters that no longer hold (an event deleted since) fail at once; anything else is tried again.
      const final = error instanceof ApiError || job.attempts >= MAX_ATTEMPTS;
      this.logger.warn({ err: error, jobId }, final ? 'export failed' : 'export run failed; it will be tried again');
      if (!final) {
        await this.repository.release(job.id, token, this.clock.now());
        return { jobId, status: 'lost', expired };
      }
      const reason = error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
      await this.repository.finishRun(job.id, token, { status: 'failed', error: reason, updatedAt: this.clock.now() });
      await this.repository.deleteChunks(job.id);
      return { jobId, status: 'failed', expired };
    }
  }
}
