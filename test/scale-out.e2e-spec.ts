import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { UsersService } from '../src/auth/users.service';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';
import { postTicket } from './helpers/ticket-fixtures';

/**
 * Two instances of the service on two loopback ports sharing one database (MariaDB when
 * TEST_DATABASE_URL is set, else one SQLite file), the same NONCE_SECRET (set for every test) and
 * the same PUBLIC_URL: what a load balancer may send to either. Each instance is a whole app with
 * its own connection pool, caches and timers; only the database and the settings are shared.
 */
const BALANCER = 'https://tickets.example.org';
process.env.PUBLIC_URL = BALANCER;
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'scale-out.sqlite')}`;
}

const admin = basicAuth(ADMIN.login, ADMIN.password);

function daysAhead(days: number): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 19:00:00`;
}

describe('Scaling out: two instances on one database (e2e)', () => {
  let first: TestApp;
  let second: TestApp;
  let firstUrl: string;
  let secondUrl: string;

  async function start(): Promise<[TestApp, string]> {
    const instance = await createTestApp();
    await instance.app.listen(0, '127.0.0.1');
    return [instance, `http://127.0.0.1:${(instance.app.getHttpServer().address() as AddressInfo).port}`];
  }

  beforeAll(async () => {
    // One after the other, as a rolling start would: the second finds the migrations applied.
    [first, firstUrl] = await start();
    [second, secondUrl] = await start();
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const on = (url: string) => request(url);

  async function nonces(url: string): Promise<Record<string, string>> {
    return (await on(url).get('/cal/tickets/v1/nonces').set('Authorization', admin).expect(200)).body as Record<string, string>;
  }

  async function createEvent(url: string, title: string): Promise<Record<string, any>> {
    return (
      await on(url)
        .post('/cal/events/v1/events')
        .set('Authorization', admin)
        .send({ title, start_date: daysAhead(20), end_date: daysAhead(21) })
        .expect(201)
    ).body as Record<string, any>;
  }

  it('runs two instances on different ports of one database', () => {
    expect(firstUrl).not.toBe(secondUrl);
    expect(first.dataSource).not.toBe(second.dataSource);
  });

  it('shows on each instance the events lists and totals as the last write on the other left them', async () => {
    const category = (
      await on(firstUrl).post('/cal/events/v1/categories').set('Authorization', admin).send({ name: 'Scale-out listing' }).expect(201)
    ).body as { id: number };
    const list = async (url: string, query: string) => {
      const response = await on(url).get(`/cal/events/v1/events?${query}`).expect(200);
      return {
        total: response.body.total as number,
        header: response.headers['x-tec-total'],
        ids: (response.body.events as Array<{ id: number }>).map((event) => event.id),
      };
    };
    const before = [await list(firstUrl, ''), await list(secondUrl, '')];
    expect(before[1]).toEqual(before[0]);
    const created = (
      await on(firstUrl)
        .post('/cal/events/v1/events')
        .set('Authorization', admin)
        .send({ title: 'Scale-out listed', start_date: daysAhead(1), end_date: daysAhead(2), categories: [category.id] })
        .expect(201)
    ).body as { id: number };
    expect(await list(secondUrl, '')).toMatchObject({ total: before[0].total + 1, header: String(before[0].total + 1) });
    expect(await list(secondUrl, `categories=${category.id}`)).toEqual({ total: 1, header: '1', ids: [created.id] });
    await on(secondUrl).post(`/cal/events/v1/events/${created.id}`).set('Authorization', admin).send({ categories: [] }).expect(200);
    expect(await list(firstUrl, `categories=${category.id}`)).toEqual({ total: 0, header: '0', ids: [] });
    await on(secondUrl).delete(`/cal/events/v1/events/${created.id}`).set('Authorization', admin).expect(200);
    expect(await list(firstUrl, '')).toEqual(before[0]);
  });

  it('accepts on one instance the nonces minted by the other, and answers with PUBLIC_URL links from both', async () => {
    const event = await createEvent(firstUrl, 'Balanced concert');
    expect(event.rest_url).toBe(`${BALANCER}/cal/events/v1/events/${event.id as number}`);

    const fromFirst = await nonces(firstUrl);
    const created = await on(secondUrl)
      .post('/cal/tickets/v1/tickets')
      .set('Authorization', admin)
      .type('form')
      .send({
        post_id: event.id,
        provider: 'Tribe__Tickets__RSVP',
        name: 'Door list',
        'ticket[mode]': 'own',
        'ticket[capacity]': 30,
        add_ticket_nonce: fromFirst.add_ticket_nonce,
      })
      .expect(201);
    expect(created.headers.location).toBe(`${BALANCER}/cal/tickets/v1/tickets/${created.body.id as number}`);

    const fromSecond = await nonces(secondUrl);
    const updated = await on(firstUrl)
      .patch(`/cal/tickets/v1/tickets/${created.body.id as number}`)
      .set('Authorization', admin)
      .send({ post_id: event.id, name: 'Guest list', edit_ticket_nonce: fromSecond.edit_ticket_nonce })
      .expect(200);
    expect(updated.body.title).toBe('Guest list');

    await on(secondUrl)
      .delete(`/cal/tickets/v1/tickets/${created.body.id as number}`)
      .set('Authorization', admin)
      .send({ post_id: event.id, remove_ticket_nonce: fromFirst.remove_ticket_nonce })
      .expect(200);
    await on(firstUrl)
      .get(`/cal/tickets/v1/tickets/${created.body.id as number}`)
      .expect(404);
  });

  it('checks out on one instance the anonymous cart written on the other, by header or by cookie', async () => {
    const event = await createEvent(secondUrl, 'Balanced workshop');
    const ticket = await postTicket(secondUrl, admin, event.id as number, { price: '12.50', capacity: 10 });

    const cart = await on(firstUrl)
      .post('/cal/tickets/v1/cart')
      .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 3 }] })
      .expect(200);
    const token = cart.headers['x-cart-token'];
    expect(token).toEqual(expect.any(String));
    const seen = await on(secondUrl)
      .get('/cal/tickets/v1/cart')
      .set('Cookie', `cal_cart=${encodeURIComponent(token)}`)
      .expect(200);
    expect(seen.body.tickets).toEqual([expect.objectContaining({ ticket_id: ticket.id, quantity: 3 })]);

    const order = await on(secondUrl)
      .post('/cal/tickets/v1/cart/checkout')
      .set('X-Cart-Token', token)
      .send({ provider: 'tc', purchaser: { name: 'Grace Hopper', email: 'grace@example.org' } })
      .expect(201);
    expect(order.body).toMatchObject({ status: 'pending', total: '37.50' });
    expect(order.headers.location).toBe(`${BALANCER}/cal/tickets/v1/orders/${order.body.id as number}`);

    const readBack = await on(firstUrl)
      .get(`/cal/tickets/v1/orders/${order.body.id as number}`)
      .set('X-Cart-Token', token)
      .expect(200);
    expect(readBack.body).toEqual(order.body);
    const held = await on(firstUrl)
      .get(`/cal/tickets/v1/tickets/${ticket.id as number}`)
      .set('Authorization', admin)
      .expect(200);
    expect(held.body.capacity_details).toMatchObject({ pending: 3, available: 7 });
    // The cart was emptied by the checkout, whichever instance is asked.
    const emptied = await on(firstUrl).get('/cal/tickets/v1/cart').set('X-Cart-Token', token).expect(200);
    expect(emptied.body.tickets).toEqual([]);

    const completed = await on(firstUrl)
      .post(`/cal/tickets/v1/orders/${order.body.id as number}/complete`)
      .set('Authorization', admin)
      .expect(200);
    expect(completed.body.status).toBe('completed');
    const sold = await on(secondUrl)
      .get(`/cal/tickets/v1/tickets/${ticket.id as number}`)
      .set('Authorization', admin)
      .expect(200);
    expect(sold.body.capacity_details).toMatchObject({ sold: 3, pending: 0, available: 7 });
  });

  it('lets instances starting together on an empty database both create the bootstrap administrator', async () => {
    // What each instance does at start with CAL_ADMIN_USER: both look, find nobody, and insert.
    const [fromFirst, fromSecond] = await Promise.all([
      first.app.get(UsersService).ensureBootstrapAdministrator('rollout-admin', 'rollout-password'),
      second.app.get(UsersService).ensureBootstrapAdministrator('rollout-admin', 'rollout-password'),
    ]);
    expect(fromFirst.id).toBe(fromSecond.id);
    await on(secondUrl).get('/cal/tickets/v1/nonces').set('Authorization', basicAuth('rollout-admin', 'rollout-password')).expect(200);
  });

  it('honours on every instance an application password issued, then revoked, through another', async () => {
    const users = first.app.get(UsersService);
    await users.create({ login: 'roaming-editor', role: 'editor', email: 'roaming@example.org' });
    const issued = await users.createApplicationPassword('roaming-editor', 'laptop');
    const authorization = basicAuth('roaming-editor', issued.password);
    await on(secondUrl).get('/cal/tickets/v1/nonces').set('Authorization', authorization).expect(200);
    await second.app.get(UsersService).revokeApplicationPasswords({ uuid: issued.uuid });
    const refused = await on(firstUrl).get('/cal/tickets/v1/nonces').set('Authorization', authorization).expect(401);
    expect(refused.body.code).toBe('incorrect_password');
  });
});
