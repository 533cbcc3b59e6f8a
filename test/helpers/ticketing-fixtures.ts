import type { DataSource } from 'typeorm';
import type { Clock } from '../../src/common/clock';
import { parseMoney } from '../../src/common/money';
import { CapacityMode, Ticket, TicketProvider } from '../../src/tickets/ticket.entity';
import { TicketCapacityCounter } from '../../src/tickets/ticket-capacity-counter.entity';
import { TicketPool } from '../../src/tickets/ticket-pool.entity';

/** A price as the specs write it, in US dollars ("25.00"), in cents: the test apps' currency unless a spec sets another. */
export function usdCents(price: string): number {
  const parsed = parseMoney(price, { currency: 'USD', exponent: 2, step: 1 });
  if (parsed.problem) throw new Error(`not a USD price: ${price}`);
  return parsed.minor;
}

/** A clock the tests move by hand; starts at the real time. */
export class TestClock implements Clock {
  private current = new Date();

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(instant: Date): void {
    this.current = new Date(instant.getTime());
  }

  advanceMinutes(minutes: number): void {
    this.current = new Date(this.current.getTime() + minutes * 60_000);
  }

  reset(): void {
    this.current = new Date();
  }
}

export interface TicketFixture {
  eventId: number;
  authorId?: number | null;
  provider?: TicketProvider;
  name?: string;
  description?: string;
  /** In US dollars ("25.00"); or `priceMinor`, in the app currency's minor units. */
  price?: string;
  priceMinor?: number;
  iac?: string;
  /** Attendee questions, JSON (src/attendee-questions); null: none. */
  attendeeInformationFields?: string | null;
  status?: string;
  capacityMode?: CapacityMode;
  capacity?: number | null;
  sold?: number;
  pending?: number;
  saleStartUtc?: Date | null;
  saleEndUtc?: Date | null;
  sku?: string | null;
}

/**
 * A ticket row with its capacity counter, written straight to the database (the ticket routes belong
 * to another module): the one way the specs make a ticket without the API.
 */
export async function insertTicket(dataSource: DataSource, fixture: TicketFixture): Promise<Ticket> {
  const ticket = await dataSource.getRepository(Ticket).save({
    eventId: fixture.eventId,
    authorId: fixture.authorId ?? null,
    provider: fixture.provider ?? 'tc',
    status: fixture.status ?? 'publish',
    name: fixture.name ?? 'General admission',
    description: fixture.description ?? 'Ticket description',
    priceMinor: fixture.priceMinor ?? usdCents(fixture.price ?? '25.00'),
    sku: fixture.sku ?? null,
    iac: fixture.iac ?? 'none',
    attendeeInformationFields: fixture.attendeeInformationFields ?? null,
    showDescription: true,
    menuOrder: 0,
    saleStartUtc: fixture.saleStartUtc ?? null,
    saleEndUtc: fixture.saleEndUtc ?? null,
    capacityMode: fixture.capacityMode ?? 'own',
    capacity: fixture.capacity === undefined ? 10 : fixture.capacity,
    publishedAt: new Date('2026-01-01T00:00:00Z'),
  });
  const counts = { sold: fixture.sold ?? 0, pending: fixture.pending ?? 0 };
  await insertCounter(dataSource, ticket, counts);
  return Object.assign(ticket, counts);
}

/** The capacity counter every ticket has (src/tickets/ticket-capacity-counter.entity.ts). */
export async function insertCounter(
  dataSource: DataSource,
  ticket: Pick<Ticket, 'id' | 'capacityMode' | 'capacity'>,
  counts = { sold: 0, pending: 0 },
): Promise<void> {
  await dataSource
    .getRepository(TicketCapacityCounter)
    .insert({ ticketId: ticket.id, capacityMode: ticket.capacityMode, capacity: ticket.capacity, ...counts });
}

/** Sets a ticket's counts straight in the database (the state a test starts from). */
export async function setTicketCounts(
  dataSource: DataSource,
  ticketId: number,
  counts: { sold?: number; pending?: number },
): Promise<void> {
  await dataSource.getRepository(TicketCapacityCounter).update({ ticketId }, counts);
}

export async function insertPool(dataSource: DataSource, eventId: number, capacity: number): Promise<TicketPool> {
  return dataSource.getRepository(TicketPool).save({ eventId, capacity, sold: 0, pending: 0 });
}

export async function reloadTicket(dataSource: DataSource, id: number): Promise<Ticket> {
  return dataSource.getRepository(Ticket).findOneByOrFail({ id });
}

export async function reloadPool(dataSource: DataSource, eventId: number): Promise<TicketPool> {
  return dataSource.getRepository(TicketPool).findOneByOrFail({ eventId });
}
