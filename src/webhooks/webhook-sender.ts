import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DeliveryAttemptError, PermanentDeliveryError } from '../outbox/delivery-errors';
import type { WebhookTarget } from './webhook-target';

/** The most of an answer's body read (and then dropped): a receiver cannot make the worker buffer more. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SignedDelivery {
  target: WebhookTarget;
  secret: string;
  messageId: string;
  payload: string;
  timeoutMs: number;
  now: Date;
}

/** The Standard Webhooks headers: `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`). */
export function signatureHeaders(secret: string, messageId: string, timestamp: Date, payload: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, timestamp, payload),
  };
}

/**
 * POSTs one signed delivery to the address already checked (DNS is not asked again), follows no
 * redirect, and gives up after `timeoutMs`. Resolves with the status on 2xx; throws
 * PermanentDeliveryError on 410 Gone and DeliveryAttemptError on anything else.
 */
export function sendWebhook(delivery: SignedDelivery): Promise<number> {
  const { target } = delivery;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const body = Buffer.from(delivery.payload);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        timeout: delivery.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'cal-webhooks/1',
          ...signatureHeaders(delivery.secret, delivery.messageId, delivery.now, delivery.payload),
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const status = response.statusCode ?? 0;
        const settle = () => {
          if (status >= 200 && status < 300) resolve(status);
          else if (status === 410) reject(new PermanentDeliveryError('the endpoint answered 410 Gone: it is disabled', 410));
          else if (status >= 300 && status < 400)
            reject(new DeliveryAttemptError(`the endpoint answered ${status}; redirects are not followed`, status));
          else reject(new DeliveryAttemptError(`the endpoint answered ${status}`, status));
        };
        response.on('end', settle);
        response.on('close', settle);
        response.on('error', settle);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${delivery.timeoutMs} ms`)), delivery.timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${delivery.timeoutMs} ms`)));
    request.on('error', (error) => reject(new DeliveryAttemptError(error.message, null)));
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}
