import request from 'supertest';
import { Event } from '../src/events/event.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { noncesOf, TicketNonces } from './helpers/ticket-fixtures';

const TICKETS = '/cal/tickets/v1/tickets';

/**
 * Ticket writes racing other writes of the same ticket. The soak found one: a price update whose
 * ticket was deleted by another request right after the update committed answered 500, because
 * the response was read again, outside the transaction, from a row that was gone.
 */
describe('Ticket writes racing each other (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let nonces: TicketNonces;
  let event: Event;

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    nonces = await noncesOf(testApp, editor);
    event = await insertEvent(testApp.dataSource, { authorId: editor.id });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);

  async function createTicket(): Promise<number> {
    const response = await http()
      .post(TICKETS)
      .set('Authorization', editor.authorization)
      .send({
        add_ticket_nonce: nonces.add_ticket_nonce,
        provider: 'tc',
        post_id: event.id,
        name: 'General',
        price: '10',
        ticket: { mode: 'own', capacity: 20 },
      });
    expect(response.status).toBe(201);
    return response.body.id as number;
  }

  /** PATCHes the ticket's price as the editor. */
  function patchPrice(id: number, price: string) {
    return http()
      .patch(`${TICKETS}/${id}`)
      .set('Authorization', editor.authorization)
      .send({ edit_ticket_nonce: nonces.edit_ticket_nonce, post_id: event.id, price });
  }

  /** Runs `after` once, right after the next transaction of the service commits (another request's write). */
  function afterNextCommit(after: () => Promise<unknown>): jest.SpyInstance {
    const dataSource = testApp.dataSource;
    const original = dataSource.transaction.bind(dataSource) as (...args: unknown[]) => Promise<unknown>;
    return jest.spyOn(dataSource, 'transaction').mockImplementationOnce(async (...args: unknown[]) => {
      const result = await original(...args);
      await after();
      return result;
    });
  }

  it('answers an update with what it wrote when the ticket is deleted right after it committed', async () => {
    const id = await createTicket();
    const spy = afterNextCommit(() => testApp.dataSource.getRepository(Ticket).delete({ id }));
    try {
      const response = await patchPrice(id, '17');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id, post_id: event.id, title: 'General', cost: expect.stringContaining('17') });
    } finally {
      spy.mockRestore();
    }
    expect(await testApp.dataSource.getRepository(Ticket).findOne({ where: { id } })).toBeNull();
    // The ticket is gone for everyone after: a 404 for the next write, not a 500.
    const again = await patchPrice(id, '18');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'ticket-not-found', data: { status: 404 } });
  });

  it('answers a create with what it wrote when the ticket is deleted right after it committed', async () => {
    let created = 0;
    const spy = afterNextCommit(async () => {
      created = (await testApp.dataSource.getRepository(Ticket).find({ order: { id: 'DESC' }, take: 1 }))[0].id;
      await testApp.dataSource.getRepository(Ticket).delete({ id: created });
    });
    try {
      const response = await http()
        .post(TICKETS)
        .set('Authorization', editor.authorization)
        .send({
          add_ticket_nonce: nonces.add_ticket_nonce,
          provider: 'tc',
          post_id: event.id,
          name: 'Short-lived',
          price: '9',
          ticket: { mode: '' },
        });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ id: created, post_id: event.id, title: 'Short-lived' });
    } finally {
      spy.mockRestore();
    }
  });

  it('runs an update that lost a lock conflict again instead of answering 503', async () => {
    const id = await createTicket();
    // What the first attempt's transaction would throw: a deadlock or Galera certification failure
    // on MySQL/MariaDB, a stale snapshot on SQLite.
    const conflict =
      testApp.dataSource.options.type === 'mysql'
        ? Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 })
        : Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' });
    const spy = jest.spyOn(testApp.dataSource, 'transaction').mockRejectedValueOnce(conflict);
    try {
      const response = await patchPrice(id, '19');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id, cost: expect.stringContaining('19') });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers concurrent updates and deletes of one ticket with 200 or 404, never 500', async () => {
    for (let round = 0; round < 5; round += 1) {
      const id = await createTicket();
      const update = (price: string) => patchPrice(id, price);
      const remove = () =>
        http()
          .delete(`${TICKETS}/${id}`)
          .set('Authorization', editor.authorization)
          .send({ remove_ticket_nonce: nonces.remove_ticket_nonce, post_id: event.id });
      const answers = await Promise.all([update('11'), update('12'), remove(), update('13'), remove()]);
      for (const answer of answers) expect([200, 404]).toContain(answer.status);
      expect(answers.filter((answer) => answer.status === 404).every((answer) => answer.body.code === 'ticket-not-found')).toBe(true);
      expect(await testApp.dataSource.getRepository(Ticket).findOne({ where: { id } })).toBeNull();
    }
  });
});
