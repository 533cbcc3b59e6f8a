import type { SaleTicket } from './database';

export interface SaleResult {
  seconds: number;
  /** Checkouts answered 201. */
  checkouts: number;
  /** Status of every cart write and checkout that did not succeed, counted ('error' when no answer came). */
  failures: Record<string, number>;
  /** Checkouts not started because too many were still in flight. */
  skipped: number;
}

const IN_FLIGHT_LIMIT = 100;

/**
 * A steady sale against the service, from the runner's own process: `rate` times a second an
 * anonymous buyer fills a cart with one unit of one of `tickets` (in turn) and checks it out.
 * It runs while a sale scenario is measured, on both targets, so the database and the CPUs carry
 * the same writes whichever one is measured.
 */
export class SteadySale {
  private timer?: NodeJS.Timeout;
  private started = 0;
  private sent = 0;
  private inFlight = new Set<Promise<void>>();
  private result: SaleResult = { seconds: 0, checkouts: 0, failures: {}, skipped: 0 };

  constructor(
    private readonly serviceUrl: string,
    private readonly tickets: SaleTicket[],
    private readonly rate = 20,
  ) {}

  start(): void {
    this.result = { seconds: 0, checkouts: 0, failures: {}, skipped: 0 };
    this.started = performance.now();
    this.timer = setInterval(() => this.tick(), 1000 / this.rate);
  }

  async stop(): Promise<SaleResult> {
    clearInterval(this.timer);
    await Promise.all(this.inFlight);
    return { ...this.result, seconds: (performance.now() - this.started) / 1000 };
  }

  private tick(): void {
    if (this.inFlight.size >= IN_FLIGHT_LIMIT) {
      this.result.skipped += 1;
      return;
    }
    const ticket = this.tickets[this.sent % this.tickets.length];
    const buyer = this.sent++;
    const checkout = this.buy(ticket, buyer).catch(() => this.fail('error'));
    this.inFlight.add(checkout);
    void checkout.finally(() => this.inFlight.delete(checkout));
  }

  private async buy(ticket: SaleTicket, buyer: number): Promise<void> {
    const cart = await fetch(`${this.serviceUrl}/cal/tickets/v1/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: ticket.provider, tickets: [{ ticket_id: ticket.id, quantity: 1 }] }),
    });
    await cart.arrayBuffer();
    const token = cart.headers.get('x-cart-token');
    if (cart.status !== 200 || !token) return this.fail(`cart ${cart.status}`);
    const order = await fetch(`${this.serviceUrl}/cal/tickets/v1/cart/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-cart-token': token },
      body: JSON.stringify({ provider: ticket.provider, purchaser: { name: `Sale buyer ${buyer}`, email: `sale${buyer}@example.com` } }),
    });
    await order.arrayBuffer();
    if (order.status === 201) this.result.checkouts += 1;
    else this.fail(`checkout ${order.status}`);
  }

  private fail(kind: string): void {
    this.result.failures[kind] = (this.result.failures[kind] ?? 0) + 1;
  }
}
