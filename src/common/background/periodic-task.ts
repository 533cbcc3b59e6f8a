import type { Logger } from '@nestjs/common';

/**
 * A background round run inside the service every so often (a sweep, a fold, a delivery): never
 * two rounds of one task at once in a process (a tick that finds a round running or waiting is
 * skipped), a timer that does not keep the process alive, a failed round logged and tried again at
 * the next tick, and a stop that waits for the round in progress. A round asked for by hand (`run`,
 * `runNow`: tests, an operator's command) waits for the one in progress instead of being skipped,
 * and hands its result or failure to the caller. Several instances running the same task at once
 * is each task's own business (conditional UPDATEs, SKIP LOCKED).
 */
export class PeriodicTask<T = unknown> {
  private timer: NodeJS.Timeout | null = null;
  /** Settles when the last round started or queued has finished, either way; null when none is. */
  private last: Promise<void> | null = null;

  constructor(
    /** What a failed round's log line calls it: "waitlist sweep failed". */
    private readonly name: string,
    private readonly round: () => Promise<T>,
    private readonly logger: Pick<Logger, 'error' | 'warn'>,
    private readonly failureLevel: 'error' | 'warn' = 'error',
  ) {}

  /** Starts ticking every `intervalMs`; 0 (switched off on this instance) starts nothing. */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits until no round is running or waiting, those asked for by hand included. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.last) await this.last;
  }

  /** The task's round, by hand: after the rounds in progress or waiting, never beside them. */
  runNow(): Promise<T> {
    return this.run(this.round);
  }

  /** Another round of the same task (a test's "until nothing is left"), serialized with the timer's. */
  run<R>(round: () => Promise<R>): Promise<R> {
    const result = (this.last ?? Promise.resolve()).then(() => round());
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.last = settled;
    void settled.then(() => {
      if (this.last === settled) this.last = null;
    });
    return result;
  }

  private tick(): void {
    if (this.last) return;
    this.run(this.round).catch((error: unknown) => this.logger[this.failureLevel]({ err: error }, `${this.name} failed`));
  }
}
