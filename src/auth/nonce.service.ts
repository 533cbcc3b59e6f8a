import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CLOCK, Clock } from '../common/clock';
import { appConfig } from '../config/app.config';
import { constantTimeEqual } from './passwords';

export const NONCE_ACTIONS = ['add_ticket_nonce', 'edit_ticket_nonce', 'remove_ticket_nonce'] as const;
export type NonceAction = (typeof NONCE_ACTIONS)[number];

/** A tick lasts 12 h; a nonce is valid in its tick and the next, so for 12 to 24 h. */
export const NONCE_TICK_SECONDS = 43_200;
const NONCE_LENGTH = 20;

/**
 * Stateless nonces as WordPress makes them: an HMAC of (tick, action, user id) with NONCE_SECRET.
 * Any instance sharing the secret verifies any other's nonces.
 */
@Injectable()
export class NonceService {
  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  currentTick(): number {
    return Math.ceil(this.clock.now().getTime() / 1000 / NONCE_TICK_SECONDS);
  }

  create(action: NonceAction, userId: number): string {
    return this.sign(action, userId, this.currentTick());
  }

  verify(nonce: string, action: NonceAction, userId: number): boolean {
    const tick = this.currentTick();
    // Both candidates are always computed and compared, so timing does not reveal the tick.
    const current = constantTimeEqual(nonce, this.sign(action, userId, tick));
    const previous = constantTimeEqual(nonce, this.sign(action, userId, tick - 1));
    return current || previous;
  }

  private sign(action: NonceAction, userId: number, tick: number): string {
    return createHmac('sha256', this.config.nonceSecret).update(`${tick}|${action}|${userId}`).digest('hex').slice(0, NONCE_LENGTH);
  }
}
