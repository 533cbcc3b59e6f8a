import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { In } from 'typeorm';
import { inSlices } from '../common/database/bulk-insert';
import { appConfig } from '../config/app.config';
import { AttendeeTally } from './attendee-tally.entity';
import { SqlDialect } from '../database/sql-dialect';
import { PeriodicTask } from '../common/background/periodic-task';
import { TransactionHost } from '../common/database/transaction-host';

/** Rows folded per pass; a backlog takes several passes. */
const FOLD_BATCH = 5000;

/**
 * The number of attendees, kept in `attendee_tallies` (see its migration): read as the sum of a few
 * rows, exact at every commit on every instance. Every ATTENDEE_TALLY_COMPACT_SECONDS this instance
 * folds the committed rows into one, so that the sum stays a read of a few rows during a sale.
 * Several instances may fold at once: each locks the rows it folds and skips those locked by
 * another fold or by a transaction still writing them, so no row is counted twice or lost.
 */
@Injectable()
export class AttendeeTallies implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AttendeeTallies.name);
  private readonly folds = new PeriodicTask('attendee tally fold', () => this.fold(), this.logger, 'warn');

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  onApplicationBootstrap(): void {
    this.folds.start(this.config.tickets.attendeeTallyCompactSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.folds.stop();
  }

  /** How many attendees there are, as committed. */
  async total(): Promise<number> {
    const row = await this.tx.dataSource
      .createQueryBuilder(AttendeeTally, 'tally')
      .select('COALESCE(SUM(tally.delta), 0)', 'total')
      .getRawOne<{ total: number | string }>();
    return Number(row?.total ?? 0);
  }

  /** Folds up to FOLD_BATCH committed rows into one; answers how many rows it removed. */
  async fold(): Promise<number> {
    return this.tx.run(
      async () => {
        // Read committed: no gap locks, so checkouts inserting their rows meanwhile never wait.
        const rows = SqlDialect.of(this.tx.manager).forUpdateSkipLocked(
          this.tx.manager
            .createQueryBuilder(AttendeeTally, 'tally')
            .select(['tally.id', 'tally.delta'])
            .orderBy('tally.id')
            .limit(FOLD_BATCH),
        );
        const folded = await rows.getMany();
        if (folded.length < 2) return 0;
        for (const slice of inSlices(folded.map((row) => row.id))) await this.tx.manager.delete(AttendeeTally, { id: In(slice) });
        await this.tx.manager.insert(AttendeeTally, { delta: folded.reduce((sum, row) => sum + row.delta, 0) });
        return folded.length - 1;
      },
      { readCommitted: true },
    );
  }
}
