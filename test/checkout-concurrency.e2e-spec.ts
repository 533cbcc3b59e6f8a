import type { AddressInfo } from 'node:net';
import { In } from 'typeorm';
import { Attendee } from '../src/attendees/attendee.entity';
import { Order, OrderItem } from '../src/orders/order.entity';
import { availableUnits } from '../src/tickets/capacity';
import { CapacityService } from '../src/tickets/capacity.service';
import { CART_PATH, CHECKOUT_PATH, PURCHASER } from './helpers/buyers';
import { postOnOwnConnection, RawResponse } from './helpers/raw-http';
import { createTestApp, TestApp } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket, reloadPool, reloadTicket } from './helpers/ticketing-fixtures';

// Meant for MariaDB, where the checkouts' transactions really run side by side and lock rows; on
// SQLite, which serialises writes, the same outcome must hold, and one round says so. Each round is
// 400 requests; CHECKOUT_ROUNDS raises the count for a longer local hunt for races.
const BUYERS = 200;
const ROUNDS = Number(process.env.CHECKOUT_ROUNDS ?? (process.env.TEST_DATABASE_URL ? 3 : 1));

jest.setTimeout(600_000);

describe('Concurrent checkouts (e2e)', () => {
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    port = (testApp.app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** `BUYERS` anonymous carts, each holding one unit of one of `ticketIds` (taking turns); returns their tokens. */
  async function fillCarts(ticketIds: number[]): Promise<string[]> {
    const writes = await Promise.all(
      Array.from({ length: BUYERS }, (_, index) =>
        postOnOwnConnection(port, CART_PATH, {
          provider: 'tc',
          tickets: [{ ticket_id: ticketIds[index % ticketIds.length], quantity: 1 }],
        }),
      ),
    );
    for (const write of writes) expect(write.status).toBe(200);
    return writes.map((write) => write.headers['x-cart-token'] as string);
  }

  function checkoutAll(tokens: string[]): Promise<RawResponse[]> {
    return Promise.all(
      tokens.map((token) => postOnOwnConnection(port, CHECKOUT_PATH, { provider: 'tc', purchaser: PURCHASER }, { 'X-Cart-Token': token })),
    );
  }

  function expectOutcome(responses: RawResponse[], sold: number): void {
    const created = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 409);
    expect(created).toHaveLength(sold);
    expect(refused).toHaveLength(BUYERS - sold);
    for (const response of refused) expect(response.body.code).toBe('ticket-capacity-not-available');
    expect(new Set(created.map((response) => response.body.id as number)).size).toBe(sold);
  }

  async function ordersFor(ticketIds: number[]): Promise<number> {
    return testApp.dataSource.getRepository(OrderItem).countBy({ ticketId: In(ticketIds) });
  }

  it(`sells exactly 50 of a ticket of capacity 50 to ${BUYERS} buyers at once, ${ROUNDS} times over`, async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const event = await insertEvent(testApp.dataSource);
      const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacityMode: 'own', capacity: 50 });
      const tokens = await fillCarts([ticket.id]);

      expectOutcome(await checkoutAll(tokens), 50);

      const after = await reloadTicket(testApp.dataSource, ticket.id);
      expect({ round, sold: after.sold, pending: after.pending }).toEqual({ round, sold: 50, pending: 0 });
      expect(availableUnits(CapacityService.stateOf(after, undefined))).toBe(0);
      expect(await ordersFor([ticket.id])).toBe(50);
      expect(await testApp.dataSource.getRepository(Attendee).countBy({ ticketId: ticket.id })).toBe(50);
    }
  });

  it(`sells exactly 30 of two capped tickets sharing a pool of 30 to ${BUYERS} buyers at once, ${ROUNDS} times over`, async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const event = await insertEvent(testApp.dataSource);
      await insertPool(testApp.dataSource, event.id, 30);
      const first = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacityMode: 'capped', capacity: 25 });
      const second = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacityMode: 'capped', capacity: 25 });
      const tokens = await fillCarts([first.id, second.id]);

      expectOutcome(await checkoutAll(tokens), 30);

      const pool = await reloadPool(testApp.dataSource, event.id);
      const firstAfter = await reloadTicket(testApp.dataSource, first.id);
      const secondAfter = await reloadTicket(testApp.dataSource, second.id);
      expect({ round, poolSold: pool.sold, poolPending: pool.pending }).toEqual({ round, poolSold: 30, poolPending: 0 });
      expect(firstAfter.sold + secondAfter.sold).toBe(30);
      expect(firstAfter.sold).toBeLessThanOrEqual(25);
      expect(secondAfter.sold).toBeLessThanOrEqual(25);
      const poolCounts = { capacity: pool.capacity, sold: pool.sold, pending: pool.pending };
      expect(availableUnits(CapacityService.stateOf(firstAfter, poolCounts))).toBe(0);
      expect(availableUnits(CapacityService.stateOf(secondAfter, poolCounts))).toBe(0);
      expect(await ordersFor([first.id, second.id])).toBe(30);
      expect(await testApp.dataSource.getRepository(Order).count({ where: { status: 'completed' } })).toBeGreaterThanOrEqual(30);
    }
  });
});
