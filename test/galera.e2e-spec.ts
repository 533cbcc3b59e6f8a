import { CLOCK } from '../src/common/clock';
import { MIGRATIONS } from '../src/database/migrations';
import { GaleraCluster } from './helpers/galera-cluster';
import { delay } from './helpers/private-mariadb';
import { ONE_COUNTER_ENVIRONMENT, proveOneCounter, setEnvironment } from './helpers/queue-instances';
import { removeTranspiledServer, ServerProcess } from './helpers/server-process';
import { createTestApp, TestApp } from './helpers/test-app';
import { TestClock } from './helpers/ticketing-fixtures';

/**
 * The service on a three-node MariaDB Galera cluster (test/helpers/galera-cluster.ts), one
 * instance per node. Only with GALERA_TESTS=1 (`npm run test:galera`, which CI runs on its own after
 * the two suites): the cluster's three servers would compete for the cores with the suites.
 */
const enabled = process.env.GALERA_TESTS === '1';
const describeOnGalera = enabled ? describe : describe.skip;
const DATABASE = 'cal_galera';
const CART = '/cal/tickets/v1/cart';
const CHECKOUT = '/cal/tickets/v1/cart/checkout';

jest.setTimeout(900_000);

interface Answer {
  status: number;
  body: { id?: number; code?: string };
  replayed: boolean;
  token: string | null;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    let parsed: Answer['body'] = {};
    try {
      parsed = JSON.parse(text) as Answer['body'];
    } catch {
      // Not JSON (a proxy or a dying process): the status says enough.
    }
    return {
      status: response.status,
      body: parsed,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      token: response.headers.get('x-cart-token'),
    };
  } catch {
    return { status: 0, body: {}, replayed: false, token: null };
  }
}

describeOnGalera(enabled ? 'Galera cluster (e2e)' : 'Galera cluster: skipped, set GALERA_TESTS=1 (npm run test:galera)', () => {
  let cluster: GaleraCluster;
  let servers: ServerProcess[] = [];

  const env = (url: string) => ({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: '5',
    NONCE_SECRET: 'galera-test-nonce-secret-0123456789',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '0',
  });

  beforeAll(async () => {
    cluster = await GaleraCluster.start(3);
    await cluster.nodes[0].query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    // All three at once: the migration lease lets one of them migrate.
    servers = await Promise.all(cluster.nodes.map((node) => ServerProcess.start(env(node.url(DATABASE)))));
  });

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await cluster?.destroy();
    removeTranspiledServer();
  });

  async function ticketOfCapacity(capacity: number, label: string): Promise<number> {
    const node = cluster.nodes[0];
    const event = await node.query<{ insertId: number }>(
      `INSERT INTO ${DATABASE}.events (status, title, slug, published_at, timezone, all_day, start_utc, end_utc, start_local, end_local)
       VALUES ('publish', ?, ?, UTC_TIMESTAMP(), 'UTC', 0, '2030-01-01 18:00:00', '2030-01-01 21:00:00', '2030-01-01 18:00:00', '2030-01-01 21:00:00')`,
      [`Galera ${label}`, `galera-${label}`],
    );
    const ticket = await node.query<{ insertId: number }>(
      `INSERT INTO ${DATABASE}.tickets (event_id, provider, status, name, price_minor, capacity_mode, capacity, published_at)
       VALUES (?, 'tc', 'publish', 'General admission', 0, 'own', ?, UTC_TIMESTAMP())`,
      [event.insertId, capacity],
    );
    await node.query(
      `INSERT INTO ${DATABASE}.ticket_capacity_counters (ticket_id, capacity_mode, capacity, sold, pending) VALUES (?, 'own', ?, 0, 0)`,
      [ticket.insertId, capacity],
    );
    return ticket.insertId;
  }

  async function outcome(ticketId: number): Promise<{ sold: number; attendees: number; orders: number }> {
    // Read on the last node once the writes of the others are applied there.
    const node = cluster.nodes[2];
    await delay(1000);
    const [counter] = await node.query<Array<{ sold: number }>>(
      `SELECT sold FROM ${DATABASE}.ticket_capacity_counters WHERE ticket_id = ?`,
      [ticketId],
    );
    const [attendees] = await node.query<Array<{ total: number }>>(
      `SELECT COUNT(*) AS total FROM ${DATABASE}.attendees WHERE ticket_id = ?`,
      [ticketId],
    );
    const [orders] = await node.query<Array<{ total: number }>>(
      `SELECT COUNT(DISTINCT order_id) AS total FROM ${DATABASE}.order_items WHERE ticket_id = ?`,
      [ticketId],
    );
    return { sold: Number(counter.sold), attendees: Number(attendees.total), orders: Number(orders.total) };
  }

  it('forms one cluster, every table with a primary key, migrated once by instances started together', async () => {
    expect(await cluster.nodes[1].status('wsrep_cluster_size')).toBe('3');
    const applied = await cluster.nodes[2].query<Array<{ total: number }>>(`SELECT COUNT(*) AS total FROM ${DATABASE}.migrations`);
    expect(Number(applied[0].total)).toBe(MIGRATIONS.length);
    const withoutKey = await cluster.nodes[1].query<Array<{ name: string }>>(
      `SELECT t.table_name AS name FROM information_schema.tables t LEFT JOIN information_schema.table_constraints c
         ON c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.constraint_type = 'PRIMARY KEY'
       WHERE t.table_schema = ? AND c.constraint_name IS NULL`,
      [DATABASE],
    );
    expect(withoutKey).toEqual([]);
  });

  it('never oversells and never duplicates an idempotent order, checkouts spread over three nodes', async () => {
    const capacity = 60;
    const buyers = 150;
    const ticketId = await ticketOfCapacity(capacity, 'spread');
    const carts = await Promise.all(
      Array.from({ length: buyers }, async (_, index) => {
        const server = servers[index % servers.length];
        const cart = await post(`${server.baseUrl}${CART}`, { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 }] });
        expect(cart.status).toBe(200);
        return cart.token as string;
      }),
    );
    // Each buyer sends its checkout twice with one Idempotency-Key, to two instances on different nodes.
    const answers = await Promise.all(
      carts.map(async (token, index) => {
        const headers = { 'x-cart-token': token, 'idempotency-key': `galera-${index}` };
        const body = { provider: 'tc', purchaser: { name: `Buyer ${index}`, email: `buyer${index}@example.org` } };
        const pair = await Promise.all([
          post(`${servers[index % 3].baseUrl}${CHECKOUT}`, body, headers),
          post(`${servers[(index + 1) % 3].baseUrl}${CHECKOUT}`, body, headers),
        ]);
        return pair;
      }),
    );
    const orderIds = new Set<number>();
    for (const pair of answers) {
      const created = pair.filter((answer) => answer.status === 201);
      for (const answer of pair) expect([201, 409]).toContain(answer.status);
      // Both answers of one key name the same order (one of them a replay), or neither sold.
      if (created.length === 2) expect(created[0].body.id).toBe(created[1].body.id);
      for (const answer of created) orderIds.add(answer.body.id as number);
    }
    expect(orderIds.size).toBe(capacity);
    expect(await outcome(ticketId)).toEqual({ sold: capacity, attendees: capacity, orders: capacity });
  });

  it('keeps selling on the other nodes while one is stopped under load, and the stopped node rejoins', async () => {
    const capacity = 10_000;
    const ticketId = await ticketOfCapacity(capacity, 'failover');
    let stop = false;
    const sales = [0, 0, 0];
    let soldAfterStop = 0;
    let stopped = false;
    // What the two surviving instances answered after the stop, for the failure message.
    const answersAfterStop = new Map<string, number>();
    const buyer = async (index: number) => {
      const serverIndex = index % 3;
      while (!stop) {
        const base = servers[serverIndex].baseUrl;
        const cart = await post(`${base}${CART}`, { provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 1 }] });
        const checkout =
          cart.status === 200
            ? await post(
                `${base}${CHECKOUT}`,
                { provider: 'tc', purchaser: { name: 'Failover', email: 'failover@example.org' } },
                { 'x-cart-token': cart.token as string },
              )
            : null;
        if (stopped && serverIndex !== 2) {
          const key = checkout ? `checkout ${checkout.status} ${checkout.body.code ?? ''}` : `cart ${cart.status} ${cart.body.code ?? ''}`;
          answersAfterStop.set(key, (answersAfterStop.get(key) ?? 0) + 1);
        }
        if (checkout?.status === 201) {
          sales[serverIndex] += 1;
          if (stopped && serverIndex !== 2) soldAfterStop += 1;
        } else await delay(100);
      }
    };
    const load = Promise.all(Array.from({ length: 30 }, (_, index) => buyer(index)));
    try {
      await delay(5000);
      await cluster.nodes[2].stop();
      stopped = true;
      // Here the first sale after the stop comes within a second, also with both cores busy; one
      // CI run saw none within a fixed 10 s, for reasons its log did not show. The test waits for a
      // sale (45 s at most) and, if none comes, names what the two remaining instances answered.
      const resumeDeadline = Date.now() + 45_000;
      while (soldAfterStop === 0 && Date.now() < resumeDeadline) await delay(250);
      if (soldAfterStop === 0)
        throw new Error(`No sale on the two remaining nodes within 45 s of the stop: ${JSON.stringify([...answersAfterStop])}`);
      await cluster.nodes[2].start();
      await cluster.waitForSize(3);
      const beforeRejoin = sales[2];
      const rejoinDeadline = Date.now() + 60_000;
      while (sales[2] === beforeRejoin && Date.now() < rejoinDeadline) await delay(500);
      // The instance on the node that came back sells again.
      expect(sales[2]).toBeGreaterThan(beforeRejoin);
    } finally {
      stop = true;
      await load;
    }
    const totals = await outcome(ticketId);
    expect(totals.sold).toBe(totals.attendees);
    expect(totals.orders).toBe(totals.sold);
    // A checkout the stopping node committed may have lost its answer: never fewer sold than answered.
    expect(totals.sold).toBeGreaterThanOrEqual(sales[0] + sales[1] + sales[2]);
  });

  it('ticks one waiting room from three instances, one per node: opened, admitted and closed once', async () => {
    // In this process, so that the test gives them one clock and runs their rounds at once; their
    // timers tick too. A conditional UPDATE that loses on another node fails its certification at
    // commit (a deadlock, 1213): the round gives way, is not run again, and admitted nobody.
    const clock = new TestClock();
    // DATABASE_URL as it is now, to be put back: each instance below is started on its node's.
    const restoreEnvironment = setEnvironment({ ...ONE_COUNTER_ENVIRONMENT, DATABASE_URL: process.env.DATABASE_URL });
    const instances: TestApp[] = [];
    try {
      for (const node of cluster.nodes) {
        process.env.DATABASE_URL = node.url(DATABASE);
        instances.push(await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }], keepTables: true }));
      }
      // The rounds that lost gave way: none was run again, nor counted as contention for the `auto` rate.
      await proveOneCounter({ instances, clock });
    } finally {
      for (const instance of instances.reverse()) await instance.close();
      restoreEnvironment();
    }
  });
});
