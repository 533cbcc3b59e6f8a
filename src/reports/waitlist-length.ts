import { Injectable } from '@nestjs/common';

/**
 * The hook through which the summary report learns how many units an event's waitlist asks for.
 * This branch has no waitlist, so the answer is null ("no waitlist"), which the report shows as
 * `waitlist: null`; the waitlist module replaces this provider (or its method) with a read of its
 * own counts.
 */
@Injectable()
export class WaitlistLength {
  waitingUnits(_eventId: number): Promise<number | null> {
    return Promise.resolve(null);
  }
}
