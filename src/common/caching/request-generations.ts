import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The cache generations one request has read (CountCache, in catalogue/caching/): its counts agree
 * with each other and cost one read per scope. Kept here, below the features, because the one
 * global interceptor opens the memo around every handler.
 */
const requestGenerations = new AsyncLocalStorage<Map<string, Promise<number>>>();

/** Runs `work` (a request's handler) with its own memo of count generations. */
export function withRequestGenerations<T>(work: () => T): T {
  return requestGenerations.run(new Map(), work);
}

/** The memo of the request in progress; undefined outside a request (a worker, a test). */
export function currentRequestGenerations(): Map<string, Promise<number>> | undefined {
  return requestGenerations.getStore();
}
