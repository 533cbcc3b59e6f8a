import type { Logger } from '@nestjs/common';

/**
 * A background round run inside the service every so often (a sweep, a fold): never two rounds
 * of one task at once in a process (a tick that finds the last round still running is skipped),
 * a timer that does not keep the process alive, a failed round logged and tried again at the next
 * tick, and a stop that waits for the round in progress. Several instances running the same task
 * at once is each task's own business (conditional UPDATEs, SKIP LOCKED).
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    /** What a failed round's log line calls it: "waitlist sweep failed". */
    private readonly name: string,
    private readonly round: () => Promise<unknown>,
    private readonly logger: Pick<Logger, 'error' | 'warn'>,
    private readonly failureLevel: 'error' | 'warn' = 'error',
  ) {}

  /** Starts ticking every `intervalMs`; 0 (switched off on this instance) starts nothing. */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.round()
      .then(() => undefined)
      .catch((error: unknown) => this.logger[this.failureLevel]({ err: error }, `${this.name} failed`))
      .finally(() => {
        this.running = null;
      });
  }
}
