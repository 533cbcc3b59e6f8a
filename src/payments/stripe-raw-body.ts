import express, { RequestHandler } from 'express';
import { mapErrors } from '../common/http/body-parsers';
import type { AppConfig } from '../config/app.config';
import { STRIPE_WEBHOOK_PATH } from './stripe-webhook.controller';

/**
 * Stripe signs the exact bytes it sends, so its webhook's body is read as a Buffer, whatever its
 * content type, before the JSON parser would turn it into an object (and lose the bytes). Mounted
 * by app.setup.ts ahead of the other body parsers, for that one path only.
 */
export function stripeWebhookRawBody(config: Pick<AppConfig, 'apiRoot' | 'apiPrefix' | 'bodyLimitBytes'>): [string, RequestHandler] {
  const path = `${config.apiRoot}/${config.apiPrefix}/${STRIPE_WEBHOOK_PATH}`;
  return [path, mapErrors(express.raw({ type: () => true, limit: config.bodyLimitBytes }))];
}
