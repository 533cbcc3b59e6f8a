import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../config/app.config';
import { ReportsRepository } from './reports.repository';
import { SalesDaily } from './sales-ledger.entity';
import { PeriodicTask } from '../common/background/periodic-task';
import { TransactionHost } from '../common/database/transaction-host';

/** Ledger rows folded per pass; a backlog takes several passes. */
const FOLD_BATCH = 5000;

/**
 * Folds the sales ledger (rows the triggers of the SalesLedger migration write in every sale's
 * transaction) into `sales_daily`, one row per ticket and UTC day, every SALES_LEDGER_FOLD_SECONDS.
 * Reports sum both tables, so they are exact whether a row is folded yet or not. Several instances
 * may fold at once: each locks the rows it folds and skips those locked by another fold or by a
 * transaction still writing them (MariaDB; SQLite runs one writer), so no row is counted twice or lost.
 */
@Injectable()
export class SalesLedger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SalesLedger.name);
  private readonly folds = new PeriodicTask('sales ledger fold', () => this.fold(), this.logger, 'warn');

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly repository: ReportsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.folds.start(this.config.tickets.salesLedgerFoldSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.folds.stop();
  }

  /** Folds up to FOLD_BATCH ledger rows into `sales_daily`; answers how many it folded. */
  fold(): Promise<number> {
    return this.tx.run(
      async () => {
        const entries = await this.repository.lockOldestLedgerRows(FOLD_BATCH);
        if (entries.length === 0) return 0;
        const days = new Map<string, SalesDaily>();
        for (const entry of entries) {
          const key = `${entry.ticketId}/${entry.day}`;
          const day =
            days.get(key) ??
            Object.assign(new SalesDaily(), {
              ticketId: entry.ticketId,
              day: entry.day,
              eventId: entry.eventId,
              soldUnits: 0,
              soldCents: 0,
              refundedUnits: 0,
              refundedCents: 0,
              cancelledUnits: 0,
              cancelledCents: 0,
              checkedIn: 0,
              couponUnits: 0,
              discountCents: 0,
            });
          day.soldUnits += entry.soldUnits;
          day.soldCents += entry.soldCents;
          day.refundedUnits += entry.refundedUnits;
          day.refundedCents += entry.refundedCents;
          day.cancelledUnits += entry.cancelledUnits;
          day.cancelledCents += entry.cancelledCents;
          day.checkedIn += entry.checkedIn;
          day.couponUnits += entry.couponUnits;
          day.discountCents += entry.discountCents;
          days.set(key, day);
        }
        await this.repository.deleteLedgerRows(entries.map((entry) => entry.id));
        await this.repository.addToDaily([...days.values()]);
        return entries.length;
      },
      { readCommitted: true },
    );
  }
}
