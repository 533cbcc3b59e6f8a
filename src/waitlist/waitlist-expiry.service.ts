import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CLOCK, Clock } from '../common/clock';
import { appConfig } from '../config/app.config';
import { WaitlistOffersService } from './waitlist-offers.service';
import { WaitlistRepository } from './waitlist.repository';
import { PeriodicTask } from '../common/background/periodic-task';
import { TransactionHost } from '../common/database/transaction-host';

/** Lapsed offers (and tickets to top up) handled per sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

/**
 * Every WAITLIST_SWEEP_INTERVAL_SECONDS: expires lapsed offers, which gives their units back and
 * passes them to the next in line, then offers whatever else is free to tickets with automatic
 * offers and someone waiting (a pool raised, units a release could not place). Several instances
 * may sweep at once: each offer leaves `offered` by one conditional UPDATE and each new offer is a
 * conditional waiting → offered under the counter row's lock, so every unit moves exactly once.
 */
@Injectable()
export class WaitlistExpiryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WaitlistExpiryService.name);
  private readonly sweeps = new PeriodicTask('waitlist sweep', () => this.sweepExpiredOffers().then(() => this.topUp()), this.logger);

  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly offers: WaitlistOffersService,
    private readonly entries: WaitlistRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeps.start(this.config.tickets.waitlistSweepIntervalSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeps.stop();
  }

  /** Expires every offer that lapsed before the clock's now, one transaction each; returns how many this call expired. */
  async sweepExpiredOffers(): Promise<number> {
    const now = this.clock.now();
    const due = await this.entries.dueOffers(now, SWEEP_BATCH);
    let expired = 0;
    for (const id of due) {
      if (await this.tx.run(() => this.offers.expireOffer(id, now))) expired += 1;
    }
    return expired;
  }

  /** Offers free units of tickets with automatic offers to their waiting entries; returns how many entries got one. */
  async topUp(): Promise<number> {
    const ticketIds = await this.entries.autoOfferTicketIds(SWEEP_BATCH);
    let offered = 0;
    for (const ticketId of ticketIds) {
      offered += await this.tx.run(async () => {
        const [ticket] = await this.entries.autoOfferTickets([ticketId]);
        return ticket ? (await this.offers.offerAvailable(ticket)).length : 0;
      });
    }
    return offered;
  }
}
