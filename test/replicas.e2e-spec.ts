import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../src/config/app.config';
import { readFromReplicas, REPLICA_READ_ROUTES } from '../src/database/read-replicas';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';

/**
 * Read replicas are a MySQL/MariaDB feature. On SQLite this file checks that the setting is
 * refused; on MariaDB (TEST_DATABASE_URL) a second database plays the replica. Nothing copies the
 * primary's writes to it, so it holds different rows: what a request shows tells which database
 * served it, and a read that must see its own write fails visibly if it goes to the replica.
 */
const primaryUrl = process.env.TEST_DATABASE_URL;
const admin = basicAuth(ADMIN.login, ADMIN.password);

/** `YYYY-MM-DD 19:00:00` some days ahead: inside the events list's default window. */
function daysAhead(days: number): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 19:00:00`;
}

describe('Read replicas: configuration (e2e)', () => {
  afterEach(() => {
    delete process.env.DATABASE_REPLICA_URLS;
  });

  it('refuses DATABASE_REPLICA_URLS with an SQLite database, naming the setting, and the app does not start', async () => {
    const env = {
      DATA_DIR: process.env.DATA_DIR,
      NONCE_SECRET: process.env.NONCE_SECRET,
      DATABASE_URL: 'sqlite::memory:',
      DATABASE_REPLICA_URLS: 'mysql://reader@127.0.0.1:3306/cal',
    };
    expect(() => loadAppConfig(env)).toThrow(
      'Invalid configuration: DATABASE_REPLICA_URLS needs a MySQL/MariaDB DATABASE_URL: read replicas are not supported with SQLite',
    );
    if (primaryUrl) return;
    process.env.DATABASE_REPLICA_URLS = 'mysql://reader@127.0.0.1:3306/cal';
    await expect(createTestApp()).rejects.toThrow(/DATABASE_REPLICA_URLS/);
  });
});

/** `cal_e2_test` → `cal_e2_replica`; any other name gets `_replica` appended. */
function replicaUrlOf(primary: string): { url: string; name: string } {
  const url = new URL(primary);
  const primaryName = decodeURIComponent(url.pathname.slice(1));
  const name = primaryName.endsWith('_test') ? `${primaryName.slice(0, -'_test'.length)}_replica` : `${primaryName}_replica`;
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}

function serverUrlOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/';
  return url.toString();
}

if (primaryUrl) {
  describe('Read replicas on MariaDB (e2e)', () => {
    const replica = replicaUrlOf(primaryUrl);
    const primaryName = decodeURIComponent(new URL(primaryUrl).pathname.slice(1));
    let testApp: TestApp;
    const http = () => request(testApp.server);

    async function onServer<T>(work: (connection: Awaited<ReturnType<typeof createConnection>>) => Promise<T>): Promise<T> {
      const connection = await createConnection({ uri: serverUrlOf(primaryUrl as string) });
      try {
        return await work(connection);
      } finally {
        await connection.end();
      }
    }

    async function titlesIn(database: string, table: 'events' | 'tickets', column: 'title' | 'name'): Promise<string[]> {
      return onServer(async (connection) => {
        const [rows] = await connection.query(`SELECT \`${column}\` AS label FROM \`${database}\`.\`${table}\` ORDER BY id`);
        return (rows as Array<{ label: string }>).map((row) => row.label);
      });
    }

    async function nonces(): Promise<Record<string, string>> {
      return (await http().get('/cal/tickets/v1/nonces').set('Authorization', admin).expect(200)).body as Record<string, string>;
    }

    async function createEvent(title: string, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
      const response = await http()
        .post('/cal/events/v1/events')
        .set('Authorization', admin)
        .send({ title, start_date: daysAhead(30), end_date: daysAhead(31), ...extra })
        .expect(201);
      return response.body as Record<string, any>;
    }

    async function createTicket(eventId: number, name: string): Promise<Record<string, any>> {
      const response = await http()
        .post('/cal/tickets/v1/tickets')
        .set('Authorization', admin)
        .send({
          post_id: eventId,
          provider: 'rsvp',
          name,
          ticket: { mode: 'own', capacity: 20 },
          add_ticket_nonce: (await nonces()).add_ticket_nonce,
        })
        .expect(201);
      return response.body as Record<string, any>;
    }

    beforeAll(async () => {
      await onServer(async (connection) => {
        await connection.query(`DROP DATABASE IF EXISTS \`${replica.name}\``);
        await connection.query(`CREATE DATABASE \`${replica.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      });
      // The replica's content, written through the API of an app on that database alone.
      process.env.DATABASE_URL = replica.url;
      testApp = await createTestApp();
      const onlyOnReplica = await createEvent('Replica concert', {
        venue: { venue: 'Replica hall', city: 'Lyon' },
        organizer: { organizer: 'Replica crew' },
        categories: ['Replica music'],
        tags: ['replica-tag'],
      });
      await createEvent('Replica lecture');
      await createTicket(onlyOnReplica.id as number, 'Replica pass');
      await testApp.close();

      process.env.DATABASE_URL = primaryUrl;
      process.env.DATABASE_REPLICA_URLS = replica.url;
      testApp = await createTestApp();
      // Migrating a new MariaDB database from nothing takes most of this (every table and trigger).
    }, 120_000);

    afterAll(async () => {
      await testApp?.close();
      delete process.env.DATABASE_REPLICA_URLS;
      await onServer((connection) => connection.query(`DROP DATABASE IF EXISTS \`${replica.name}\``));
    });

    const databaseOf = async (read: Promise<{ db: string } | undefined>) => (await read)?.db;

    it("TypeORM's own default: query-builder reads outside a transaction go to a replica, transactions and raw queries to the primary", async () => {
      const plain = await new DataSource({
        type: 'mysql',
        replication: { master: { url: primaryUrl }, slaves: [{ url: replica.url }] },
      }).initialize();
      try {
        expect(await databaseOf(plain.createQueryBuilder().select('DATABASE()', 'db').from('users', 'u').limit(1).getRawOne())).toBe(
          replica.name,
        );
        expect(
          await databaseOf(
            plain.transaction((manager) => manager.createQueryBuilder().select('DATABASE()', 'db').from('users', 'u').limit(1).getRawOne()),
          ),
        ).toBe(primaryName);
        expect((await plain.query<Array<{ db: string }>>('SELECT DATABASE() AS db'))[0].db).toBe(primaryName);
      } finally {
        await plain.destroy();
      }
    });

    it('the app reads from the primary by default and from a replica only inside readFromReplicas, never in a transaction', async () => {
      const dataSource = testApp.dataSource;
      const select = () =>
        dataSource.createQueryBuilder().select('DATABASE()', 'db').from('users', 'u').limit(1).getRawOne<{ db: string }>();
      expect(await databaseOf(select())).toBe(primaryName);
      expect(await readFromReplicas(() => databaseOf(select()))).toBe(replica.name);
      expect(
        await readFromReplicas(() =>
          databaseOf(
            dataSource.transaction((manager) =>
              manager.createQueryBuilder().select('DATABASE()', 'db').from('users', 'u').limit(1).getRawOne(),
            ),
          ),
        ),
      ).toBe(primaryName);
    });

    it('serves every list route of REPLICA_READ_ROUTES from the replica', async () => {
      await createEvent('Primary gala', { venue: { venue: 'Primary hall', city: 'Paris' }, categories: ['Primary music'] });
      const lists: Record<string, [string, string, string[]]> = {
        'events/v1/events': ['events', 'title', ['Replica concert', 'Replica lecture']],
        'events/v1/venues': ['venues', 'venue', ['Replica hall']],
        'events/v1/organizers': ['organizers', 'organizer', ['Replica crew']],
        'events/v1/categories': ['categories', 'name', ['Replica music']],
        'events/v1/tags': ['tags', 'name', ['replica-tag']],
        'tickets/v1/tickets': ['tickets', 'title', ['Replica pass']],
      };
      expect([...Object.keys(lists), 'events/v1/events/ics'].sort()).toEqual([...REPLICA_READ_ROUTES].sort());
      for (const [route, [key, field, expected]] of Object.entries(lists)) {
        const response = await http().get(`/cal/${route}`).query({ hide_empty: false }).expect(200);
        expect([route, (response.body[key] as Array<Record<string, string>>).map((item) => item[field]).sort()]).toEqual([route, expected]);
      }
      const feed = await http().get('/cal/events/v1/events/ics').expect(200);
      expect(feed.text.match(/^SUMMARY:.*$/gm)?.sort()).toEqual(['SUMMARY:Replica concert', 'SUMMARY:Replica lecture']);
    });

    it('writes go to the primary only, and single reads (a created event, its Location) come from the primary', async () => {
      const created = await createEvent('Primary premiere');
      const single = await http()
        .get(new URL(created.rest_url as string).pathname)
        .expect(200);
      expect(single.body.title).toBe('Primary premiere');
      await http()
        .get(`/cal/events/v1/events/by-slug/${created.slug as string}`)
        .expect(200);
      expect(await titlesIn(primaryName, 'events', 'title')).toContain('Primary premiere');
      expect(await titlesIn(replica.name, 'events', 'title')).not.toContain('Primary premiere');
      const list = await http().get('/cal/events/v1/events').expect(200);
      expect((list.body.events as Array<{ title: string }>).map((event) => event.title)).not.toContain('Primary premiere');
    });

    it('tickets, nonces, cart, checkout, orders, attendees and check-in see their own writes on the primary', async () => {
      const event = await createEvent('Primary workshop');
      const ticket = await createTicket(event.id as number, 'Primary seat');
      const updated = await http()
        .patch(`/cal/tickets/v1/tickets/${ticket.id as number}`)
        .set('Authorization', admin)
        .send({ post_id: event.id, name: 'Primary front seat', edit_ticket_nonce: (await nonces()).edit_ticket_nonce })
        .expect(200);
      expect(updated.body.title).toBe('Primary front seat');

      const cart = await http()
        .post('/cal/tickets/v1/cart')
        .send({ provider: 'rsvp', tickets: [{ ticket_id: ticket.id, quantity: 2 }] })
        .expect(200);
      const token = cart.headers['x-cart-token'];
      const read = await http().get('/cal/tickets/v1/cart').set('X-Cart-Token', token).expect(200);
      expect(read.body.tickets).toEqual([expect.objectContaining({ ticket_id: ticket.id, quantity: 2 })]);
      const order = await http()
        .post('/cal/tickets/v1/cart/checkout')
        .set('X-Cart-Token', token)
        .send({ provider: 'rsvp', purchaser: { name: 'Ada Lovelace', email: 'ada@example.org' }, going: true })
        .expect(201);
      await http().get(new URL(order.headers.location).pathname).set('X-Cart-Token', token).expect(200);

      const attendees = await http().get('/cal/tickets/v1/attendees').query({ post_id: event.id }).set('Authorization', admin).expect(200);
      expect(attendees.body.attendees).toHaveLength(2);
      const checkedIn = await http()
        .patch(`/cal/tickets/v1/attendees/${attendees.body.attendees[0].id as number}`)
        .set('Authorization', admin)
        .send({ check_in: true })
        .expect(200);
      expect(checkedIn.body.checked_in).toBe(true);
      const single = await http()
        .get(`/cal/tickets/v1/tickets/${ticket.id as number}`)
        .set('Authorization', admin)
        .expect(200);
      expect(single.body.capacity_details).toMatchObject({ sold: 2, available: 18 });

      expect(await titlesIn(replica.name, 'tickets', 'name')).toEqual(['Replica pass']);
    });
  });
}
