/**
 * The buyers of a flash sale, run in the load process (bench/load.ts): each buyer has a cart of
 * its own and, until the ticket is sold out, puts 1–`maxUnits` units in it and checks it out.
 * Buyers are spread over the service instances in turn (one instance per Galera node, say) and
 * stay with theirs, since a cart token is answered by any instance but a buyer keeps one address.
 */
import { send } from './http-client';

export interface FlashJob {
  kind: 'flash';
  /** Service instances; buyer n talks to urls[n % urls.length]. */
  urls: string[];
  ticket: { id: number; provider: string };
  buyers: number;
  maxUnits: number;
  /** The sale stops by itself after this long, sold out or not. */
  deadlineSeconds: number;
}

export interface FlashResult {
  /** From the first request to the last answer. */
  elapsedMs: number;
  /** From the first request to the answer of the last successful checkout. */
  sellingMs: number;
  checkouts: number;
  units: number;
  /** Latency of the checkouts answered 201, in ms. */
  p50: number;
  p99: number;
  max: number;
  /** Latency of every checkout answer, whatever its status. */
  allP50: number;
  allP99: number;
  /** Latency of the cycles that sold, in ms: from sending the cart write to the checkout's 201. */
  cycleP50: number;
  cycleP99: number;
  cycleMax: number;
  /** `cart 409`, `checkout 201`, `checkout 409`, `checkout 503`, `error`… counted. */
  statuses: Record<string, number>;
  /** Order ids answered 201 more than once (must be 0). */
  duplicateOrders: number;
  /** Whether the deadline cut the sale before every buyer saw it sold out. */
  timedOut: boolean;
}

/** After an answer that is neither a sale nor "sold out" (a stopped node, a 503), before trying again. */
const RETRY_PAUSE_MS = 100;

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

export async function runFlashSale(job: FlashJob): Promise<FlashResult> {
  const started = performance.now();
  const deadline = started + job.deadlineSeconds * 1000;
  const statuses: Record<string, number> = {};
  const count = (key: string) => (statuses[key] = (statuses[key] ?? 0) + 1);
  const okLatencies: number[] = [];
  const allLatencies: number[] = [];
  const cycleLatencies: number[] = [];
  const orderIds = new Set<number>();
  let duplicateOrders = 0;
  let units = 0;
  let lastSale = started;
  let timedOut = false;

  const post = async (
    url: string,
    body: unknown,
    token: string | null,
  ): Promise<{ status: number; token: string | null; body: string }> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers['x-cart-token'] = token;
    const timeoutMs = Math.round(Math.max(1000, deadline - performance.now() + 60_000));
    const answer = await send(url, { method: 'POST', headers, body: JSON.stringify(body) }, timeoutMs);
    const issued = answer.headers['x-cart-token'];
    return { status: answer.status, token: typeof issued === 'string' ? issued : null, body: answer.body };
  };

  const buyer = async (index: number): Promise<void> => {
    const base = job.urls[index % job.urls.length];
    let token: string | null = null;
    let wanted = 1 + Math.floor(Math.random() * job.maxUnits);
    for (;;) {
      if (performance.now() > deadline) {
        timedOut = true;
        return;
      }
      try {
        const cycleStarted = performance.now();
        const cart = await post(
          `${base}/cal/tickets/v1/cart`,
          { provider: job.ticket.provider, tickets: [{ ticket_id: job.ticket.id, quantity: wanted }] },
          token,
        );
        if (cart.status === 409) {
          count('cart 409');
          // Fewer left than wanted: ask for one; none left: this buyer is done.
          if (wanted > 1) {
            wanted = 1;
            continue;
          }
          return;
        }
        if (cart.status !== 200) {
          count(`cart ${cart.status}`);
          await pause();
          continue;
        }
        token = cart.token ?? token;
        const sent = performance.now();
        const checkout = await post(
          `${base}/cal/tickets/v1/cart/checkout`,
          { provider: job.ticket.provider, purchaser: { name: `Flash buyer ${index}`, email: `flash${index}@example.com` } },
          token,
        );
        const latency = performance.now() - sent;
        allLatencies.push(latency);
        count(`checkout ${checkout.status}`);
        if (checkout.status !== 201 && checkout.status !== 409) await pause();
        if (checkout.status === 201) {
          okLatencies.push(latency);
          cycleLatencies.push(performance.now() - cycleStarted);
          units += wanted;
          lastSale = performance.now();
          const id = Number((JSON.parse(checkout.body) as { id: number }).id);
          if (orderIds.has(id)) duplicateOrders += 1;
          orderIds.add(id);
        }
        wanted = 1 + Math.floor(Math.random() * job.maxUnits);
      } catch {
        count('error');
        await pause();
      }
    }
  };

  await Promise.all(Array.from({ length: job.buyers }, (_, index) => buyer(index)));
  const elapsedMs = performance.now() - started;
  okLatencies.sort((a, b) => a - b);
  allLatencies.sort((a, b) => a - b);
  cycleLatencies.sort((a, b) => a - b);
  return {
    elapsedMs,
    sellingMs: lastSale - started,
    checkouts: okLatencies.length,
    units,
    p50: percentile(okLatencies, 0.5),
    p99: percentile(okLatencies, 0.99),
    max: okLatencies[okLatencies.length - 1] ?? 0,
    allP50: percentile(allLatencies, 0.5),
    allP99: percentile(allLatencies, 0.99),
    cycleP50: percentile(cycleLatencies, 0.5),
    cycleP99: percentile(cycleLatencies, 0.99),
    cycleMax: cycleLatencies[cycleLatencies.length - 1] ?? 0,
    statuses,
    duplicateOrders,
    timedOut,
  };
}
