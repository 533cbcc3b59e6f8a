import type { AuthenticatedUser } from '../src/auth/roles';
import fc from 'fast-check';
import request from 'supertest';
import { CategoriesService } from '../src/categories/categories.service';
import { Category } from '../src/categories/category.entity';
import { EventCategoryLink } from '../src/events/event-links.entity';
import { Event } from '../src/events/event.entity';
import { insertEvent, linkCategories } from './helpers/fixtures';
import { expectApiError, queryOf } from './helpers/terms';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { TransactionHost } from '../src/common/database/transaction-host';

/** A caller who may create terms, for the service's event-body path. */
const EDITOR: AuthenticatedUser = { id: 1, login: 'admin', role: 'editor' };

const BASE = '/cal/events/v1/categories';

/** Keys of 23-category-single.json and of its items in 22-categories.json, minus WordPress's `_links`. */
const RECORDED_CATEGORY_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'];
const RECORDED_LIST_KEYS = ['rest_url', 'total', 'total_pages', 'categories'];

interface CategoryBody {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: string;
  parent: number;
  meta: unknown[];
  url: string;
  urls: { self: string; collection: string; up?: string };
}

describe('Categories (e2e)', () => {
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
  const categories = () => testApp.dataSource.getRepository(Category);

  async function createCategory(body: Record<string, unknown>, user: TestUser = editor): Promise<CategoryBody> {
    const response = await http().post(BASE).set('Authorization', user.authorization).send(body);
    expect(response.status).toBe(201);
    return response.body as CategoryBody;
  }

  const list = (query: string) => http().get(`${BASE}${query}`);

  const names = (response: request.Response) => (response.body.categories as CategoryBody[]).map((category) => category.name);

  describe('list filters', () => {
    let arts: CategoryBody;
    let business: CategoryBody;
    let cooking: CategoryBody;
    let dance: CategoryBody;
    let education: CategoryBody;
    let film: CategoryBody;
    let publishedA: Event;
    let publishedB: Event;
    let draft: Event;
    let publishedC: Event;

    beforeAll(async () => {
      arts = await createCategory({ name: 'Arts' });
      business = await createCategory({ name: 'Business' });
      cooking = await createCategory({ name: 'Cooking', parent: arts.id });
      dance = await createCategory({ name: 'Dance' });
      education = await createCategory({ name: 'Education', parent: arts.id });
      film = await createCategory({ name: 'Film 100%' });
      publishedA = await insertEvent(testApp.dataSource, { status: 'publish' });
      publishedB = await insertEvent(testApp.dataSource, { status: 'publish' });
      draft = await insertEvent(testApp.dataSource, { status: 'draft' });
      publishedC = await insertEvent(testApp.dataSource, { status: 'publish' });
      await linkCategories(testApp, publishedA, [arts.id, cooking.id]);
      await linkCategories(testApp, publishedB, [arts.id, film.id]);
      await linkCategories(testApp, draft, [arts.id, business.id]);
      await linkCategories(testApp, publishedC, [education.id]);
    });

    it('lists terms with published events by name, counting published events only, in the recorded shape', async () => {
      const response = await list('').expect(200);
      expect(Object.keys(response.body)).toEqual(RECORDED_LIST_KEYS);
      expect(names(response)).toEqual(['Arts', 'Cooking', 'Education', 'Film 100%']);
      expect(response.body.categories.map((category: CategoryBody) => category.count)).toEqual([2, 1, 1, 1]);
      expect(Object.keys(response.body.categories[0])).toEqual(RECORDED_CATEGORY_KEYS);
      expect(response.body).toMatchObject({ total: 4, total_pages: 1 });
      expect(response.body.rest_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cal\/events\/v1\/categories\/\?page=1$/);
      expect(response.headers['x-tec-total']).toBe('4');
      expect(response.headers['x-tec-totalpages']).toBe('1');
    });

    it('shows terms without published events when hide_empty is false', async () => {
      for (const value of ['false', '0']) {
        const response = await list(`?hide_empty=${value}`).expect(200);
        expect(names(response)).toEqual(['Arts', 'Business', 'Cooking', 'Dance', 'Education', 'Film 100%']);
        expect(response.body.categories[1]).toMatchObject({ name: 'Business', count: 0 });
      }
      expect(names(await list('?hide_empty=true').expect(200))).toHaveLength(4);
    });

    it('rejects a hide_empty that is not a boolean', async () => {
      expectApiError(await list('?hide_empty=maybe'), 400, 'rest_invalid_param', { hide_empty: expect.any(String) });
    });

    it('searches names and slugs case-insensitively, with LIKE wildcards taken literally', async () => {
      expect(names(await list('?search=OOK').expect(200))).toEqual(['Cooking']);
      expect(names(await list('?search=film-100').expect(200))).toEqual(['Film 100%']);
      expect(names(await list('?search=%25').expect(200))).toEqual(['Film 100%']);
      expect(names(await list('?search=_').expect(200))).toEqual([]);
      expect(names(await list('?search=nothing-like-this').expect(200))).toEqual([]);
    });

    it('keeps only included ids, in any list form', async () => {
      expect(names(await list(`?include=${cooking.id},${arts.id}`).expect(200))).toEqual(['Arts', 'Cooking']);
      expect(names(await list(`?include[]=${cooking.id}&include[]=${film.id}`).expect(200))).toEqual(['Cooking', 'Film 100%']);
      expect(names(await list(`?include=${dance.id}&hide_empty=false`).expect(200))).toEqual(['Dance']);
    });

    it('rejects include ids that are unknown or not integers, naming include', async () => {
      expectApiError(await list(`?include=${arts.id},999999`), 400, 'rest_invalid_param', { include: expect.stringContaining('999999') });
      expectApiError(await list('?include=abc'), 400, 'rest_invalid_param', { include: expect.any(String) });
    });

    it('leaves out excluded ids', async () => {
      expect(names(await list(`?exclude=${arts.id}`).expect(200))).toEqual(['Cooking', 'Education', 'Film 100%']);
      expect(names(await list(`?exclude=${arts.id}&exclude=${film.id}`).expect(200))).toEqual(['Cooking', 'Education']);
    });

    it('rejects unknown exclude ids, and names both lists when both are wrong', async () => {
      expectApiError(await list('?exclude=999998'), 400, 'rest_invalid_param', { exclude: expect.stringContaining('999998') });
      const both = await list('?include=999997&exclude=999996');
      expectApiError(both, 400, 'rest_invalid_param');
      expect(Object.keys(both.body.data.params)).toEqual(['include', 'exclude']);
    });

    it('orders descending, case-insensitively on the direction', async () => {
      expect(names(await list('?order=desc').expect(200))).toEqual(['Film 100%', 'Education', 'Cooking', 'Arts']);
      expect(names(await list('?order=DESC').expect(200))).toEqual(['Film 100%', 'Education', 'Cooking', 'Arts']);
      expect(names(await list('?order=asc').expect(200))).toEqual(['Arts', 'Cooking', 'Education', 'Film 100%']);
    });

    it.each(['', 'sideways'])('rejects order=%p', async (value) => {
      expectApiError(await list(`?order=${value}`), 400, 'rest_invalid_param', { order: expect.any(String) });
    });

    it('orders by id, slug and count', async () => {
      expect(names(await list('?orderby=id&order=desc').expect(200))).toEqual(['Film 100%', 'Education', 'Cooking', 'Arts']);
      expect(names(await list('?orderby=slug').expect(200))).toEqual(['Arts', 'Cooking', 'Education', 'Film 100%']);
      const byCount = await list('?orderby=count&order=desc&hide_empty=false').expect(200);
      expect(byCount.body.categories[0].name).toBe('Arts');
      expect(byCount.body.categories.map((category: CategoryBody) => category.count)).toEqual([2, 1, 1, 1, 0, 0]);
    });

    it.each(['', 'popularity'])('rejects orderby=%p', async (value) => {
      expectApiError(await list(`?orderby=${value}`), 400, 'rest_invalid_param', { orderby: expect.any(String) });
    });

    it('keeps terms linked to the post or event given, event winning over post', async () => {
      expect(names(await list(`?post=${publishedA.id}`).expect(200))).toEqual(['Arts', 'Cooking']);
      expect(names(await list(`?event=${publishedC.id}`).expect(200))).toEqual(['Education']);
      expect(names(await list(`?post=${publishedA.id}&event=${publishedC.id}`).expect(200))).toEqual(['Education']);
      expect(names(await list(`?event=${draft.id}&hide_empty=false`).expect(200))).toEqual(['Arts', 'Business']);
      expect(names(await list(`?event=${draft.id}`).expect(200))).toEqual(['Arts']);
    });

    it('rejects a post or event that is no event, naming the parameter', async () => {
      expectApiError(await list('?post=999999'), 400, 'rest_invalid_param', { post: expect.any(String) });
      expectApiError(await list('?event=999999'), 400, 'rest_invalid_param', { event: expect.any(String) });
      expectApiError(await list('?event=abc'), 400, 'rest_invalid_param', { event: expect.any(String) });
      expectApiError(await list(`?event=999999&post=${publishedA.id}`), 400, 'rest_invalid_param', { event: expect.any(String) });
    });

    it('matches a slug exactly', async () => {
      expect(names(await list('?slug=arts').expect(200))).toEqual(['Arts']);
      expect(names(await list('?slug=ARTS').expect(200))).toEqual(['Arts']);
      expect(names(await list('?slug=art').expect(200))).toEqual([]);
    });

    it('rejects an empty slug', async () => {
      expectApiError(await list('?slug='), 400, 'rest_invalid_param', { slug: 'slug must not be empty' });
    });

    it('keeps children of a parent, or top-level terms for parent=0', async () => {
      expect(names(await list(`?parent=${arts.id}`).expect(200))).toEqual(['Cooking', 'Education']);
      expect(names(await list('?parent=0').expect(200))).toEqual(['Arts', 'Film 100%']);
      expect(names(await list('?parent=0&hide_empty=false').expect(200))).toEqual(['Arts', 'Business', 'Dance', 'Film 100%']);
      expect(names(await list(`?parent=${film.id}`).expect(200))).toEqual([]);
    });

    it('rejects a parent that is no category', async () => {
      expectApiError(await list('?parent=999999'), 400, 'rest_invalid_param', { parent: expect.any(String) });
      expectApiError(await list('?parent=-1'), 400, 'rest_invalid_param', { parent: expect.any(String) });
      expectApiError(await list('?parent=x'), 400, 'rest_invalid_param', { parent: expect.any(String) });
    });

    it('combines filters and ignores unknown parameters', async () => {
      const response = await list(`?parent=${arts.id}&search=edu&unknown=1`).expect(200);
      expect(names(response)).toEqual(['Education']);
      expect(queryOf(response.body.rest_url)).toEqual({ page: '1', search: 'edu', parent: String(arts.id) });
    });
  });

  describe('pagination', () => {
    it('pages with next and previous links that keep the query', async () => {
      const first = await list('?per_page=2').expect(200);
      expect(names(first)).toEqual(['Arts', 'Cooking']);
      expect(first.body).toMatchObject({ total: 4, total_pages: 2 });
      expect(first.headers['x-tec-totalpages']).toBe('2');
      expect(queryOf(first.body.next_rest_url)).toEqual({ page: '2', per_page: '2' });
      expect(first.body.previous_rest_url).toBeUndefined();

      const last = await list('?per_page=2&page=2').expect(200);
      expect(names(last)).toEqual(['Education', 'Film 100%']);
      expect(Object.keys(last.body)).toEqual([...RECORDED_LIST_KEYS, 'previous_rest_url']);
      expect(last.body.next_rest_url).toBeUndefined();
      expect(queryOf(last.body.previous_rest_url)).toEqual({ per_page: '2' });
    });

    it('answers a page past the end with 200 and an empty list', async () => {
      const response = await list('?per_page=2&page=3').expect(200);
      expect(response.body.categories).toEqual([]);
      expect(response.body).toMatchObject({ total: 4, total_pages: 2 });
      expect(queryOf(response.body.previous_rest_url)).toEqual({ page: '2', per_page: '2' });
      expect(response.body.next_rest_url).toBeUndefined();
    });

    it('answers an empty list with zero totals and no links, on any page', async () => {
      for (const page of ['1', '2']) {
        const response = await list(`?search=no-such-term&page=${page}`).expect(200);
        expect(response.body).toMatchObject({ total: 0, total_pages: 0, categories: [] });
        expect(response.body.next_rest_url).toBeUndefined();
        expect(response.body.previous_rest_url).toBeUndefined();
        expect(response.headers['x-tec-total']).toBe('0');
        expect(response.headers['x-tec-totalpages']).toBe('0');
      }
    });

    it.each([
      ['page', '0'],
      ['page', 'two'],
      ['per_page', '0'],
      ['per_page', '-5'],
    ])('rejects %s=%s', async (name, value) => {
      expectApiError(await list(`?${name}=${value}`), 400, 'rest_invalid_param', { [name]: expect.any(String) });
    });

    it('clamps per_page to 100', async () => {
      const rows = Array.from({ length: 101 }, (_unused, index) =>
        categories().create({ name: `Bulk ${String(index).padStart(3, '0')}`, slug: `bulk-${index}` }),
      );
      await categories().save(rows);
      const response = await list('?per_page=500&hide_empty=false&search=bulk').expect(200);
      expect(response.body.categories).toHaveLength(100);
      expect(response.body).toMatchObject({ total: 101, total_pages: 2 });
      expect(queryOf(response.body.rest_url)).toEqual({ page: '1', per_page: '100', search: 'bulk', hide_empty: 'false' });
      const second = await list('?per_page=500&hide_empty=false&search=bulk&page=2').expect(200);
      expect(names(second)).toEqual(['Bulk 100']);
      await categories().delete(rows.map((row) => row.id));
    });
  });

  describe('create', () => {
    it('creates a category: 201, Location, the recorded key order and the default taxonomy', async () => {
      const response = await http()
        .post(BASE)
        .set('Authorization', editor.authorization)
        .send({ name: 'Workshops', description: 'Hands-on sessions' })
        .expect(201);
      const body = response.body as CategoryBody;
      expect(Object.keys(body)).toEqual(RECORDED_CATEGORY_KEYS);
      expect(body).toEqual({
        id: expect.any(Number),
        count: 0,
        description: 'Hands-on sessions',
        name: 'Workshops',
        slug: 'workshops',
        taxonomy: 'cal_events_cat',
        parent: 0,
        meta: [],
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/events\/category\/workshops\/$/),
        urls: {
          self: expect.stringMatching(new RegExp(`/cal/events/v1/categories/${body.id}$`)),
          collection: expect.stringMatching(/\/cal\/events\/v1\/categories$/),
        },
      });
      expect(response.headers.location).toBe(body.urls.self);
      const stored = await categories().findOneByOrFail({ id: body.id });
      expect(stored).toMatchObject({ name: 'Workshops', slug: 'workshops', description: 'Hands-on sessions', parentId: null });
    });

    it('returns 400 rest_missing_callback_param without a name', async () => {
      const response = await http().post(BASE).set('Authorization', editor.authorization).send({ description: 'x' });
      expectApiError(response, 400, 'rest_missing_callback_param', ['name']);
      expect(response.body.message).toBe('Missing parameter(s): name');
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name that is not text', { name: 5 }, 'name'],
      ['a name longer than 200 characters', { name: 'n'.repeat(201) }, 'name'],
      ['an empty slug', { name: 'Slugless', slug: '' }, 'slug'],
      ['a null slug', { name: 'Slugless', slug: null }, 'slug'],
      ['a description that is not text', { name: 'Described', description: ['a'] }, 'description'],
      ['a parent that is not an integer', { name: 'Orphan', parent: 'abc' }, 'parent'],
      ['a negative parent', { name: 'Orphan', parent: -1 }, 'parent'],
      ['a parent that is no category', { name: 'Orphan', parent: 999999 }, 'parent'],
    ])('returns 400 rest_invalid_param for %s', async (_case, body, field) => {
      const response = await http().post(BASE).set('Authorization', editor.authorization).send(body);
      expectApiError(response, 400, 'rest_invalid_param', { [field]: expect.any(String) });
      expect(response.body.message).toBe(`Invalid parameter(s): ${field}`);
    });

    it('returns 400 term_exists with the existing id for a name taken at the same level, whatever its case', async () => {
      const existing = await createCategory({ name: 'Concerts' });
      const response = await http().post(BASE).set('Authorization', editor.authorization).send({ name: 'concerts' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'term_exists',
        message: 'A term with the name provided already exists with this parent.',
        data: { status: 400, term_id: existing.id },
      });
    });

    it('allows the same name under different parents, but not twice under one', async () => {
      const music = await createCategory({ name: 'Music' });
      const theatre = await createCategory({ name: 'Theatre' });
      const kidsMusic = await createCategory({ name: 'Kids', parent: music.id });
      const kidsTheatre = await createCategory({ name: 'Kids', parent: theatre.id });
      expect(kidsMusic.slug).toBe('kids');
      expect(kidsTheatre.slug).toBe('kids-2');
      const response = await http().post(BASE).set('Authorization', editor.authorization).send({ name: 'KIDS', parent: music.id });
      expectApiError(response, 400, 'term_exists');
      expect(response.body.data.term_id).toBe(kidsMusic.id);
    });

    it('links a parent and points urls.up at it', async () => {
      const parent = await createCategory({ name: 'Sports' });
      const child = await createCategory({ name: 'Climbing', parent: parent.id });
      expect(child.parent).toBe(parent.id);
      expect(child.urls.up).toBe(parent.urls.self);
      expect(Object.keys(child.urls)).toEqual(['self', 'collection', 'up']);
    });

    it('makes slugs URL-friendly and unique with -2, -3', async () => {
      expect((await createCategory({ name: 'Café Night!' })).slug).toBe('cafe-night');
      expect((await createCategory({ name: 'Late shows', slug: 'My Slug!' })).slug).toBe('my-slug');
      expect((await createCategory({ name: 'Other slug', slug: 'my-slug' })).slug).toBe('my-slug-2');
      expect((await createCategory({ name: 'Third slug', slug: 'my-slug' })).slug).toBe('my-slug-3');
      expect((await createCategory({ name: '日本' })).slug).toBe('category');
    });

    it('ignores read-only and unknown fields', async () => {
      const created = await createCategory({ name: 'Readonly', id: 999999, count: 42, taxonomy: 'other', nonsense: true });
      expect(created.id).not.toBe(999999);
      expect(created).toMatchObject({ count: 0, taxonomy: 'cal_events_cat' });
    });

    it('accepts a form-encoded body', async () => {
      const parent = await createCategory({ name: 'Outdoors' });
      const response = await http()
        .post(BASE)
        .set('Authorization', editor.authorization)
        .type('form')
        .send(`name=Hiking+trips&description=By+form&parent=${parent.id}`)
        .expect(201);
      expect(response.body).toMatchObject({ name: 'Hiking trips', description: 'By form', slug: 'hiking-trips', parent: parent.id });
    });

    it('accepts a multipart body', async () => {
      const response = await http().post(BASE).set('Authorization', editor.authorization).field('name', 'Multipart made').expect(201);
      expect(response.body.slug).toBe('multipart-made');
    });
  });

  describe('read', () => {
    it('reads a category by id in the recorded key order, with its count', async () => {
      const category = await createCategory({ name: 'Readable', description: 'Hands-on sessions' });
      const event = await insertEvent(testApp.dataSource, { status: 'publish' });
      await linkCategories(testApp, event, [category.id]);
      const response = await http().get(`${BASE}/${category.id}`).expect(200);
      expect(Object.keys(response.body)).toEqual(RECORDED_CATEGORY_KEYS);
      expect(Object.keys(response.body.urls)).toEqual(['self', 'collection']);
      expect(response.body).toEqual({ ...category, count: 1 });
    });

    it('reads a category by slug, whatever its case', async () => {
      const category = await createCategory({ name: 'Sluggable' });
      await http().get(`${BASE}/by-slug/sluggable`).expect(200, category);
      await http().get(`${BASE}/by-slug/SLUGGABLE`).expect(200, category);
    });

    it('returns 404 term-not-found for an unknown id or slug', async () => {
      for (const path of [`${BASE}/999999`, `${BASE}/by-slug/no-such-category`]) {
        const response = await http().get(path);
        expect(response.body).toEqual({ code: 'term-not-found', message: 'The requested term does not exist.', data: { status: 404 } });
      }
    });

    it.each(['abc', '12abc', '-1'])('returns 404 rest_no_route for the id %p', async (id) => {
      expectApiError(await http().get(`${BASE}/${id}`), 404, 'rest_no_route');
      expectApiError(await http().delete(`${BASE}/${id}`).set('Authorization', editor.authorization), 404, 'rest_no_route');
    });

    it('returns 404 rest_no_route for by-slug without a slug', async () => {
      expectApiError(await http().get(`${BASE}/by-slug/`), 404, 'rest_no_route');
    });
  });

  describe('update', () => {
    it.each(['post', 'put', 'patch'] as const)('updates with %s, keeping fields left out', async (method) => {
      const category = await createCategory({ name: `Before ${method}`, description: 'Kept' });
      const response = await http()
        [method](`${BASE}/${category.id}`)
        .set('Authorization', editor.authorization)
        .send({ name: `After ${method}` })
        .expect(200);
      expect(response.body).toEqual({ ...category, name: `After ${method}` });
      expect(await categories().findOneByOrFail({ id: category.id })).toMatchObject({ name: `After ${method}`, description: 'Kept' });
    });

    it('clears the description with "" and keeps the rest', async () => {
      const category = await createCategory({ name: 'Clearable', description: 'Gone soon', slug: 'clear-me' });
      const response = await http()
        .patch(`${BASE}/${category.id}`)
        .set('Authorization', editor.authorization)
        .send({ description: '' })
        .expect(200);
      expect(response.body).toMatchObject({ name: 'Clearable', description: '', slug: 'clear-me' });
    });

    it('reads null as clearing the description and the parent', async () => {
      const parent = await createCategory({ name: 'Nullable parent' });
      const category = await createCategory({ name: 'Nullable', description: 'Gone soon', parent: parent.id });
      const response = await http()
        .patch(`${BASE}/${category.id}`)
        .set('Authorization', editor.authorization)
        .send({ description: null, parent: null })
        .expect(200);
      expect(response.body).toMatchObject({ name: 'Nullable', description: '', parent: 0 });
    });

    it('changes the slug, keeping it unique', async () => {
      await createCategory({ name: 'Slug owner', slug: 'taken-slug' });
      const category = await createCategory({ name: 'Slug seeker' });
      const response = await http()
        .put(`${BASE}/${category.id}`)
        .set('Authorization', editor.authorization)
        .send({ slug: 'taken-slug' })
        .expect(200);
      expect(response.body.slug).toBe('taken-slug-2');
      const again = await http()
        .put(`${BASE}/${category.id}`)
        .set('Authorization', editor.authorization)
        .send({ slug: 'taken-slug-2' })
        .expect(200);
      expect(again.body.slug).toBe('taken-slug-2');
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['an empty slug', { slug: '' }, 'slug'],
      ['a parent that is no category', { parent: 999999 }, 'parent'],
      ['a null name', { name: null }, 'name'],
      ['a null slug', { slug: null }, 'slug'],
    ])('returns 400 rest_invalid_param for %s', async (_case, body, field) => {
      const category = await createCategory({ name: `Invalid update ${_case}` });
      const response = await http().put(`${BASE}/${category.id}`).set('Authorization', editor.authorization).send(body);
      expectApiError(response, 400, 'rest_invalid_param', { [field]: expect.any(String) });
    });

    it('returns 400 term_exists when renaming to a sibling name', async () => {
      const first = await createCategory({ name: 'Sibling one' });
      const second = await createCategory({ name: 'Sibling two' });
      const response = await http().put(`${BASE}/${second.id}`).set('Authorization', editor.authorization).send({ name: 'SIBLING ONE' });
      expectApiError(response, 400, 'term_exists');
      expect(response.body.data.term_id).toBe(first.id);
      await http().put(`${BASE}/${second.id}`).set('Authorization', editor.authorization).send({ name: 'sibling TWO' }).expect(200);
    });

    it('returns 400 term_exists when moving under a parent that has a child of the same name', async () => {
      const parent = await createCategory({ name: 'Mover parent' });
      const child = await createCategory({ name: 'Mover', parent: parent.id });
      const topLevel = await createCategory({ name: 'mover' });
      const response = await http().patch(`${BASE}/${topLevel.id}`).set('Authorization', editor.authorization).send({ parent: parent.id });
      expectApiError(response, 400, 'term_exists');
      expect(response.body.data.term_id).toBe(child.id);
    });

    it('refuses the category itself or a descendant as parent, and moves it elsewhere', async () => {
      const root = await createCategory({ name: 'Tree root' });
      const branch = await createCategory({ name: 'Tree branch', parent: root.id });
      const leaf = await createCategory({ name: 'Tree leaf', parent: branch.id });
      for (const parent of [root.id, branch.id, leaf.id]) {
        const response = await http().patch(`${BASE}/${root.id}`).set('Authorization', editor.authorization).send({ parent });
        expectApiError(response, 400, 'rest_invalid_param', { parent: expect.any(String) });
      }
      const moved = await http()
        .patch(`${BASE}/${leaf.id}`)
        .set('Authorization', editor.authorization)
        .send({ parent: root.id })
        .expect(200);
      expect(moved.body).toMatchObject({ parent: root.id, urls: { up: root.urls.self } });
      const topLevel = await http().patch(`${BASE}/${leaf.id}`).set('Authorization', editor.authorization).send({ parent: 0 }).expect(200);
      expect(topLevel.body.parent).toBe(0);
      expect(topLevel.body.urls.up).toBeUndefined();
    });

    it('answers with the current count', async () => {
      const category = await createCategory({ name: 'Counted update' });
      await linkCategories(testApp, await insertEvent(testApp.dataSource, { status: 'publish' }), [category.id]);
      await linkCategories(testApp, await insertEvent(testApp.dataSource, { status: 'pending' }), [category.id]);
      const response = await http()
        .patch(`${BASE}/${category.id}`)
        .set('Authorization', editor.authorization)
        .send({ description: 'x' })
        .expect(200);
      expect(response.body.count).toBe(1);
    });

    it('returns 404 term-not-found for an unknown id, after validating the body', async () => {
      expectApiError(
        await http().put(`${BASE}/999999`).set('Authorization', editor.authorization).send({ name: 'Ghost' }),
        404,
        'term-not-found',
      );
      expectApiError(
        await http().put(`${BASE}/999999`).set('Authorization', editor.authorization).send({ name: '' }),
        400,
        'rest_invalid_param',
      );
      expectApiError(
        await http().put(`${BASE}/999999`).set('Authorization', editor.authorization).send({ parent: 999998 }),
        400,
        'rest_invalid_param',
        {
          parent: expect.any(String),
        },
      );
    });

    it('returns 404 rest_no_route for a non-digit id before validating the body', async () => {
      expectApiError(await http().put(`${BASE}/abc`).set('Authorization', editor.authorization).send({ name: '' }), 404, 'rest_no_route');
    });
  });

  describe('delete', () => {
    it('deletes for good and answers the category as it was', async () => {
      const category = await createCategory({ name: 'Doomed', description: 'Bye' });
      await linkCategories(testApp, await insertEvent(testApp.dataSource, { status: 'publish' }), [category.id]);
      const response = await http().delete(`${BASE}/${category.id}`).set('Authorization', editor.authorization).expect(200);
      expect(Object.keys(response.body)).toEqual(RECORDED_CATEGORY_KEYS);
      expect(response.body).toEqual({ ...category, count: 1 });
      expect(await categories().findOneBy({ id: category.id })).toBeNull();
      expectApiError(await http().get(`${BASE}/${category.id}`), 404, 'term-not-found');
      expectApiError(await http().delete(`${BASE}/${category.id}`).set('Authorization', editor.authorization), 404, 'term-not-found');
    });

    it("hands the children to the category's own parent", async () => {
      const grandparent = await createCategory({ name: 'Grandparent' });
      const parent = await createCategory({ name: 'Parent', parent: grandparent.id });
      const first = await createCategory({ name: 'First child', parent: parent.id });
      const second = await createCategory({ name: 'Second child', parent: parent.id });
      await http().delete(`${BASE}/${parent.id}`).set('Authorization', editor.authorization).expect(200);
      for (const child of [first, second]) {
        expect((await categories().findOneByOrFail({ id: child.id })).parentId).toBe(grandparent.id);
      }
      await http().delete(`${BASE}/${grandparent.id}`).set('Authorization', editor.authorization).expect(200);
      const orphan = await http().get(`${BASE}/${first.id}`).expect(200);
      expect(orphan.body.parent).toBe(0);
    });

    it('removes the links to events and keeps the events', async () => {
      const category = await createCategory({ name: 'Linked' });
      const other = await createCategory({ name: 'Linked other' });
      const event = await insertEvent(testApp.dataSource, { status: 'publish' });
      await linkCategories(testApp, event, [category.id, other.id]);
      await http().delete(`${BASE}/${category.id}`).set('Authorization', editor.authorization).expect(200);
      const links = await testApp.dataSource.getRepository(EventCategoryLink).findBy({ eventId: event.id });
      expect(links.map((link) => link.categoryId)).toEqual([other.id]);
      expect(await testApp.dataSource.getRepository(Event).findOneBy({ id: event.id })).not.toBeNull();
    });
  });

  describe('by slug', () => {
    it.each(['post', 'put', 'patch'] as const)('updates by slug with %s', async (method) => {
      const category = await createCategory({ name: `By slug ${method}` });
      const response = await http()
        [method](`${BASE}/by-slug/${category.slug}`)
        .set('Authorization', editor.authorization)
        .send({ description: 'Via slug' })
        .expect(200);
      expect(response.body).toEqual({ ...category, description: 'Via slug' });
    });

    it('deletes by slug', async () => {
      const category = await createCategory({ name: 'Delete by slug' });
      await http().delete(`${BASE}/by-slug/delete-by-slug`).set('Authorization', editor.authorization).expect(200, category);
      expect(await categories().findOneBy({ id: category.id })).toBeNull();
    });

    it('returns 404 term-not-found for an unknown slug on every method', async () => {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        const response = await http()
          [method](`${BASE}/by-slug/no-such-slug`)
          .set('Authorization', editor.authorization)
          .send({ description: 'x' });
        expectApiError(response, 404, 'term-not-found');
      }
    });

    it('needs manage_terms', async () => {
      const category = await createCategory({ name: 'Slug guarded' });
      expectApiError(await http().patch(`${BASE}/by-slug/${category.slug}`).send({ description: 'x' }), 401, 'rest_forbidden');
      expectApiError(
        await http().delete(`${BASE}/by-slug/${category.slug}`).set('Authorization', author.authorization),
        403,
        'rest_forbidden',
      );
    });
  });

  describe('permissions', () => {
    const denied = () =>
      [
        ['an anonymous caller', undefined, 401],
        ['a subscriber', subscriber, 403],
        ['a contributor', contributor, 403],
        ['an author', author, 403],
      ] as const;

    it('refuses create, update and delete to anyone below editor', async () => {
      const category = await createCategory({ name: 'Guarded', description: 'Untouched' });
      for (const [who, user, status] of denied()) {
        const authorize = (test: request.Test) => (user ? test.set('Authorization', user.authorization) : test);
        const attempts = [
          authorize(http().post(BASE)).send({ name: `Created by ${who}` }),
          authorize(http().put(`${BASE}/${category.id}`)).send({ description: 'Changed' }),
          authorize(http().patch(`${BASE}/${category.id}`)).send({ description: 'Changed' }),
          authorize(http().post(`${BASE}/${category.id}`)).send({ description: 'Changed' }),
          authorize(http().delete(`${BASE}/${category.id}`)),
        ];
        for (const attempt of attempts) {
          const response = await attempt;
          expect({ who, status: response.status, code: response.body.code }).toEqual({ who, status, code: 'rest_forbidden' });
        }
      }
      expect(await categories().findOneByOrFail({ id: category.id })).toMatchObject({ name: 'Guarded', description: 'Untouched' });
      expect(await categories().countBy({ name: 'Created by a subscriber' })).toBe(0);
    });

    it.each([
      ['an editor', () => editor],
      ['an administrator', () => administrator],
    ])('lets %s create, update and delete', async (_who, user) => {
      const created = await createCategory({ name: `Managed by ${user().login}` }, user());
      await http().put(`${BASE}/${created.id}`).set('Authorization', user().authorization).send({ description: 'Changed' }).expect(200);
      await http().delete(`${BASE}/${created.id}`).set('Authorization', user().authorization).expect(200);
    });

    it('lets anyone read', async () => {
      const category = await createCategory({ name: 'Public' });
      await http().get(`${BASE}/${category.id}`).expect(200);
      await http().get(`${BASE}/${category.id}`).set('Authorization', subscriber.authorization).expect(200);
      await http().get(BASE).expect(200);
    });
  });

  describe('service used by events', () => {
    const service = () => testApp.app.get(CategoriesService);

    it('recounts the stored published-event counts of the ids from the links, and leaves other terms alone', async () => {
      const counted = await createCategory({ name: 'Service counted' });
      const empty = await createCategory({ name: 'Service empty' });
      const untouched = await createCategory({ name: 'Service untouched' });
      await linkCategories(testApp, await insertEvent(testApp.dataSource, { status: 'publish' }), [counted.id]);
      await linkCategories(testApp, await insertEvent(testApp.dataSource, { status: 'publish' }), [counted.id]);
      await linkCategories(testApp, await insertEvent(testApp.dataSource, { status: 'draft' }), [counted.id, empty.id]);
      await testApp.dataSource.query('UPDATE event_categories SET published_event_count = 99');
      await service().recountPublishedEvents([counted.id, empty.id, counted.id]);
      await service().recountPublishedEvents([]);
      const countOf = async (id: number) => (await http().get(`${BASE}/${id}`).expect(200)).body.count;
      expect([await countOf(counted.id), await countOf(empty.id), await countOf(untouched.id)]).toEqual([2, 0, 99]);
      await service().recountPublishedEvents([untouched.id]);
    });

    it('adjusts stored counts by the net change of one event write, in the caller’s transaction', async () => {
      const gained = await createCategory({ name: 'Service gained' });
      const moved = await createCategory({ name: 'Service moved' });
      await testApp.app.get(TransactionHost).run(() => service().adjustPublishedEvents([gained.id, gained.id, moved.id], [moved.id]));
      await testApp.app
        .get(TransactionHost)
        .run(async () => {
          await service().adjustPublishedEvents([moved.id], []);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      const countOf = async (id: number) => (await http().get(`${BASE}/${id}`).expect(200)).body.count;
      expect([await countOf(gained.id), await countOf(moved.id)]).toEqual([2, 0]);
    });

    it('resolves ids and names, reusing names case-insensitively and creating the others in the transaction', async () => {
      const existing = await createCategory({ name: 'Resolved existing' });
      const child = await createCategory({ name: 'Resolved child', parent: existing.id });
      const resolved = await testApp.app
        .get(TransactionHost)
        .run(() => service().resolveForEvent([existing.id, String(child.id), 'RESOLVED EXISTING', 'Brand new', ' brand NEW ', ''], EDITOR));
      expect(resolved.map((category) => category.id).slice(0, 2)).toEqual([existing.id, child.id]);
      expect(resolved).toHaveLength(3);
      expect(resolved[2]).toMatchObject({ name: 'Brand new', slug: 'brand-new', parentId: null });
      expect(await categories().countBy({ name: 'Brand new' })).toBe(1);
    });

    it('rejects unknown ids naming categories, and creates nothing then', async () => {
      await expect(
        testApp.app.get(TransactionHost).run(() => service().resolveForEvent(['Never stored', 999999], EDITOR)),
      ).rejects.toMatchObject({ code: 'rest_invalid_param', extraData: { params: { categories: expect.stringContaining('999999') } } });
      expect(await categories().countBy({ name: 'Never stored' })).toBe(0);
    });
  });

  describe('documentation', () => {
    it('declares every category route in the events namespace', async () => {
      const doc = await http().get('/cal/events/v1/doc').expect(200);
      expect(Object.keys(doc.body.paths['/categories'])).toEqual(['get', 'post']);
      expect(Object.keys(doc.body.paths['/categories/{id}']).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
      expect(Object.keys(doc.body.paths['/categories/by-slug/{slug}']).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
      const create = doc.body.paths['/categories'].post;
      expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '429']);
      expect(create.security).toEqual([{ basic: [] }, { bearer: ['events:write'] }]);
      const index = await http().get('/cal/events/v1').expect(200);
      expect(index.body.routes['/cal/events/v1/categories/(?P<id>\\d+)'].methods.sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
    });
  });

  describe('robustness', () => {
    it('never answers a 500 to odd list parameters or bodies', async () => {
      const odd = fc.oneof(fc.string(), fc.constantFrom('', '-1', '0', '1e9', '99999999999999999999', '[1,2]', '%', 'a,b', 'null'));
      const parameter = fc.constantFrom(
        'page',
        'per_page',
        'search',
        'include',
        'exclude',
        'order',
        'orderby',
        'hide_empty',
        'post',
        'event',
        'slug',
        'parent',
      );
      await fc.assert(
        fc.asyncProperty(parameter, odd, async (name, value) => {
          const response = await http()
            .get(BASE)
            .query({ [name]: value });
          expect(response.status).toBeLessThan(500);
        }),
        { numRuns: 60 },
      );
      const field = fc.constantFrom('name', 'slug', 'description', 'parent');
      const jsonValue = fc.oneof(
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 2 }),
        fc.object({ maxDepth: 1 }),
      );
      await fc.assert(
        fc.asyncProperty(field, jsonValue, async (name, value) => {
          const response = await http()
            .post(BASE)
            .set('Authorization', editor.authorization)
            .send({ name: 'Fuzz', [name]: value });
          expect(response.status).toBeLessThan(500);
          if (response.status === 201) await categories().delete(response.body.id);
        }),
        { numRuns: 60 },
      );
    });
  });
});
