import { Agent, request as httpRequest } from 'node:http';
import { connect, Socket } from 'node:net';
import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import { LOCK_CONFLICT_RETRIES } from '../src/common/database/transactions';
import { Ticket } from '../src/tickets/ticket.entity';
import { CART_PATH, CHECKOUT_PATH, PURCHASER } from './helpers/buyers';
import { delay, PrivateMariaDb } from './helpers/private-mariadb';
import { probe, removeTranspiledServer, ServerProcess } from './helpers/server-process';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, reloadTicket } from './helpers/ticketing-fixtures';

/**
 * Faults on a MariaDB server of the test's own (a free port, its own datadir), whatever database
 * the rest of the suite runs on: the service is stopped under load, the database is stopped and
 * started under the service, rows are held locked under a checkout.
 */
jest.setTimeout(120_000);

/**
 * The faults are the same whichever database the suite runs on (the server is the test's own), so
 * they run once: in the SQLite suite, or when FAULT_TESTS=1 asks for them on a MariaDB run.
 */
const inThisSuite = !process.env.TEST_DATABASE_URL || process.env.FAULT_TESTS === '1';
const describeOnce = inThisSuite ? describe : describe.skip;

const ADMIN_AUTHORIZATION = basicAuth(ADMIN.login, ADMIN.password);
const VENUES = '/cal/events/v1/venues';

/** Sets `variables` for the app created inside `build`, then puts the environment back. */
async function withEnv<T>(variables: Record<string, string>, build: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return await build();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Polls `check` every 50 ms until it holds, for at most `ms` (then throws naming `what`). */
async function waitFor(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (await check()) return;
    await delay(50);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describeOnce('Faults (e2e, on a private MariaDB server)', () => {
  let mariadb: PrivateMariaDb;

  beforeAll(async () => {
    // Lock waits end after 1 s, so that a held lock becomes a lock wait timeout quickly.
    mariadb = await PrivateMariaDb.start(['--innodb-lock-wait-timeout=1']);
    // One database: the shutdown test's service migrates it, the in-process apps then empty its tables.
    await mariadb.query('CREATE DATABASE cal_faults CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
  });

  afterAll(async () => {
    await mariadb?.destroy();
  });

  describe('SIGTERM under load', () => {
    const env = () => ({
      NODE_ENV: 'production',
      DATABASE_URL: mariadb.url('cal_faults'),
      NONCE_SECRET: 'faults-test-nonce-secret-0123456789',
      CAL_ADMIN_USER: ADMIN.login,
      CAL_ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '0',
    });
    const servers: ServerProcess[] = [];
    let stopLoad = false;

    afterAll(async () => {
      stopLoad = true;
      for (const server of servers) await server.stop();
      removeTranspiledServer();
    });

    async function startServer(): Promise<ServerProcess> {
      const server = await ServerProcess.start(env());
      servers.push(server);
      return server;
    }

    /** A venue write; resolves with the status and the id (0 when refused or when the connection failed). */
    function writeVenue(baseUrl: string, agent: Agent, name: string): Promise<{ status: number; id: number }> {
      return new Promise((resolve) => {
        const body = JSON.stringify({ venue: name, city: 'Springfield' });
        const call = httpRequest(
          `${baseUrl}${VENUES}`,
          {
            method: 'POST',
            agent,
            headers: { Authorization: ADMIN_AUTHORIZATION, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => {
              const status = response.statusCode ?? 0;
              resolve({ status, id: status === 201 ? (JSON.parse(text) as { id: number }).id : 0 });
            });
            response.on('error', () => resolve({ status: 0, id: 0 }));
          },
        );
        call.on('error', () => resolve({ status: 0, id: 0 }));
        call.end(body);
      });
    }

    /** Sends the head of a venue write and half its body, and keeps the socket to finish it later. */
    function startSlowWrite(port: number, name: string): { socket: Socket; finish: () => Promise<{ status: number; id: number }> } {
      const body = Buffer.from(JSON.stringify({ venue: name, city: 'Shelbyville' }));
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(
        `POST ${VENUES} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${ADMIN_AUTHORIZATION}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body.subarray(0, 10));
      return {
        socket,
        finish: async () => {
          socket.write(body.subarray(10));
          await closed;
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
          const id = status === 201 ? (JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as { id: number }).id : 0;
          return { status, id };
        },
      };
    }

    it('drains in-flight writes, closes the pool, and loses no acknowledged write', async () => {
      const abortedBefore = await mariadb.status('Aborted_clients');
      const server = await startServer();
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const results: Array<{ status: number; id: number }> = [];
      let terminated = false;
      let serial = 0;
      // Eight clients writing back to back, on kept-alive connections, until the service stops answering them.
      const workers = Array.from({ length: 8 }, async () => {
        while (!stopLoad) {
          const result = await writeVenue(server.baseUrl, agent, `Load venue ${(serial += 1)}`);
          results.push(result);
          if (result.status === 0 && terminated) return;
        }
      });
      await waitFor(
        'the first acknowledged writes',
        async () => results.filter((result) => result.status === 201).length >= 20,
        20_000,
      ).catch((error: Error) => {
        stopLoad = true;
        throw new Error(`${error.message}: ${JSON.stringify(results.slice(0, 5))}\n${server.log()}`);
      });

      // A write the service has started to read when the signal comes: it must still be served.
      const slow = startSlowWrite(server.port, 'Venue written across the shutdown');
      await delay(100);
      server.signal('SIGTERM');
      terminated = true;
      await waitFor('the listener to close', async () => !(await server.accepting())).catch((error: Error) => {
        stopLoad = true;
        throw new Error(`${error.message}\n${server.log()}`);
      });
      const inFlight = await slow.finish();
      expect(inFlight.status).toBe(201);
      await Promise.all(workers);
      agent.destroy();

      const exit = await server.stop();
      expect(exit.signal === 'SIGTERM' || exit.code === 0).toBe(true);
      // Every pooled connection was closed with a QUIT, none dropped by a dying process.
      expect(await mariadb.status('Aborted_clients')).toBe(abortedBefore);
      expect(results.every((result) => result.status === 201 || result.status === 0)).toBe(true);

      const acknowledged = [...results.filter((result) => result.status === 201).map((result) => result.id), inFlight.id];
      const restarted = await startServer();
      const base = restarted.baseUrl;
      // Whether each write is there, not how fast a fresh process on a busy machine answers: a
      // generous timeout, and the status (null: no answer) named with each id that is not.
      const missing = new Map<number, number | null>();
      for (let start = 0; start < acknowledged.length; start += 20) {
        const batch = acknowledged.slice(start, start + 20);
        const statuses = await Promise.all(batch.map((id) => probe(`${base}${VENUES}/${id}`, 20_000)));
        batch.forEach((id, index) => statuses[index] !== 200 && missing.set(id, statuses[index]));
      }
      if (missing.size > 0) {
        // What the database itself holds for those ids, and what both processes logged: enough to tell a
        // lost commit from a read that missed a row.
        const ids = [...missing.keys()];
        const rows = await mariadb.query(
          `SELECT id, title, status FROM cal_faults.venues WHERE id IN (${ids.map(() => '?').join(', ')})`,
          ids,
        );
        const totals = await mariadb.query('SELECT COUNT(*) AS count, MAX(id) AS last FROM cal_faults.venues');
        const answers = await Promise.all(
          ids.map((id) =>
            request(base)
              .get(`${VENUES}/${id}`)
              .then((response) => response.text),
          ),
        );
        throw new Error(
          `Acknowledged writes not read back: ${ids.map((id) => `${id}: ${String(missing.get(id))}`).join(', ')} of ${acknowledged.length}\n` +
            `rows: ${JSON.stringify(rows)} totals: ${JSON.stringify(totals)}\nanswers again: ${answers.join('\n')}\n` +
            `first server:\n${server.log()}\nrestarted server:\n${restarted.log()}`,
        );
      }
      expect(acknowledged.length).toBeGreaterThan(20);
    });
  });

  describe('on an app connected to the private server', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      // A statement timeout above the lock wait timeout, as in production (10 s against InnoDB's 50 s
      // would end lock waits as db-timeout instead).
      testApp = await withEnv({ DATABASE_URL: mariadb.url('cal_faults'), DATABASE_STATEMENT_TIMEOUT_MS: '5000' }, () => createTestApp());
    });

    afterAll(async () => {
      await testApp?.close();
    });

    const http = () => request(testApp.server);

    describe('statement timeout', () => {
      const sessionTimeout = async (runner: { query(sql: string): Promise<unknown> }) =>
        Number(((await runner.query('SELECT @@SESSION.max_statement_time AS seconds')) as Array<{ seconds: string | number }>)[0].seconds);

      it('sets DATABASE_STATEMENT_TIMEOUT_MS on the pooled connections, and the server stops a longer statement', async () => {
        expect(await sessionTimeout(testApp.dataSource)).toBe(5);
        const quick = await withEnv({ DATABASE_URL: mariadb.url('cal_faults'), DATABASE_STATEMENT_TIMEOUT_MS: '300' }, () =>
          createTestApp(),
        );
        try {
          expect(await sessionTimeout(quick.dataSource)).toBe(0.3);
          await expect(quick.dataSource.query('SELECT SLEEP(5)')).rejects.toMatchObject({ driverError: { errno: 1969 } });
        } finally {
          await quick.close();
        }
      });

      it('sets it on the connections of a replica pool cluster too', async () => {
        const replicated = await withEnv(
          {
            DATABASE_URL: mariadb.url('cal_faults'),
            DATABASE_REPLICA_URLS: mariadb.url('cal_faults'),
            DATABASE_STATEMENT_TIMEOUT_MS: '700',
          },
          () => createTestApp(),
        );
        try {
          for (const mode of ['master', 'slave'] as const) {
            const runner = replicated.dataSource.createQueryRunner(mode);
            try {
              expect({ mode, seconds: await sessionTimeout(runner) }).toEqual({ mode, seconds: 0.7 });
            } finally {
              await runner.release();
            }
          }
        } finally {
          await replicated.close();
        }
      });
    });

    describe('lock conflicts in checkout', () => {
      /** A free ticket with capacity 5 in an anonymous buyer's cart; returns the ticket and the cart token. */
      async function cartWithTicket(): Promise<{ ticket: Ticket; token: string }> {
        const event = await insertEvent(testApp.dataSource);
        const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0', capacity: 5 });
        const cart = await http()
          .post(CART_PATH)
          .send({ provider: 'tc', tickets: [{ ticket_id: ticket.id, quantity: 1 }] })
          .expect(200);
        return { ticket, token: cart.headers['x-cart-token'] };
      }

      /** Another session holding the ticket's row lock until released. */
      async function holdTicketLock(ticketId: number): Promise<{ release: () => Promise<void> }> {
        const blocker = await createConnection({ host: '127.0.0.1', port: mariadb.port, user: 'root', database: 'cal_faults' });
        await blocker.beginTransaction();
        await blocker.query('SELECT id FROM tickets WHERE id = ? FOR UPDATE', [ticketId]);
        return {
          release: async () => {
            await blocker.commit();
            await blocker.end();
          },
        };
      }

      it('runs a checkout again after a lock wait timeout and completes it', async () => {
        const { ticket, token } = await cartWithTicket();
        const waitsBefore = await mariadb.status('Innodb_row_lock_waits');
        const lock = await holdTicketLock(ticket.id);
        const checkout = http().post(CHECKOUT_PATH).set('X-Cart-Token', token).send({ provider: 'tc', purchaser: PURCHASER });
        const answered = checkout.then((response) => response);
        // The first attempt waited and timed out; the retry is waiting: now let it through.
        await waitFor(
          'the retried checkout to wait for the lock',
          async () => (await mariadb.status('Innodb_row_lock_waits')) >= waitsBefore + 2,
        );
        await lock.release();
        const response = await answered;
        expect(response.status).toBe(201);
        expect(response.body).toMatchObject({ status: 'completed', attendees: [expect.objectContaining({ ticket_id: ticket.id })] });
        expect((await reloadTicket(testApp.dataSource, ticket.id)).sold).toBe(1);
      });

      it(`gives up after ${LOCK_CONFLICT_RETRIES} retries with 503 database-busy and Retry-After, changing nothing`, async () => {
        const { ticket, token } = await cartWithTicket();
        const lock = await holdTicketLock(ticket.id);
        try {
          const response = await http().post(CHECKOUT_PATH).set('X-Cart-Token', token).send({ provider: 'tc', purchaser: PURCHASER });
          expect(response.status).toBe(503);
          expect(response.body).toMatchObject({ code: 'database-busy', data: { status: 503, retry_after: 1 } });
          expect(response.headers['retry-after']).toBe('1');
        } finally {
          await lock.release();
        }
        expect((await reloadTicket(testApp.dataSource, ticket.id)).sold).toBe(0);
        const cart = await http().get(CART_PATH).set('X-Cart-Token', token).expect(200);
        expect(cart.body.tickets).toEqual([expect.objectContaining({ ticket_id: ticket.id, quantity: 1 })]);
        // And once the lock is gone, the same checkout goes through.
        await http().post(CHECKOUT_PATH).set('X-Cart-Token', token).send({ provider: 'tc', purchaser: PURCHASER }).expect(201);
      });
    });

    describe('database outage', () => {
      it('answers 503 db-unavailable at once while the database is down, and serves again once it is back, without a restart', async () => {
        const before = await http().post(VENUES).set('Authorization', ADMIN_AUTHORIZATION).send({ venue: 'Before the outage' }).expect(201);

        await mariadb.halt();
        try {
          const calls = [
            () => http().get('/cal/events/v1/events'),
            () => http().get(`${VENUES}/${before.body.id}`),
            () => http().post(VENUES).set('Authorization', ADMIN_AUTHORIZATION).send({ venue: 'During the outage' }),
            () => http().get('/cal/tickets/v1/tickets'),
            () => http().get('/health/ready'),
          ];
          // Twenty requests at once, four rounds of the five kinds; none may hang (the timeout guards that) or answer 500.
          const responses = await Promise.all(
            Array.from({ length: 20 }, (_unused, index) => calls[index % calls.length]().timeout(10_000)),
          );
          for (const response of responses) {
            expect({ status: response.status, code: response.body.code }).toEqual({ status: 503, code: 'db-unavailable' });
          }
          await http().get('/health/live').expect(200);
        } finally {
          await mariadb.resume();
        }

        await waitFor('the service to reach the database again', async () => (await http().get('/health/ready')).status === 200);
        await http().get(`${VENUES}/${before.body.id}`).expect(200);
        const after = await http().post(VENUES).set('Authorization', ADMIN_AUTHORIZATION).send({ venue: 'After the outage' }).expect(201);
        await http().get(`${VENUES}/${after.body.id}`).expect(200);
      });
    });
  });
});
