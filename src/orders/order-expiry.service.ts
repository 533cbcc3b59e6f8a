import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CartService } from '../cart/cart.service';
import { CLOCK, Clock } from '../common/clock';
import { appConfig } from '../config/app.config';
import { PaymentsService } from '../payments/payments.service';
import { IdempotencyService } from './idempotency.service';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';
import { PeriodicTask } from '../common/background/periodic-task';
import { TransactionHost } from '../common/database/transaction-host';

/** Lapsed orders handled per sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

/**
 * Releases the capacity held by pending orders whose hold has lapsed, every
 * ORDER_SWEEP_INTERVAL_SECONDS, and forgets idle carts and day-old idempotency keys. Several
 * instances may sweep at once: each order is expired by one conditional UPDATE, so only one of them
 * releases it.
 */
@Injectable()
export class OrderExpiryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OrderExpiryService.name);
  private readonly sweeps = new PeriodicTask('order sweep', () => this.sweepExpiredOrders().then(() => this.purgeStale()), this.logger);

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly carts: CartService,
    private readonly idempotency: IdempotencyService,
    private readonly payments: PaymentsService,
    private readonly repository: OrdersRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeps.start(this.config.tickets.orderSweepIntervalSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeps.stop();
  }

  /** Expires every pending order whose hold lapsed before the clock's now; returns how many it expired. */
  async sweepExpiredOrders(): Promise<number> {
    const now = this.clock.now();
    const due = await this.repository.lapsedPendingIds(now, SWEEP_BATCH);
    let expired = 0;
    for (const id of due) {
      if (await this.tx.run(() => this.orders.expireOrder(id, now))) expired += 1;
    }
    // After the commits: cancel the PaymentIntents of the orders expired (and retry calls Stripe did not answer before).
    await this.payments.runDueActions();
    return expired;
  }

  /** Deletes carts idle for a day and idempotency keys older than a day. */
  async purgeStale(): Promise<void> {
    const now = this.clock.now();
    await this.carts.purgeIdleCarts(now);
    await this.idempotency.purgeStale(now);
    await this.payments.purgeProcessedEvents(now);
  }
}
