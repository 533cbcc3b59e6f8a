import { In, MoreThan } from 'typeorm';
import { CartRepository } from '../src/cart/cart.repository';
import { KeptInserts } from '../src/common/database/kept-statements';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import type { NewOutboxMessage } from '../src/outbox/outbox.repository';
import { Cart, CartItem } from '../src/cart/cart.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { TicketsRepository } from '../src/tickets/tickets.repository';
import { fillCart } from './helpers/buyers';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket } from './helpers/ticketing-fixtures';
import { createTestApp, createUser, TestApp } from './helpers/test-app';
import { TransactionHost } from '../src/common/database/transaction-host';
import { EventReadsRepository } from '../src/catalogue/event-reads.repository';
import request from 'supertest';

/**
 * The sale's hot statements send SQL written once per shape (src/common/database/kept-statements.ts):
 * the reads must answer what TypeORM's own reads of the same rows answer, and the INSERTs must write
 * what the query builder writes, column for column, on either database.
 */
describe('Kept statements (e2e)', () => {
  let testApp: TestApp;
  let carts: CartRepository;
  let tickets: TicketsRepository;

  beforeAll(async () => {
    testApp = await createTestApp();
    carts = testApp.app.get(CartRepository);
    tickets = testApp.app.get(TicketsRepository);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('reads a ticket with every kind of column as TypeORM does, and its event and pool', async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      price: '12.50',
      sku: 'SKU-1',
      iac: 'required',
      attendeeInformationFields: JSON.stringify([{ type: 'text', label: 'Name', required: true }]),
      saleStartUtc: new Date('2026-01-01T10:00:00.000Z'),
      saleEndUtc: new Date('2027-01-01T10:00:00.000Z'),
      capacity: 40,
      sold: 3,
      pending: 2,
    });
    const manager = testApp.dataSource.manager;
    const states = await carts.saleStates([ticket.id, ticket.id, 987654]);
    expect([...states.keys()]).toEqual([ticket.id]);
    const state = states.get(ticket.id)!;
    expect(state.ticket).toBeInstanceOf(Ticket);
    expect(state.ticket).toEqual(await manager.findOneByOrFail(Ticket, { id: ticket.id }));
    expect(state.ticket.sold).toBe(3);
    expect(state.ticket.pending).toBe(2);
    expect(state.eventStatus).toBe('publish');
    expect(state.pool).toBeUndefined();
    expect(await carts.saleStates([])).toEqual(new Map());
  });

  it("reads an event's offered tickets as TypeORM does, in menu order, with the event's pool", async () => {
    const event = await insertEvent(testApp.dataSource);
    const second = await insertTicket(testApp.dataSource, {
      eventId: event.id,
      name: 'Second',
      sold: 4,
      saleEndUtc: new Date('2027-03-01T18:00:00.000Z'),
    });
    const first = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'First', capacityMode: 'global', capacity: null });
    await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Draft', status: 'draft' });
    const hidden = await insertTicket(testApp.dataSource, { eventId: event.id, name: 'Hidden' });
    const manager = testApp.dataSource.manager;
    await manager.update(Ticket, { id: second.id }, { menuOrder: 2 });
    await manager.update(Ticket, { id: first.id }, { menuOrder: 1 });
    await manager.update(Ticket, { id: hidden.id }, { hiddenWithoutCoupon: true });

    const withoutPool = await tickets.offeredTickets(event.id);
    expect(withoutPool.pool).toBeUndefined();
    expect(withoutPool.tickets.map((ticket) => ticket.name)).toEqual(['First', 'Second']);
    expect(withoutPool.tickets[0]).toBeInstanceOf(Ticket);
    expect(withoutPool.tickets).toEqual(
      await manager.find(Ticket, { where: { id: In([first.id, second.id]) }, order: { menuOrder: 'ASC' } }),
    );
    expect(withoutPool.tickets[1].sold).toBe(4);

    await insertPool(testApp.dataSource, event.id, 30);
    const withPool = await tickets.offeredTickets(event.id);
    expect(withPool.pool).toEqual({ capacity: 30, sold: 0, pending: 0 });
    expect(withPool.tickets.map((ticket) => ticket.id)).toEqual([first.id, second.id]);
    expect(await tickets.offeredTickets(987654)).toEqual({ tickets: [], pool: undefined });
  });

  it("reads a single GET's head as a prepared statement on MySQL/MariaDB, the same row the text statement reads", async () => {
    const event = await insertEvent(testApp.dataSource, { slug: 'prepared-head' });
    // The GET stores the event's document: the head then reads its stored facts and body too.
    await request(testApp.server).get(`/cal/events/v1/events/${event.id}`).expect(200);
    const heads = testApp.app.get(EventReadsRepository);
    const transactions = testApp.app.get(TransactionHost);
    const mysql = testApp.dataSource.options.type === 'mysql';
    const executed = async () =>
      mysql ? Number((await testApp.dataSource.query<Array<{ Value: string }>>("SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'"))[0].Value) : 0;
    for (const [selector, withBody] of [
      [{ id: event.id }, false],
      [{ id: event.id }, true],
      [{ slug: 'prepared-head' }, true],
    ] as const) {
      const before = await executed();
      const prepared = await heads.findHeadBySelector(selector, withBody);
      const after = await executed();
      // Inside a transaction the statement goes to the transaction's connection as text.
      const asText = await transactions.run(() => heads.findHeadBySelector(selector, withBody));
      expect(prepared).toEqual(asText);
      expect(prepared).toMatchObject({ id: event.id, status: 'publish', documentVersion: event.documentVersion });
      expect(prepared!.stored?.body instanceof Buffer).toBe(withBody);
      if (mysql) expect(after).toBeGreaterThan(before);
    }
    expect(await heads.findHeadBySelector({ id: 987654 })).toBeNull();
  });

  it("reads a buyer's cart and its locked lines as TypeORM does, by token and by user", async () => {
    const event = await insertEvent(testApp.dataSource);
    const first = await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 10 });
    const second = await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 10 });
    const buyer = await fillCart(testApp, {}, 'tc', [
      { ticket_id: second.id, quantity: 2, optout: true },
      { ticket_id: first.id, quantity: 1 },
    ]);
    const manager = testApp.dataSource.manager;
    const expected = await manager.findOneByOrFail(Cart, { token: buyer.token });

    const cart = await carts.findByBuyer({ kind: 'guest', token: buyer.token! });
    expect(cart).toBeInstanceOf(Cart);
    expect(cart).toEqual(expected);
    await testApp.app.get(TransactionHost).run(async () => {
      expect(await carts.findByBuyer({ kind: 'guest', token: buyer.token! }, true)).toEqual(expected);
    });
    expect(await carts.findByBuyer({ kind: 'guest', token: 'no-such-token' })).toBeNull();
    expect(await carts.findByBuyer({ kind: 'guest', token: null })).toBeNull();

    const locked = await testApp.app
      .get(TransactionHost)
      .run(() => carts.lockLiveLines({ kind: 'guest', token: buyer.token! }, 'tc', new Date(Date.now() - 60_000)));
    expect(locked.couponId).toBeNull();
    expect(locked.items.every((item) => item instanceof CartItem)).toBe(true);
    expect(locked.items).toEqual(await manager.find(CartItem, { where: { cartId: expected.id }, order: { ticketId: 'ASC' } }));
    expect(locked.items.map((item) => [item.ticketId, item.quantity, item.optout])).toEqual([
      [first.id, 1, false],
      [second.id, 2, true],
    ]);
    // Idle since before the cutoff: none.
    const idle = await carts.lockLiveLines({ kind: 'guest', token: buyer.token! }, 'tc', new Date(Date.now() + 60_000));
    expect(idle).toEqual({ items: [], couponId: null });

    const user = await createUser(testApp, 'subscriber');
    await manager.update(Cart, { id: expected.id }, { token: null, userId: user.id });
    const byUser = await carts.findByBuyer({ kind: 'user', userId: user.id });
    expect(byUser).toEqual(await manager.findOneByOrFail(Cart, { id: expected.id }));
    expect(byUser?.userId).toBe(user.id);
    const userLines = await carts.lockLiveLines({ kind: 'user', userId: user.id }, 'tc', new Date(Date.now() - 60_000));
    expect(userLines.items).toHaveLength(2);
  });

  it('filters lines by provider and by event in the SQL of their own shape', async () => {
    const event = await insertEvent(testApp.dataSource);
    const other = await insertEvent(testApp.dataSource);
    const here = await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 10, price: '7.00' });
    const there = await insertTicket(testApp.dataSource, { eventId: other.id, capacity: 10 });
    const buyer = await fillCart(testApp, {}, 'tc', [
      { ticket_id: here.id, quantity: 1 },
      { ticket_id: there.id, quantity: 3 },
    ]);
    const manager = testApp.dataSource.manager;
    const cart = (await manager.findOneByOrFail(Cart, { token: buyer.token })).id;
    const all = await carts.lines(cart, {});
    expect(all.map((line) => [line.ticketId, line.quantity, line.eventId])).toEqual([
      [here.id, 1, event.id],
      [there.id, 3, other.id],
    ]);
    expect(all[0]).toMatchObject({ provider: 'tc', optout: false, meta: null, iac: 'none' });
    expect(all[0].priceMinor).toBe(700);
    expect((await carts.lines(cart, { eventId: other.id })).map((line) => line.ticketId)).toEqual([there.id]);
    expect(await carts.lines(cart, { providers: ['rsvp'] })).toEqual([]);
    expect((await carts.lines(cart, { providers: ['rsvp', 'tc'], eventId: event.id })).map((line) => line.ticketId)).toEqual([here.id]);
  });

  it('writes the rows the query builder writes, on the first call of a shape and on the next ones', async () => {
    const inserts = new KeptInserts();
    const message = (type: string, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage => ({
      channel: 'email',
      type,
      payload: JSON.stringify({ type, text: 'it\'s \\ "quoted" ünïcode' }),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date('2026-11-27T10:11:12.345Z'),
      createdAt: new Date('2026-11-27T10:11:12.345Z'),
      ...extra,
    });
    const batches: Array<{ via: 'kept' | 'builder'; rows: NewOutboxMessage[] }> = [
      // The first two share a shape: the second is written from the kept SQL.
      { via: 'kept', rows: [message('first', { recipient: 'a@example.org' }), message('second')] },
      { via: 'kept', rows: [message('third', { recipient: 'b@example.org', attempts: 2 }), message('fourth')] },
      { via: 'kept', rows: [message('fifth', { recipient: null, endpointId: null })] },
      { via: 'builder', rows: [message('first', { recipient: 'a@example.org' }), message('second')] },
      { via: 'builder', rows: [message('third', { recipient: 'b@example.org', attempts: 2 }), message('fourth')] },
      { via: 'builder', rows: [message('fifth', { recipient: null, endpointId: null })] },
    ];
    const manager = testApp.dataSource.manager;
    const ids: Record<'kept' | 'builder', number[]> = { kept: [], builder: [] };
    for (const batch of batches) {
      const before = await manager.maximum(OutboxMessage, 'id');
      await manager.transaction(async (transaction) => {
        if (batch.via === 'kept') {
          const builds = jest.spyOn(transaction, 'createQueryBuilder');
          await inserts.insert(transaction, OutboxMessage, batch.rows);
          // A shape met before is written from its kept SQL, without the builder.
          expect(builds).toHaveBeenCalledTimes(batch === batches[1] ? 0 : 1);
        } else await transaction.createQueryBuilder().insert().into(OutboxMessage).values(batch.rows).updateEntity(false).execute();
      });
      const written = await manager.find(OutboxMessage, { where: { id: MoreThan(before ?? 0) }, order: { id: 'ASC' } });
      ids[batch.via].push(...written.map((row) => row.id));
    }
    const read = async (which: number[]) =>
      (await manager.find(OutboxMessage, { where: { id: In(which) }, order: { id: 'ASC' } })).map(({ id: _id, ...columns }) => columns);
    const kept = await read(ids.kept);
    expect(kept).toHaveLength(5);
    expect(kept).toEqual(await read(ids.builder));
    expect(kept[2]).toMatchObject({ type: 'third', recipient: 'b@example.org', attempts: 2 });
    expect(kept[0].nextAttemptAt).toEqual(new Date('2026-11-27T10:11:12.345Z'));
  });

  it("keeps an upsert's and an insert-or-skip's SQL: the second write of a shape updates or skips as the first", async () => {
    const event = await insertEvent(testApp.dataSource);
    const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 10 });
    const manager = testApp.dataSource.manager;
    const now = new Date('2026-11-27T12:00:00.000Z');
    const cartValues = { userId: null, token: 'kept-statements-token', meta: null, createdAt: now, updatedAt: now };
    await testApp.app.get(TransactionHost).run(async () => {
      await carts.insertUnlessTaken(cartValues);
      await carts.insertUnlessTaken({ ...cartValues, meta: '{"second":true}' });
    });
    const cart = await manager.findOneByOrFail(Cart, { token: 'kept-statements-token' });
    expect(cart.meta).toBeNull();
    expect(await manager.countBy(Cart, { token: 'kept-statements-token' })).toBe(1);

    const line = { cartId: cart.id, ticketId: ticket.id, provider: 'tc' as const, quantity: 1, optout: true };
    const stored = () => manager.findOneByOrFail(CartItem, { cartId: cart.id, ticketId: ticket.id });
    const upsert = (write: typeof line | (Omit<typeof line, 'optout'> & { optout: boolean | undefined })) =>
      testApp.app.get(TransactionHost).run(() => carts.upsertLine(write));
    await upsert(line);
    await upsert({ ...line, quantity: 3, optout: undefined });
    expect(await stored()).toMatchObject({ quantity: 3, optout: true }); // `optout` left as stored
    await upsert({ ...line, quantity: 4, optout: false });
    expect(await stored()).toMatchObject({ quantity: 4, optout: false });
  });
});
