import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Category } from '../src/categories/category.entity';
import { Tag } from '../src/tags/tag.entity';
import { EventCategoryLink, EventTagLink } from '../src/events/event-links.entity';
import { Event } from '../src/events/event.entity';
import { lockConflictsOf } from '../src/common/database/transactions';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';

const EVENTS = '/cal/events/v1/events';
const onMysql = Boolean(process.env.TEST_DATABASE_URL);

/** Sets `variables` for the apps created inside `build`, then puts the environment back. */
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

interface Outcome {
  kind: string;
  status: number;
  code?: string;
}

const body = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2027-05-01 10:00:00',
  end_date: '2027-05-01 12:00:00',
  ...extra,
});

/** Each term's stored count of published events against a count of its links. */
async function termCountsMatchLinks(testApp: TestApp): Promise<void> {
  const events = await testApp.dataSource.getRepository(Event).find({ select: { id: true, status: true } });
  const published = new Set(events.filter((event) => event.status === 'publish').map((event) => event.id));
  const categoryLinks = await testApp.dataSource.getRepository(EventCategoryLink).find();
  const tagLinks = await testApp.dataSource.getRepository(EventTagLink).find();
  for (const category of await testApp.dataSource.getRepository(Category).find()) {
    const expected = categoryLinks.filter((link) => link.categoryId === category.id && published.has(link.eventId)).length;
    expect({ category: category.name, count: category.publishedEventCount }).toEqual({ category: category.name, count: expected });
  }
  for (const tag of await testApp.dataSource.getRepository(Tag).find()) {
    const expected = tagLinks.filter((link) => link.tagId === tag.id && published.has(link.eventId)).length;
    expect({ tag: tag.name, count: tag.publishedEventCount }).toEqual({ tag: tag.name, count: expected });
  }
}

describe('Concurrent event writes (e2e)', () => {
  describe('at once, sharing categories and a tag', () => {
    let testApp: TestApp;
    let editors: TestUser[];
    let contributors: TestUser[];
    let termIds: { categories: number[]; tags: number[] };

    beforeAll(async () => {
      // The burst queues on the rows of the shared terms, one writer at a time: on a loaded machine
      // the last ones wait longer than the default pool wait limit, which is pinned below with a pool of one.
      testApp = await withEnv({ DATABASE_POOL_WAIT_TIMEOUT_MS: '120000' }, () => createTestApp());
      // Listening once: supertest would otherwise start (and stop) the server for each request.
      await testApp.app.listen(0, '127.0.0.1');
      editors = [];
      contributors = [];
      for (let index = 0; index < 4; index += 1) editors.push(await createUser(testApp, 'editor'));
      for (let index = 0; index < 4; index += 1) contributors.push(await createUser(testApp, 'contributor'));
      const post = (path: string, name: string) =>
        request(testApp.server).post(path).set('Authorization', editors[0].authorization).send({ name }).expect(201);
      termIds = {
        categories: [
          (await post('/cal/events/v1/categories', 'Shared one')).body.id,
          (await post('/cal/events/v1/categories', 'Shared two')).body.id,
        ],
        tags: [(await post('/cal/events/v1/tags', 'shared')).body.id],
      };
    });

    afterAll(async () => {
      await testApp.close();
    });

    /** One request on its own connection (fetch), as separate clients send them. */
    async function send(method: string, path: string, user?: TestUser, payload?: unknown): Promise<{ status: number; body: any }> {
      const { port } = testApp.server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: {
          ...(user ? { Authorization: user.authorization } : {}),
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    }

    it('answers 120 creates, updates, trashes and deletes by editors and contributors with 2xx, keeps /health up and the term counts right', async () => {
      const terms = { categories: termIds.categories, tags: termIds.tags };
      const create = (user: TestUser, title: string, extra: Record<string, unknown> = {}) =>
        send('POST', EVENTS, user, body(title, { ...terms, ...extra }));
      // Events that the burst then updates, trashes or deletes: published ones by the editors, drafts by the contributors.
      const published: number[] = [];
      const drafts: Array<{ id: number; owner: TestUser }> = [];
      for (let index = 0; index < 36; index += 1) {
        const created = await create(editors[index % editors.length], `Published ${index}`, { status: 'publish' });
        expect(created.status).toBe(201);
        published.push(created.body.id as number);
      }
      for (let index = 0; index < 24; index += 1) {
        const owner = contributors[index % contributors.length];
        const created = await create(owner, `Draft ${index}`);
        expect(created.status).toBe(201);
        drafts.push({ id: created.body.id as number, owner });
      }

      const writes: Array<Promise<Outcome>> = [];
      const track = (kind: string, response: Promise<{ status: number; body: { code?: string } }>) =>
        writes.push(response.then(({ status, body: answer }) => ({ kind, status, code: answer?.code })));
      for (let index = 0; index < 36; index += 1)
        track('create', create(editors[index % editors.length], `Burst ${index}`, { status: 'publish' }));
      for (let index = 0; index < 24; index += 1)
        track('contributor create', create(contributors[index % contributors.length], `Burst draft ${index}`));
      published.forEach((id, index) => {
        const editor = editors[(index + 1) % editors.length];
        if (index % 3 === 0) track('trash', send('DELETE', `${EVENTS}/${id}`, editor));
        else if (index % 3 === 1) track('delete', send('DELETE', `${EVENTS}/${id}?force=true`, editor));
        else
          track(
            'update',
            send('POST', `${EVENTS}/${id}`, editor, { title: `Updated ${id}`, tags: [], categories: terms.categories.slice(0, 1) }),
          );
      });
      drafts.forEach(({ id, owner }, index) => {
        if (index % 2 === 0) track('contributor trash', send('DELETE', `${EVENTS}/${id}`, owner));
        else track('contributor update', send('POST', `${EVENTS}/${id}`, owner, { title: `Draft ${id} again`, ...terms }));
      });
      expect(writes.length).toBe(120);

      // /health is asked while the writes run, and must answer each time.
      let writesDone = false;
      const healthStatuses: number[] = [];
      const health = (async () => {
        while (!writesDone) {
          healthStatuses.push((await send('GET', '/health')).status);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const outcomes = await Promise.all(writes);
      writesDone = true;
      await health;

      expect(outcomes.filter((outcome) => outcome.status < 200 || outcome.status >= 300)).toEqual([]);
      expect(healthStatuses.length).toBeGreaterThan(0);
      expect(healthStatuses.filter((status) => status !== 200)).toEqual([]);
      await termCountsMatchLinks(testApp);
    }, 180_000);

    it('takes the rows of terms and of the read model in one order: swapping terms, creates and trashes on one day wait, none deadlocks', async () => {
      const [categoryA, categoryB] = termIds.categories;
      const tagX = termIds.tags[0];
      const tagY = (
        await request(testApp.server)
          .post('/cal/events/v1/tags')
          .set('Authorization', editors[0].authorization)
          .send({ name: 'other' })
          .expect(201)
      ).body.id as number;
      const sides = [
        { categories: [categoryA], tags: [tagX] },
        { categories: [categoryB], tags: [tagY] },
      ];
      const both = { categories: [categoryA, categoryB], tags: [tagX, tagY] };
      // Every event on the same day: they share the read model's day counters (event_listing_days) as well as the terms.
      const swapped: Array<{ id: number; side: number }> = [];
      for (let index = 0; index < 20; index += 1) {
        const created = await send(
          'POST',
          EVENTS,
          editors[index % editors.length],
          body(`Side ${index}`, { status: 'publish', ...sides[index % 2] }),
        );
        expect(created.status).toBe(201);
        swapped.push({ id: created.body.id as number, side: index % 2 });
      }
      const trashed: number[] = [];
      for (let index = 0; index < 10; index += 1) {
        const created = await send('POST', EVENTS, editors[index % editors.length], body(`Both ${index}`, { status: 'publish', ...both }));
        expect(created.status).toBe(201);
        trashed.push(created.body.id as number);
      }
      const conflictsBefore = { ...lockConflictsOf(testApp.dataSource) };

      const writes: Array<Promise<Outcome>> = [];
      const track = (kind: string, response: Promise<{ status: number; body: { code?: string } }>) =>
        writes.push(response.then(({ status, body: answer }) => ({ kind, status, code: answer?.code })));
      // Each update adds one side's terms and removes the other's; creates and trashes lock both sides.
      swapped.forEach(({ id, side }, index) => {
        track('swap', send('POST', `${EVENTS}/${id}`, editors[index % editors.length], sides[1 - side]));
        if (index % 2 === 0) track('trash', send('DELETE', `${EVENTS}/${trashed[index / 2]}`, editors[(index + 1) % editors.length]));
        else
          track(
            'create',
            send('POST', EVENTS, editors[index % editors.length], body(`Both again ${index}`, { status: 'publish', ...both })),
          );
      });
      const outcomes = await Promise.all(writes);

      expect(outcomes.filter((outcome) => outcome.status < 200 || outcome.status >= 300)).toEqual([]);
      const conflicts = lockConflictsOf(testApp.dataSource);
      expect({ retried: conflicts.retried - conflictsBefore.retried, gaveUp: conflicts.gaveUp - conflictsBefore.gaveUp }).toEqual({
        retried: 0,
        gaveUp: 0,
      });
      await termCountsMatchLinks(testApp);
    }, 180_000);
  });

  // SQLite has one connection and no pool to exhaust.
  (onMysql ? describe : describe.skip)('with a pool of one connection (MariaDB)', () => {
    let testApp: TestApp;
    let editor: TestUser;

    beforeAll(async () => {
      testApp = await withEnv({ DATABASE_POOL_SIZE: '1', DATABASE_POOL_WAIT_TIMEOUT_MS: '3000' }, () => createTestApp());
      await testApp.app.listen(0, '127.0.0.1');
      editor = await createUser(testApp, 'editor');
    });

    afterAll(async () => {
      await testApp.close();
    });

    it('trashes and deletes ticketed events with terms without asking for a second connection inside the transaction', async () => {
      const category = (
        await request(testApp.server)
          .post('/cal/events/v1/categories')
          .set('Authorization', editor.authorization)
          .send({ name: 'Solo' })
          .expect(201)
      ).body;
      const ids: number[] = [];
      for (let index = 0; index < 4; index += 1) {
        const event = await insertEvent(testApp.dataSource, { authorId: editor.id });
        await request(testApp.server)
          .post(`${EVENTS}/${event.id}`)
          .set('Authorization', editor.authorization)
          .send({ categories: [category.id] })
          .expect(200);
        ids.push(event.id);
      }
      await request(testApp.server).delete(`${EVENTS}/${ids[0]}`).set('Authorization', editor.authorization).expect(200);
      await request(testApp.server).delete(`${EVENTS}/${ids[1]}?force=true`).set('Authorization', editor.authorization).expect(200);
    }, 60_000);

    it('answers 30 concurrent creates, trashes and deletes sharing a category on one connection, all 2xx', async () => {
      const category = (
        await request(testApp.server)
          .post('/cal/events/v1/categories')
          .set('Authorization', editor.authorization)
          .send({ name: 'Queue' })
          .expect(201)
      ).body;
      const ids: number[] = [];
      for (let index = 0; index < 20; index += 1) {
        ids.push(
          (
            await request(testApp.server)
              .post(EVENTS)
              .set('Authorization', editor.authorization)
              .send(body(`Queued ${index}`, { status: 'publish', categories: [category.id] }))
              .expect(201)
          ).body.id,
        );
      }
      const writes = [
        ...ids.map((id, index) =>
          request(testApp.server)
            .delete(`${EVENTS}/${id}${index % 2 ? '?force=true' : ''}`)
            .set('Authorization', editor.authorization),
        ),
        ...Array.from({ length: 10 }, (_, index) =>
          request(testApp.server)
            .post(EVENTS)
            .set('Authorization', editor.authorization)
            .send(body(`Queued again ${index}`, { status: 'publish', categories: [category.id] })),
        ),
      ];
      const statuses = (await Promise.all(writes)).map((response) => response.status);
      expect(statuses.filter((status) => status >= 300)).toEqual([]);
      await termCountsMatchLinks(testApp);
    }, 60_000);
  });
});
