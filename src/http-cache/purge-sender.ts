import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../config/app.config';
import { DeliveryAttemptError, PermanentDeliveryError } from '../outbox/delivery-errors';
import type { OutboxMessage } from '../outbox/outbox-message.entity';

/** Longest one purge request may take. */
const PURGE_TIMEOUT_MS = 10_000;

/**
 * Sends one outbox purge message to PURGE_URL: `PURGE` with the keys space-separated in the
 * `xkey-purge` and `Surrogate-Key` headers and as JSON `{"keys": [...]}` in the body, so that a
 * Varnish with xkey (docs/caching.md's VCL) or a small relay for a CDN's purge API can use it.
 * A 2xx answer delivers it; anything else is retried by the outbox worker with back-off.
 */
@Injectable()
export class PurgeSender {
  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {}

  async deliver(message: OutboxMessage): Promise<number> {
    const url = this.config.httpCache.purgeUrl;
    if (!url) throw new PermanentDeliveryError('PURGE_URL is not set on the instance that delivers the outbox');
    const { keys } = JSON.parse(message.payload) as { keys: string[] };
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'PURGE',
        headers: { 'xkey-purge': keys.join(' '), 'surrogate-key': keys.join(' '), 'content-type': 'application/json' },
        body: JSON.stringify({ keys }),
        signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
      });
    } catch (error) {
      throw new DeliveryAttemptError(`purge request failed: ${(error as Error).message}`, null);
    }
    await response.arrayBuffer().catch(() => undefined);
    if (response.status < 200 || response.status >= 300) {
      throw new DeliveryAttemptError(`the cache answered the purge with ${response.status}`, response.status);
    }
    return response.status;
  }
}
