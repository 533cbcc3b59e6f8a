import request from 'supertest';
import type { TestApp } from './test-app';

/** How a buyer identifies: HTTP Basic credentials, or the cart token an anonymous cart write returned. */
export interface BuyerIdentity {
  authorization?: string;
  token?: string;
}

export const CART_PATH = '/cal/tickets/v1/cart';
export const CHECKOUT_PATH = '/cal/tickets/v1/cart/checkout';
export const ORDERS_PATH = '/cal/tickets/v1/orders';

export function identify(test: request.Test, identity: BuyerIdentity): request.Test {
  if (identity.authorization) test.set('Authorization', identity.authorization);
  if (identity.token) test.set('X-Cart-Token', identity.token);
  return test;
}

export interface CartLine {
  ticket_id: number;
  quantity: number;
  optout?: boolean;
}

/**
 * Puts `lines` in the buyer's cart (an anonymous buyer without a token gets one) and returns the
 * identity to use from then on.
 */
export async function fillCart(
  testApp: TestApp,
  identity: BuyerIdentity,
  provider: string,
  lines: CartLine[],
  meta?: unknown,
): Promise<BuyerIdentity> {
  const response = await identify(request(testApp.server).post(CART_PATH), identity).send({
    provider,
    tickets: lines,
    ...(meta ? { meta } : {}),
  });
  if (response.status !== 200) throw new Error(`cart write failed: ${response.status} ${JSON.stringify(response.body)}`);
  const token = response.headers['x-cart-token'] as string | undefined;
  return token ? { ...identity, token } : identity;
}

export function checkout(testApp: TestApp, identity: BuyerIdentity, body: Record<string, unknown>, idempotencyKey?: string): request.Test {
  const test = identify(request(testApp.server).post(CHECKOUT_PATH), identity);
  if (idempotencyKey !== undefined) test.set('Idempotency-Key', idempotencyKey);
  return test.send(body);
}

export const PURCHASER = { name: 'Grace Hopper', email: 'grace@example.org' };
