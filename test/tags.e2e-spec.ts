import type { AuthenticatedUser } from '../src/auth/roles';
import fc from 'fast-check';
import request from 'supertest';
import { EventTagLink } from '../src/events/event-links.entity';
import { Event } from '../src/events/event.entity';
import { Tag } from '../src/tags/tag.entity';
import { TagsService } from '../src/tags/tags.service';
import { insertEvent, linkTags } from './helpers/fixtures';
import { expectApiError, queryOf } from './helpers/terms';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { TransactionHost } from '../src/common/database/transaction-host';

/** A caller who may create terms, for the service's event-body path. */
const EDITOR: AuthenticatedUser = { id: 1, login: 'admin', role: 'editor' };

const BASE = '/cal/events/v1/tags';

/** Keys of 25-tag-single.json and of its items in 24-tags.json, minus WordPress's `_links`. */
const RECORDED_TAG_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'];
const RECORDED_LIST_KEYS = ['rest_url', 'total', 'total_pages', 'tags'];

interface TagBody {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: string;
  meta: unknown[];
  url: string;
  urls: { self: string; collection: string };
}

describe('Tags (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let administrator: TestUser;
  let author: TestUser;
  let contributor: TestUser;
  let subscriber: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    // One listening address for the whole file, so URLs in responses compare across requests.
    await new Promise<void>((resolve) => testApp.server.listen(0, '127.0.0.1', resolve));
    editor = await createUser(testApp, 'editor');
    administrator = await createUser(testApp, 'administrator');
    author = await createUser(testApp, 'author');
    contributor = await createUser(testApp, 'contributor');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);
  const tags = () => testApp.dataSource.getRepository(Tag);
  const list = (query: string) => http().get(`${BASE}${query}`);
  const names = (response: request.Response) => (response.body.tags as TagBody[]).map((tag) => tag.name);

  async function createTag(body: Record<string, unknown>, user: TestUser = editor): Promise<TagBody> {
    const response = await http().post(BASE).set('Authorization', user.authorization).send(body);
    expect(response.status).toBe(201);
    return response.body as TagBody;
  }

  describe('list filters', () => {
    let beginner: TagBody;
    let advanced: TagBody;
    let outdoor: TagBody;
    let underscored: TagBody;
    let publishedA: Event;
    let publishedB: Event;
    let draft: Event;

    beforeAll(async () => {
      beginner = await createTag({ name: 'beginner' });
      advanced = await createTag({ name: 'Advanced' });
      outdoor = await createTag({ name: 'outdoor' });
      await createTag({ name: 'Family' });
      underscored = await createTag({ name: 'snake_case' });
      publishedA = await insertEvent(testApp.dataSource, { status: 'publish' });
      publishedB = await insertEvent(testApp.dataSource, { status: 'publish' });
      draft = await insertEvent(testApp.dataSource, { status: 'draft' });
      await linkTags(testApp, publishedA, [beginner.id, outdoor.id]);
      await linkTags(testApp, publishedB, [beginner.id, underscored.id]);
      await linkTags(testApp, draft, [advanced.id, outdoor.id]);
    });

    it('lists tags with published events by name, case-insensitively, in the recorded shape', async () => {
      const response = await list('').expect(200);
      expect(Object.keys(response.body)).toEqual(RECORDED_LIST_KEYS);
      expect(names(response)).toEqual(['beginner', 'outdoor', 'snake_case']);
      expect(response.body.tags.map((tag: TagBody) => tag.count)).toEqual([2, 1, 1]);
      expect(Object.keys(response.body.tags[0])).toEqual(RECORDED_TAG_KEYS);
      expect(response.body).toMatchObject({ total: 3, total_pages: 1 });
      expect(response.headers['x-tec-total']).toBe('3');
      expect(response.headers['x-tec-totalpages']).toBe('1');
    });

    it('shows tags without published events when hide_empty is false', async () => {
      expect(names(await list('?hide_empty=false').expect(200))).toEqual(['Advanced', 'beginner', 'Family', 'outdoor', 'snake_case']);
      expectApiError(await list('?hide_empty=perhaps'), 400, 'rest_invalid_param', { hide_empty: expect.any(String) });
    });

    it('searches names and slugs, with LIKE wildcards taken literally', async () => {
      expect(names(await list('?search=DOOR').expect(200))).toEqual(['outdoor']);
      expect(names(await list('?search=snake-case').expect(200))).toEqual(['snake_case']);
      expect(names(await list('?search=e_c').expect(200))).toEqual(['snake_case']);
      expect(names(await list('?search=%25').expect(200))).toEqual([]);
    });

    it('filters by include and exclude, rejecting unknown ids', async () => {
      expect(names(await list(`?include=${outdoor.id},${beginner.id}`).expect(200))).toEqual(['beginner', 'outdoor']);
      expect(names(await list(`?exclude=${beginner.id}`).expect(200))).toEqual(['outdoor', 'snake_case']);
      expectApiError(await list('?include=999999'), 400, 'rest_invalid_param', { include: expect.any(String) });
      expectApiError(await list(`?exclude=${beginner.id},999999`), 400, 'rest_invalid_param', {
        exclude: expect.stringContaining('999999'),
      });
      expectApiError(await list('?include=1,x'), 400, 'rest_invalid_param', { include: expect.any(String) });
    });

    it('orders by name, id, slug or count in either direction', async () => {
      expect(names(await list('?order=desc').expect(200))).toEqual(['snake_case', 'outdoor', 'beginner']);
      expect(names(await list('?orderby=id').expect(200))).toEqual(['beginner', 'outdoor', 'snake_case']);
      expect(names(await list('?orderby=slug&order=desc').expect(200))).toEqual(['snake_case', 'outdoor', 'beginner']);
      expect(names(await list('?orderby=count&order=desc').expect(200))[0]).toBe('beginner');
      expectApiError(await list('?order='), 400, 'rest_invalid_param', { order: expect.any(String) });
      expectApiError(await list('?orderby='), 400, 'rest_invalid_param', { orderby: expect.any(String) });
      expectApiError(await list('?orderby=term_group'), 400, 'rest_invalid_param', { orderby: expect.any(String) });
    });

    it('keeps tags of one event, event winning over post, and rejects events that do not exist', async () => {
      expect(names(await list(`?post=${publishedA.id}`).expect(200))).toEqual(['beginner', 'outdoor']);
      expect(names(await list(`?event=${publishedB.id}&post=${publishedA.id}`).expect(200))).toEqual(['beginner', 'snake_case']);
      expect(names(await list(`?event=${draft.id}&hide_empty=0`).expect(200))).toEqual(['Advanced', 'outdoor']);
      expectApiError(await list('?post=999999'), 400, 'rest_invalid_param', { post: expect.any(String) });
      expectApiError(await list('?event=0'), 400, 'rest_invalid_param', { event: expect.any(String) });
    });

    it('matches a slug exactly and rejects an empty one', async () => {
      expect(names(await list('?slug=outdoor').expect(200))).toEqual(['outdoor']);
      expect(names(await list('?slug=out').expect(200))).toEqual([]);
      expectApiError(await list('?slug='), 400, 'rest_invalid_param', { slug: 'slug must not be empty' });
    });

    it('ignores parent, which tags do not have', async () => {
      const response = await list('?parent=999999').expect(200);
      expect(names(response)).toEqual(['beginner', 'outdoor', 'snake_case']);
      expect(queryOf(response.body.rest_url)).toEqual({ page: '1' });
    });

    it('pages, answering a page past the end with 200 and an empty list', async () => {
      const first = await list('?per_page=2').expect(200);
      expect(names(first)).toEqual(['beginner', 'outdoor']);
      expect(queryOf(first.body.next_rest_url)).toEqual({ page: '2', per_page: '2' });
      const last = await list('?per_page=2&page=2').expect(200);
      expect(names(last)).toEqual(['snake_case']);
      expect(Object.keys(last.body)).toEqual([...RECORDED_LIST_KEYS, 'previous_rest_url']);
      const past = await list('?per_page=2&page=9').expect(200);
      expect(past.body).toMatchObject({ tags: [], total: 3, total_pages: 2 });
      expect(queryOf(past.body.previous_rest_url)).toEqual({ page: '2', per_page: '2' });
      const clamped = await list('?per_page=1000').expect(200);
      expect(queryOf(clamped.body.rest_url)).toEqual({ page: '1', per_page: '100' });
      const empty = await list('?search=zzz').expect(200);
      expect(empty.body).toMatchObject({ tags: [], total: 0, total_pages: 0 });
      expectApiError(await list('?page=0'), 400, 'rest_invalid_param', { page: expect.any(String) });
      expectApiError(await list('?per_page=abc'), 400, 'rest_invalid_param', { per_page: expect.any(String) });
    });
  });

  describe('create', () => {
    it('creates a tag: 201, Location, post_tag, no parent, in the recorded key order', async () => {
      const response = await http().post(BASE).set('Authorization', editor.authorization).send({ name: 'Newcomers' }).expect(201);
      const body = response.body as TagBody;
      expect(Object.keys(body)).toEqual(RECORDED_TAG_KEYS);
      expect(body).toEqual({
        id: expect.any(Number),
        count: 0,
        description: '',
        name: 'Newcomers',
        slug: 'newcomers',
        taxonomy: 'post_tag',
        meta: [],
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/events\/tag\/newcomers\/$/),
        urls: {
          self: expect.stringMatching(new RegExp(`/cal/events/v1/tags/${body.id}$`)),
          collection: expect.stringMatching(/\/cal\/events\/v1\/tags$/),
        },
      });
      expect(response.headers.location).toBe(body.urls.self);
      expect(await tags().findOneByOrFail({ id: body.id })).toMatchObject({ name: 'Newcomers', slug: 'newcomers' });
    });

    it('ignores a parent in the body', async () => {
      const created = await createTag({ name: 'Parentless', parent: 999999 });
      expect(created).not.toHaveProperty('parent');
    });

    it('returns 400 rest_missing_callback_param without a name', async () => {
      expectApiError(
        await http().post(BASE).set('Authorization', editor.authorization).send({ slug: 'x' }),
        400,
        'rest_missing_callback_param',
        ['name'],
      );
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['a name that is an object', { name: { a: 1 } }, 'name'],
      ['an empty slug', { name: 'Slugless tag', slug: '' }, 'slug'],
      ['a slug that is not text', { name: 'Numbered slug', slug: 5 }, 'slug'],
    ])('returns 400 rest_invalid_param for %s', async (_case, body, field) => {
      expectApiError(await http().post(BASE).set('Authorization', editor.authorization).send(body), 400, 'rest_invalid_param', {
        [field]: expect.any(String),
      });
    });

    it('returns 400 term_exists for a name taken anywhere, whatever its case', async () => {
      const existing = await createTag({ name: 'Evening' });
      const response = await http().post(BASE).set('Authorization', editor.authorization).send({ name: ' EVENING ' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'term_exists',
        message: 'A term with the name provided already exists with this parent.',
        data: { status: 400, term_id: existing.id },
      });
    });

    it('makes slugs unique with -2', async () => {
      await createTag({ name: 'Jazz night', slug: 'jazz' });
      expect((await createTag({ name: 'Jazz' })).slug).toBe('jazz-2');
    });

    it('accepts a form-encoded body', async () => {
      const response = await http()
        .post(BASE)
        .set('Authorization', editor.authorization)
        .type('form')
        .send('name=Free+entry&description=No+ticket+needed&slug=free')
        .expect(201);
      expect(response.body).toMatchObject({ name: 'Free entry', description: 'No ticket needed', slug: 'free' });
    });
  });

  describe('read, update and delete', () => {
    it('reads by id and by slug in the recorded key order', async () => {
      const tag = await createTag({ name: 'Readable tag' });
      await linkTags(testApp, await insertEvent(testApp.dataSource, { status: 'publish' }), [tag.id]);
      const byId = await http().get(`${BASE}/${tag.id}`).expect(200);
      expect(Object.keys(byId.body)).toEqual(RECORDED_TAG_KEYS);
      expect(byId.body).toEqual({ ...tag, count: 1 });
      await http().get(`${BASE}/by-slug/readable-tag`).expect(200, byId.body);
    });

    it('returns 404 term-not-found for unknown ids and slugs, 404 rest_no_route for non-digit ids', async () => {
      expectApiError(await http().get(`${BASE}/999999`), 404, 'term-not-found');
      expectApiError(await http().get(`${BASE}/by-slug/nothing-here`), 404, 'term-not-found');
      expectApiError(
        await http().patch(`${BASE}/999999`).set('Authorization', editor.authorization).send({ name: 'x' }),
        404,
        'term-not-found',
      );
      expectApiError(await http().delete(`${BASE}/by-slug/nothing-here`).set('Authorization', editor.authorization), 404, 'term-not-found');
      expectApiError(await http().get(`${BASE}/x1`), 404, 'rest_no_route');
      expectApiError(await http().patch(`${BASE}/x1`).set('Authorization', editor.authorization).send({ name: 'x' }), 404, 'rest_no_route');
    });

    it.each(['post', 'put', 'patch'] as const)('updates by id and by slug with %s, keeping fields left out', async (method) => {
      const tag = await createTag({ name: `Tag ${method}`, description: 'Kept' });
      const byId = await http()
        [method](`${BASE}/${tag.id}`)
        .set('Authorization', editor.authorization)
        .send({ name: `Renamed ${method}` })
        .expect(200);
      expect(byId.body).toEqual({ ...tag, name: `Renamed ${method}` });
      const bySlug = await http()
        [method](`${BASE}/by-slug/${tag.slug}`)
        .set('Authorization', editor.authorization)
        .send({ description: '' })
        .expect(200);
      expect(bySlug.body).toEqual({ ...tag, name: `Renamed ${method}`, description: '' });
    });

    it('refuses an empty name or slug and a name taken by another tag on update', async () => {
      const taken = await createTag({ name: 'Taken tag' });
      const tag = await createTag({ name: 'Renamable tag' });
      expectApiError(
        await http().put(`${BASE}/${tag.id}`).set('Authorization', editor.authorization).send({ name: '' }),
        400,
        'rest_invalid_param',
        { name: expect.any(String) },
      );
      expectApiError(
        await http().put(`${BASE}/${tag.id}`).set('Authorization', editor.authorization).send({ slug: '' }),
        400,
        'rest_invalid_param',
        { slug: expect.any(String) },
      );
      const clash = await http().put(`${BASE}/${tag.id}`).set('Authorization', editor.authorization).send({ name: 'taken TAG' });
      expectApiError(clash, 400, 'term_exists');
      expect(clash.body.data.term_id).toBe(taken.id);
    });

    it('deletes for good, removing the links to events and answering the tag as it was', async () => {
      const tag = await createTag({ name: 'Doomed tag' });
      const kept = await createTag({ name: 'Kept tag' });
      const event = await insertEvent(testApp.dataSource, { status: 'publish' });
      await linkTags(testApp, event, [tag.id, kept.id]);
      const response = await http().delete(`${BASE}/${tag.id}`).set('Authorization', editor.authorization).expect(200);
      expect(response.body).toEqual({ ...tag, count: 1 });
      expect(await tags().findOneBy({ id: tag.id })).toBeNull();
      const links = await testApp.dataSource.getRepository(EventTagLink).findBy({ eventId: event.id });
      expect(links.map((link) => link.tagId)).toEqual([kept.id]);
      expect(await testApp.dataSource.getRepository(Event).findOneBy({ id: event.id })).not.toBeNull();
    });

    it('deletes by slug', async () => {
      const tag = await createTag({ name: 'Slug doomed' });
      await http().delete(`${BASE}/by-slug/slug-doomed`).set('Authorization', editor.authorization).expect(200, tag);
      expect(await tags().findOneBy({ id: tag.id })).toBeNull();
    });
  });

  describe('permissions', () => {
    it.each([
      ['an anonymous caller', () => undefined, 401],
      ['a subscriber', () => subscriber, 403],
      ['a contributor', () => contributor, 403],
      ['an author', () => author, 403],
    ])('refuses create, update and delete to %s', async (_who, user, status) => {
      const tag = await createTag({ name: `Guarded ${status} ${user()?.login ?? 'anonymous'}` });
      const authorize = (test: request.Test) => {
        const caller = user();
        return caller ? test.set('Authorization', caller.authorization) : test;
      };
      const attempts = [
        authorize(http().post(BASE)).send({ name: 'Not allowed' }),
        authorize(http().put(`${BASE}/${tag.id}`)).send({ name: 'Not allowed' }),
        authorize(http().patch(`${BASE}/by-slug/${tag.slug}`)).send({ name: 'Not allowed' }),
        authorize(http().delete(`${BASE}/${tag.id}`)),
        authorize(http().delete(`${BASE}/by-slug/${tag.slug}`)),
      ];
      for (const attempt of attempts) {
        const response = await attempt;
        expect({ status: response.status, code: response.body.code }).toEqual({ status, code: 'rest_forbidden' });
      }
      expect(await tags().findOneByOrFail({ id: tag.id })).toMatchObject({ name: tag.name });
      expect(await tags().countBy({ name: 'Not allowed' })).toBe(0);
    });

    it.each([
      ['an editor', () => editor],
      ['an administrator', () => administrator],
    ])('lets %s create, update and delete', async (_who, user) => {
      const created = await createTag({ name: `Managed tag ${user().login}` }, user());
      await http().patch(`${BASE}/${created.id}`).set('Authorization', user().authorization).send({ description: 'Changed' }).expect(200);
      await http().delete(`${BASE}/${created.id}`).set('Authorization', user().authorization).expect(200);
    });
  });

  describe('service used by events', () => {
    const service = () => testApp.app.get(TagsService);

    it('recounts the stored count of published events per id', async () => {
      const tag = await createTag({ name: 'Service counted tag' });
      await linkTags(testApp, await insertEvent(testApp.dataSource, { status: 'publish' }), [tag.id]);
      await linkTags(testApp, await insertEvent(testApp.dataSource, { status: 'future' }), [tag.id]);
      await testApp.dataSource.query('UPDATE event_tags SET published_event_count = 0');
      await service().recountPublishedEvents([tag.id]);
      expect((await http().get(`${BASE}/${tag.id}`).expect(200)).body.count).toBe(1);
    });

    it('resolves ids and names, creating unknown names with a slug made from them', async () => {
      const existing = await createTag({ name: 'Resolved tag' });
      const resolved = await testApp.app
        .get(TransactionHost)
        .run(() => service().resolveForEvent([String(existing.id), 'resolved TAG', 'Fresh Tag', 'fresh tag'], EDITOR));
      expect(resolved.map((tag) => tag.name)).toEqual(['Resolved tag', 'Fresh Tag']);
      expect(resolved[1].slug).toBe('fresh-tag');
    });

    it('rejects unknown ids naming tags', async () => {
      await expect(testApp.app.get(TransactionHost).run(() => service().resolveForEvent([999999], EDITOR))).rejects.toMatchObject({
        code: 'rest_invalid_param',
        extraData: { params: { tags: expect.any(String) } },
      });
    });
  });

  describe('robustness', () => {
    it('never answers a 500 to odd bodies on update', async () => {
      const tag = await createTag({ name: 'Fuzzed tag' });
      const field = fc.constantFrom('name', 'slug', 'description');
      const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
      await fc.assert(
        fc.asyncProperty(field, value, async (name, sent) => {
          const response = await http()
            .patch(`${BASE}/${tag.id}`)
            .set('Authorization', editor.authorization)
            .send({ [name]: sent });
          expect(response.status).toBeLessThan(500);
        }),
        { numRuns: 60 },
      );
    });
  });
});
