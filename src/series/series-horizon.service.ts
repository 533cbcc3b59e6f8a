import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { seriesConfig } from './series.config';
import { SeriesService } from './series.service';
import { PeriodicTask } from '../common/background/periodic-task';

/** Series extended per run; the next run takes the rest. */
const RUN_BATCH = 100;
/** How long a claim holds a series: longer than any extension takes, short enough to recover from a crash. */
const CLAIM_SECONDS = 600;

/**
 * Keeps open-ended series RECURRENCE_HORIZON_MONTHS ahead as time passes: every
 * SERIES_WORKER_INTERVAL_SECONDS it creates the occurrences that came into the horizon. Several
 * instances may run it: each series is claimed by one conditional UPDATE, and extended under a
 * lock of its row. SERIES_WORKER=false leaves it to other instances.
 */
@Injectable()
export class SeriesHorizonService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SeriesHorizonService.name);
  private readonly runs = new PeriodicTask('series horizon run', () => this.extendDueSeries(), this.logger);

  constructor(
    @Inject(seriesConfig.KEY) private readonly settings: ConfigType<typeof seriesConfig>,
    private readonly series: SeriesService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.worker) return;
    this.runs.start(this.settings.workerIntervalSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runs.stop();
  }

  /** Extends every series that is due and that no other instance holds; returns the occurrences created. */
  async extendDueSeries(): Promise<number> {
    let created = 0;
    for (const id of await this.series.dueSeries(RUN_BATCH)) {
      if (!(await this.series.claim(id, CLAIM_SECONDS))) continue;
      try {
        created += await this.series.extend(id);
      } catch (error) {
        // The claim lapses, and a later run tries again; the other series go on.
        this.logger.error({ err: error, seriesId: id }, 'extending a series failed');
      }
    }
    return created;
  }
}
