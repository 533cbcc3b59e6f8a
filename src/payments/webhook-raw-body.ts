import express, { RequestHandler } from 'express';
import { mapErrors } from '../common/http/body-parsers';
import type { AppConfig } from '../config/app.config';
import { PAYMENT_WEBHOOK_PATH } from './payment-webhook.controller';

/**
 * Providers sign the exact bytes they send (Stripe's signature, PayPal's CRC32 of the body), so a
 * payment webhook's body is read as a Buffer, whatever its content type, before the JSON parser
 * would turn it into an object (and lose the bytes). Mounted by app.setup.ts ahead of the other
 * body parsers, for the webhook paths only.
 */
export function paymentWebhookRawBody(config: Pick<AppConfig, 'apiRoot' | 'apiPrefix' | 'bodyLimitBytes'>): [string, RequestHandler] {
  const path = `${config.apiRoot}/${config.apiPrefix}/${PAYMENT_WEBHOOK_PATH}`;
  return [path, mapErrors(express.raw({ type: () => true, limit: config.bodyLimitBytes }))];
}
