import fc from 'fast-check';
import request from 'supertest';
import { CLOCK, Clock } from '../src/common/clock';
import { EventOrganizerLink } from '../src/events/event-links.entity';
import { Organizer } from '../src/organizers/organizer.entity';
import { OrganizersService } from '../src/organizers/organizers.service';
import { clearLinkedPosts, insertEvent, linkOrganizer } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

process.env.SITE_TIMEZONE = 'Europe/Paris';

const ORGANIZERS = '/cal/events/v1/organizers';

/** The body of the recorded organizer create (04-organizer-create.json). */
const RECORDED_ORGANIZER = {
  organizer: 'Ref Organizer',
  email: 'org@example.com',
  phone: '555-0101',
  website: 'http://example.org',
};

/** Keys of the recorded single GET of that organizer (21-organizer-single.json), in order. */
const RECORDED_SINGLE_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'organizer',
  'slug',
  'phone',
  'website',
  'email',
  'json_ld',
  'global_id',
  'global_id_lineage',
];

/** The recorded JSON-LD of that organizer, with the email in plain text rather than as HTML entities. */
const RECORDED_JSON_LD = {
  '@type': 'Person',
  name: 'Ref Organizer',
  description: '',
  url: 'http://example.org',
  telephone: '555-0101',
  email: 'org@example.com',
  sameAs: 'http://example.org',
};

describe('Organizers (e2e)', () => {
  let testApp: TestApp;
  const now = new Date('2030-06-01T12:00:00Z');
  const clock: Clock = { now: () => now };
  let editor: TestUser;
  let author: TestUser;
  let contributor: TestUser;
  let otherContributor: TestUser;
  let subscriber: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    editor = await createUser(testApp, 'editor');
    author = await createUser(testApp, 'author');
    contributor = await createUser(testApp, 'contributor');
    otherContributor = await createUser(testApp, 'contributor');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    await testApp.close();
  });

  beforeEach(async () => {
    await clearLinkedPosts(testApp.dataSource);
  });

  const http = () => request(testApp.server);
  const organizers = () => testApp.dataSource.getRepository(Organizer);

  async function createOrganizer(user: TestUser, body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await http().post(ORGANIZERS).set('Authorization', user.authorization).send(body);
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  describe('create', () => {
    it('creates an organizer with 201, Location and the recorded shape', async () => {
      const response = await http().post(ORGANIZERS).set('Authorization', editor.authorization).send(RECORDED_ORGANIZER).expect(201);
      const id = response.body.id;
      expect(response.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/cal/events/v1/organizers/${id}$`));
      expect(Object.keys(response.body)).toEqual(RECORDED_SINGLE_KEYS.filter((key) => key !== 'json_ld'));
      expect(response.body).toMatchObject({
        ...RECORDED_ORGANIZER,
        author: String(editor.id),
        status: 'publish',
        slug: 'ref-organizer',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/organizer\/ref-organizer\/$/),
        global_id: `127.0.0.1?id=${id}`,
        global_id_lineage: [`127.0.0.1?id=${id}`],
      });
      expect(await organizers().findOneByOrFail({ id })).toMatchObject({
        title: 'Ref Organizer',
        email: 'org@example.com',
        authorId: editor.id,
      });
    });

    it('publishes by default for publishers, saves drafts for contributors and scales their publish back to pending', async () => {
      expect((await createOrganizer(author, { organizer: 'Author Org' })).status).toBe('publish');
      expect((await createOrganizer(contributor, { organizer: 'Contributor Org' })).status).toBe('draft');
      expect((await createOrganizer(contributor, { organizer: 'Eager Org', status: 'publish' })).status).toBe('pending');
    });

    it('returns 400 rest_missing_callback_param when the name is missing', async () => {
      const response = await http()
        .post(ORGANIZERS)
        .set('Authorization', editor.authorization)
        .send({ email: 'a@example.org' })
        .expect(400);
      expect(response.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): organizer',
        data: { status: 400, params: ['organizer'] },
      });
    });

    it.each([
      ['an empty name', { organizer: '' }, 'organizer'],
      ['an email that is not one', { email: 'not-an-email' }, 'email'],
      ['a website that is not a URL', { website: 'example' }, 'website'],
      ['a phone that is not text', { phone: { number: 1 } }, 'phone'],
      ['an unknown status', { status: 'archived' }, 'status'],
      ['a date that does not parse', { date: '31/12/2026' }, 'date'],
      ['an image that is not a URL', { image: 'ftp://example.org/a.png' }, 'image'],
      ['an author that is not a number', { author: 'me' }, 'author'],
      ['an author that is no user', { author: 999999 }, 'author'],
    ])('returns 400 rest_invalid_param for %s', async (_case, fields, field) => {
      const response = await http()
        .post(ORGANIZERS)
        .set('Authorization', editor.authorization)
        .send({ organizer: 'Valid Org', ...fields })
        .expect(400);
      expect(response.body.code).toBe('rest_invalid_param');
      expect(Object.keys(response.body.data.params)).toEqual([field]);
    });

    it('accepts empty email and website', async () => {
      const organizer = await createOrganizer(editor, { organizer: 'Quiet Org', email: '', website: '' });
      expect(organizer).not.toHaveProperty('email');
      expect(organizer).not.toHaveProperty('website');
    });

    it('answers anonymous callers with 401 and subscribers with 403', async () => {
      expect((await http().post(ORGANIZERS).send({}).expect(401)).body.code).toBe('rest_forbidden');
      expect(
        (await http().post(ORGANIZERS).set('Authorization', subscriber.authorization).send({ organizer: 'X' }).expect(403)).body.code,
      ).toBe('rest_forbidden');
    });

    it('refuses a contributor naming another author with 403 and lets an editor do it', async () => {
      await http()
        .post(ORGANIZERS)
        .set('Authorization', contributor.authorization)
        .send({ organizer: 'Borrowed', author: editor.id })
        .expect(403);
      expect((await createOrganizer(editor, { organizer: 'Assigned', author: author.id })).author).toBe(String(author.id));
    });

    it('reads a form-encoded body', async () => {
      const response = await http()
        .post(ORGANIZERS)
        .set('Authorization', editor.authorization)
        .type('form')
        .send('organizer=Form+Org&email=form%40example.org&status=draft&date_utc=2026-03-01+08:00:00')
        .expect(201);
      expect(response.body).toMatchObject({
        organizer: 'Form Org',
        email: 'form@example.org',
        status: 'draft',
        date_utc: '2026-03-01 08:00:00',
        date: '2026-03-01 09:00:00',
      });
    });

    it('ignores read-only fields and makes slugs unique', async () => {
      const first = await createOrganizer(editor, { organizer: 'Same Name', phone: '1', id: 777, global_id: 'x' });
      const second = await createOrganizer(editor, { organizer: 'Same Name', phone: '2' });
      expect(first.id).not.toBe(777);
      expect([first.slug, second.slug]).toEqual(['same-name', 'same-name-2']);
    });
  });

  describe('duplicate avoidance', () => {
    it('returns the existing organizer, with 201, when every field sent matches case-insensitively', async () => {
      const original = await createOrganizer(editor, RECORDED_ORGANIZER);
      const response = await http()
        .post(ORGANIZERS)
        .set('Authorization', author.authorization)
        .send({ organizer: 'ref organizer', email: 'ORG@example.com' })
        .expect(201);
      expect(response.body.id).toBe(original.id);
      expect(await organizers().count()).toBe(1);
    });

    it('creates a new organizer when a field differs or the match is trashed', async () => {
      const original = await createOrganizer(editor, RECORDED_ORGANIZER);
      expect((await createOrganizer(editor, { ...RECORDED_ORGANIZER, phone: '555-0199' })).id).not.toBe(original.id);
      await http().delete(`${ORGANIZERS}/${original.id}`).set('Authorization', editor.authorization).expect(200);
      const recreated = await createOrganizer(editor, RECORDED_ORGANIZER);
      expect(recreated.id).not.toBe(original.id);
    });
  });

  describe('single GET', () => {
    it('answers with the recorded key order and JSON-LD (plain email)', async () => {
      const created = await createOrganizer(editor, RECORDED_ORGANIZER);
      const response = await http().get(`${ORGANIZERS}/${created.id}`).expect(200);
      expect(Object.keys(response.body)).toEqual(RECORDED_SINGLE_KEYS);
      expect(response.body.json_ld).toEqual(RECORDED_JSON_LD);
    });

    it('shows description, excerpt and image in their places, and a plain-text JSON-LD description', async () => {
      const created = await createOrganizer(editor, {
        ...RECORDED_ORGANIZER,
        description: 'Runs <b>things</b>',
        excerpt: 'Short',
        image: 'https://img.example.org/logo.png',
      });
      const response = await http().get(`${ORGANIZERS}/by-slug/ref-organizer`).expect(200);
      expect(response.body.id).toBe(created.id);
      expect(Object.keys(response.body).slice(8, 13)).toEqual(['organizer', 'description', 'excerpt', 'slug', 'image']);
      expect(response.body).toMatchObject({ description: '<p>Runs <b>things</b></p>', excerpt: '<p>Short</p>' });
      expect(response.body.json_ld).toMatchObject({ description: 'Short', image: 'https://img.example.org/logo.png' });
    });

    it('returns 404 organizer-not-found for an unknown id and slug', async () => {
      const byId = await http().get(`${ORGANIZERS}/987654`).expect(404);
      expect(byId.body).toEqual({
        code: 'organizer-not-found',
        message: 'The organizer with ID 987654 does not exist.',
        data: { status: 404 },
      });
      expect((await http().get(`${ORGANIZERS}/by-slug/nobody`).expect(404)).body.code).toBe('organizer-not-found');
    });

    it('hides a draft behind 403 organizer-not-accessible but shows it to its author and editors', async () => {
      const draft = await createOrganizer(contributor, { organizer: 'Draft Org' });
      const anonymous = await http().get(`${ORGANIZERS}/${draft.id}`).expect(403);
      expect(anonymous.body).toEqual({
        code: 'organizer-not-accessible',
        message: 'The requested organizer is not accessible',
        data: { status: 403 },
      });
      await http().get(`${ORGANIZERS}/${draft.id}`).set('Authorization', otherContributor.authorization).expect(403);
      await http().get(`${ORGANIZERS}/${draft.id}`).set('Authorization', contributor.authorization).expect(200);
      await http().get(`${ORGANIZERS}/by-slug/draft-org`).set('Authorization', editor.authorization).expect(200);
    });
  });

  describe('update', () => {
    it.each(['post', 'put', 'patch'] as const)('updates with %s, keeping fields left out and clearing those sent as ""', async (method) => {
      const created = await createOrganizer(editor, RECORDED_ORGANIZER);
      const response = await http()
        [method](`${ORGANIZERS}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ phone: '', email: 'new@example.org' })
        .expect(200);
      expect(response.body).toMatchObject({ organizer: 'Ref Organizer', website: 'http://example.org', email: 'new@example.org' });
      expect(response.body).not.toHaveProperty('phone');
      expect(await organizers().findOneByOrFail({ id: created.id })).toMatchObject({ phone: null, email: 'new@example.org' });
    });

    it('updates by slug and answers 404 for unknown ids and slugs', async () => {
      const created = await createOrganizer(editor, RECORDED_ORGANIZER);
      const response = await http()
        .put(`${ORGANIZERS}/by-slug/ref-organizer`)
        .set('Authorization', editor.authorization)
        .send({ phone: '1' })
        .expect(200);
      expect(response.body).toMatchObject({ id: created.id, phone: '1' });
      expect(
        (await http().patch(`${ORGANIZERS}/987654`).set('Authorization', editor.authorization).send({ phone: '1' }).expect(404)).body.code,
      ).toBe('organizer-not-found');
      expect(
        (await http().post(`${ORGANIZERS}/by-slug/nobody`).set('Authorization', editor.authorization).send({ phone: '1' }).expect(404)).body
          .code,
      ).toBe('organizer-not-found');
    });

    it('refuses to clear the name and validates before looking up', async () => {
      const created = await createOrganizer(editor, RECORDED_ORGANIZER);
      await http().patch(`${ORGANIZERS}/${created.id}`).set('Authorization', editor.authorization).send({ organizer: '' }).expect(400);
      await http().patch(`${ORGANIZERS}/987654`).set('Authorization', editor.authorization).send({ email: 'bad' }).expect(400);
    });

    it('checks each role: anonymous 401, subscriber 403, contributor own draft only, editor anything', async () => {
      const own = await createOrganizer(contributor, { organizer: 'Own Draft' });
      const others = await createOrganizer(otherContributor, { organizer: 'Their Draft' });
      await http().patch(`${ORGANIZERS}/${own.id}`).send({ phone: '1' }).expect(401);
      await http().patch(`${ORGANIZERS}/${own.id}`).set('Authorization', subscriber.authorization).send({ phone: '1' }).expect(403);
      await http().patch(`${ORGANIZERS}/${own.id}`).set('Authorization', contributor.authorization).send({ phone: '1' }).expect(200);
      await http().patch(`${ORGANIZERS}/${others.id}`).set('Authorization', contributor.authorization).send({ phone: '1' }).expect(403);
      await http().patch(`${ORGANIZERS}/${own.id}`).set('Authorization', editor.authorization).send({ status: 'publish' }).expect(200);
      await http().patch(`${ORGANIZERS}/${own.id}`).set('Authorization', contributor.authorization).send({ phone: '2' }).expect(403);
      await http().patch(`${ORGANIZERS}/${others.id}`).set('Authorization', editor.authorization).send({ phone: '3' }).expect(200);
    });
  });

  describe('delete', () => {
    it('trashes, then answers 410 organizer-is-in-trash, and deletes for good with force=true', async () => {
      const created = await createOrganizer(editor, RECORDED_ORGANIZER);
      const event = await insertEvent(testApp.dataSource, { endUtc: new Date('2031-01-01T00:00:00Z') });
      await linkOrganizer(testApp.dataSource, event.id, created.id);
      const trashed = await http().delete(`${ORGANIZERS}/${created.id}`).set('Authorization', editor.authorization).expect(200);
      expect(trashed.body).toMatchObject({ id: created.id, status: 'trash' });
      const again = await http().delete(`${ORGANIZERS}/${created.id}`).set('Authorization', editor.authorization).expect(410);
      expect(again.body).toEqual({ code: 'organizer-is-in-trash', message: 'The organizer is already trashed', data: { status: 410 } });
      const forced = await http().delete(`${ORGANIZERS}/${created.id}?force=1`).set('Authorization', editor.authorization).expect(200);
      expect(forced.body).toMatchObject({ id: created.id, organizer: 'Ref Organizer' });
      expect(await organizers().findOneBy({ id: created.id })).toBeNull();
      expect(await testApp.dataSource.getRepository(EventOrganizerLink).countBy({ organizerId: created.id })).toBe(0);
    });

    it('deletes by slug and answers 404 for unknown ids and slugs', async () => {
      await createOrganizer(editor, RECORDED_ORGANIZER);
      expect(
        (await http().delete(`${ORGANIZERS}/by-slug/ref-organizer`).set('Authorization', editor.authorization).expect(200)).body.status,
      ).toBe('trash');
      expect((await http().delete(`${ORGANIZERS}/by-slug/nobody`).set('Authorization', editor.authorization).expect(404)).body.code).toBe(
        'organizer-not-found',
      );
      expect((await http().delete(`${ORGANIZERS}/987654`).set('Authorization', editor.authorization).expect(404)).body.code).toBe(
        'organizer-not-found',
      );
    });

    it('checks each role: anonymous 401, subscriber 403, contributor own draft only', async () => {
      const others = await createOrganizer(otherContributor, { organizer: 'Their Draft' });
      await http().delete(`${ORGANIZERS}/${others.id}`).expect(401);
      await http().delete(`${ORGANIZERS}/${others.id}`).set('Authorization', subscriber.authorization).expect(403);
      await http().delete(`${ORGANIZERS}/${others.id}`).set('Authorization', contributor.authorization).expect(403);
      const own = await createOrganizer(contributor, { organizer: 'Own Draft' });
      await http().delete(`${ORGANIZERS}/${own.id}`).set('Authorization', contributor.authorization).expect(200);
      const published = await createOrganizer(editor, { organizer: 'Published', author: contributor.id });
      await http().delete(`${ORGANIZERS}/${published.id}`).set('Authorization', contributor.authorization).expect(403);
    });
  });

  describe('list', () => {
    it('answers an empty list with 200, zero totals and no page links', async () => {
      const response = await http().get(ORGANIZERS).expect(200);
      expect(Object.keys(response.body)).toEqual(['organizers', 'rest_url', 'total', 'total_pages']);
      expect(response.body).toMatchObject({ organizers: [], total: 0, total_pages: 0 });
      expect(response.body.rest_url).toMatch(/\/cal\/events\/v1\/organizers\/\?page=1&per_page=25$/);
      expect(response.headers['x-tec-total']).toBe('0');
      expect(response.headers['x-tec-totalpages']).toBe('0');
    });

    it('pages newest first with links and headers, and answers 404 organizer-archive-page-not-found past the end', async () => {
      for (const day of [1, 2, 3]) await createOrganizer(editor, { organizer: `Org ${day}`, date_utc: `2026-01-0${day} 10:00:00` });
      const first = await http().get(ORGANIZERS).query({ per_page: 2 }).expect(200);
      expect(first.body.organizers.map((organizer: { organizer: string }) => organizer.organizer)).toEqual(['Org 3', 'Org 2']);
      expect(Object.keys(first.body.organizers[0])).not.toContain('json_ld');
      expect(first.body.next_rest_url).toMatch(/\/organizers\/\?page=2&per_page=2$/);
      expect(first.headers['x-tec-total']).toBe('3');
      expect(first.headers['x-tec-totalpages']).toBe('2');
      const last = await http().get(ORGANIZERS).query({ per_page: 2, page: 2 }).expect(200);
      expect(Object.keys(last.body)).toEqual(['organizers', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      const past = await http().get(ORGANIZERS).query({ per_page: 2, page: 3 }).expect(404);
      expect(past.body).toMatchObject({ code: 'organizer-archive-page-not-found', data: { status: 404 } });
    });

    it('clamps per_page to 100 and refuses per_page=0 with 400', async () => {
      expect((await http().get(ORGANIZERS).query({ per_page: 101 }).expect(200)).body.rest_url).toMatch(/per_page=100$/);
      const zero = await http().get(ORGANIZERS).query({ per_page: 0 }).expect(400);
      expect(Object.keys(zero.body.data.params)).toEqual(['per_page']);
    });

    it('searches words in title, description, excerpt, phone, email and website', async () => {
      await createOrganizer(editor, { organizer: 'Acme Events', email: 'hello@acme.example' });
      await createOrganizer(editor, { organizer: 'Other', website: 'https://tickets.example/acme' });
      await createOrganizer(editor, { organizer: 'Unrelated', description: 'Nothing here' });
      const found = await http().get(ORGANIZERS).query({ search: 'acme' }).expect(200);
      expect(found.body.total).toBe(2);
      const both = await http().get(ORGANIZERS).query({ search: 'hello acme' }).expect(200);
      expect(both.body.organizers.map((organizer: { organizer: string }) => organizer.organizer)).toEqual(['Acme Events']);
      expect((await http().get(ORGANIZERS).query({ search: 'missing' }).expect(200)).body.total).toBe(0);
    });

    it('filters by status: published only for anonymous callers, drafts for editors', async () => {
      await createOrganizer(editor, { organizer: 'Public' });
      await createOrganizer(editor, { organizer: 'Hidden', status: 'draft' });
      expect((await http().get(ORGANIZERS).expect(200)).body.total).toBe(1);
      await http().get(ORGANIZERS).query({ status: 'draft' }).expect(400);
      const drafts = await http().get(ORGANIZERS).query({ status: 'draft' }).set('Authorization', editor.authorization).expect(200);
      expect(drafts.body.organizers.map((organizer: { organizer: string }) => organizer.organizer)).toEqual(['Hidden']);
    });

    describe('filters on linked events', () => {
      const future = new Date('2031-01-01T00:00:00Z');
      let eventId: number;

      beforeEach(async () => {
        const linked = await createOrganizer(editor, { organizer: 'Linked' });
        const pendingOnly = await createOrganizer(editor, { organizer: 'Pending Only' });
        const pastOnly = await createOrganizer(editor, { organizer: 'Past Only' });
        await createOrganizer(editor, { organizer: 'Unlinked' });
        const published = await insertEvent(testApp.dataSource, { endUtc: future });
        eventId = published.id;
        await linkOrganizer(testApp.dataSource, published.id, linked.id);
        const pending = await insertEvent(testApp.dataSource, { endUtc: future, status: 'pending' });
        await linkOrganizer(testApp.dataSource, pending.id, pendingOnly.id);
        const ended = await insertEvent(testApp.dataSource, { endUtc: new Date('2029-01-01T00:00:00Z') });
        await linkOrganizer(testApp.dataSource, ended.id, pastOnly.id);
      });

      const names = (body: { organizers: Array<{ organizer: string }> }) => body.organizers.map((organizer) => organizer.organizer).sort();

      it('event: the organizers of that event, 400 naming event for an unknown one', async () => {
        expect(names((await http().get(ORGANIZERS).query({ event: eventId }).expect(200)).body)).toEqual(['Linked']);
        const lonely = await insertEvent(testApp.dataSource, { endUtc: future });
        expect((await http().get(ORGANIZERS).query({ event: lonely.id }).expect(200)).body.total).toBe(0);
        const unknown = await http().get(ORGANIZERS).query({ event: 987654 }).expect(400);
        expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { event: expect.any(String) } } });
      });

      it('has_events: true keeps those with a counted event, false the others', async () => {
        expect(names((await http().get(ORGANIZERS).query({ has_events: 'true' }).expect(200)).body)).toEqual(['Linked', 'Past Only']);
        expect(names((await http().get(ORGANIZERS).query({ has_events: 'false' }).expect(200)).body)).toEqual(['Pending Only', 'Unlinked']);
      });

      it('only_with_upcoming: only those with an event that has not ended', async () => {
        expect(names((await http().get(ORGANIZERS).query({ only_with_upcoming: 'true' }).expect(200)).body)).toEqual(['Linked']);
        expect((await http().get(ORGANIZERS).query({ only_with_upcoming: 'false' }).expect(200)).body.total).toBe(4);
        await http().get(ORGANIZERS).query({ only_with_upcoming: 'soon' }).expect(400);
      });
    });
  });

  describe('documentation', () => {
    it('declares every organizer route with its responses in the OpenAPI document and the namespace index', async () => {
      const doc = await http().get('/cal/events/v1/doc').expect(200);
      const responses = (path: string, method: string) => Object.keys(doc.body.paths[path][method].responses).sort();
      expect(responses('/organizers', 'get')).toEqual(['200', '400', '403', '404', '429']);
      expect(responses('/organizers', 'post')).toEqual(['201', '400', '401', '403', '429']);
      for (const path of ['/organizers/{id}', '/organizers/by-slug/{slug}']) {
        expect(responses(path, 'get')).toEqual(['200', '403', '404', '429']);
        for (const method of ['post', 'put', 'patch']) expect(responses(path, method)).toEqual(['200', '400', '401', '403', '404', '429']);
        expect(responses(path, 'delete')).toEqual(['200', '401', '403', '404', '410', '429']);
      }
      const body = doc.body.paths['/organizers'].post.requestBody.content['application/json'].schema;
      expect(body.$ref).toMatch(/Create/);
      const index = await http().get('/cal/events/v1').expect(200);
      expect(Object.keys(index.body.routes)).toEqual(
        expect.arrayContaining([
          '/cal/events/v1/organizers',
          '/cal/events/v1/organizers/(?P<id>\\d+)',
          '/cal/events/v1/organizers/by-slug/(?P<slug>[^/]+)',
        ]),
      );
      const create = index.body.routes['/cal/events/v1/organizers'].endpoints.find((endpoint: { methods: string[] }) =>
        endpoint.methods.includes('POST'),
      );
      expect(create.args.organizer).toMatchObject({ required: true, type: 'string' });
      expect(create.args.description).toMatchObject({ required: false, type: 'string' });
    });
  });

  describe('robustness', () => {
    const odd = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '',
        ' ',
        '-1',
        '0',
        '1e9',
        '99999999999999999999',
        '[1,2]',
        '%',
        '%25',
        'a,b',
        'null',
        'true',
        '2027-02-30',
        '\u{1F600}'.repeat(100),
      ),
    );

    it('never answers a 500 to odd list parameters', async () => {
      const parameter = fc.constantFrom('page', 'per_page', 'search', 'event', 'has_events', 'only_with_upcoming', 'status');
      await fc.assert(
        fc.asyncProperty(parameter, odd, fc.boolean(), async (name, value, signedIn) => {
          const call = http()
            .get(ORGANIZERS)
            .query({ [name]: value });
          const response = await (signedIn ? call.set('Authorization', editor.authorization) : call);
          expect(response.status).toBeLessThan(500);
        }),
        { numRuns: 80 },
      );
    });

    it('never answers a 500 to odd bodies on create and update, or odd slugs', async () => {
      const target = await createOrganizerOrVenue();
      const field = fc.constantFrom(
        'organizer',
        'description',
        'excerpt',
        'slug',
        'status',
        'image',
        'author',
        'date',
        'date_utc',
        'phone',
        'website',
        'email',
      );
      const jsonValue = fc.oneof(
        odd,
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 2 }),
        fc.object({ maxDepth: 1 }),
      );
      await fc.assert(
        fc.asyncProperty(field, jsonValue, async (name, value) => {
          const created = await http()
            .post(ORGANIZERS)
            .set('Authorization', editor.authorization)
            .send({ organizer: 'Fuzz', [name]: value });
          expect(created.status).toBeLessThan(500);
          const updated = await http()
            .patch(`${ORGANIZERS}/${target.id}`)
            .set('Authorization', editor.authorization)
            .send({ [name]: value });
          expect(updated.status).toBeLessThan(500);
        }),
        { numRuns: 80 },
      );
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1 }), async (slug) => {
          const response = await http().get(`${ORGANIZERS}/by-slug/${encodeURIComponent(slug)}`);
          expect(response.status).toBeLessThan(500);
        }),
        { numRuns: 40 },
      );
      for (const body of ['[]', '"text"', 'null', '[{"organizer":"x"}]']) {
        const response = await http()
          .post(ORGANIZERS)
          .set('Authorization', editor.authorization)
          .set('Content-Type', 'application/json')
          .send(body);
        expect(response.status).toBe(400);
      }
      expect((await http().get(`${ORGANIZERS}/by-slug/%E0%A4%A`)).status).toBeLessThan(500);
    });

    async function createOrganizerOrVenue(): Promise<Record<string, any>> {
      return (await http().post(ORGANIZERS).set('Authorization', editor.authorization).send({ organizer: 'Fuzz Target' }).expect(201)).body;
    }
  });

  describe('findOrCreateForEvent (used by the events module)', () => {
    const service = () => testApp.app.get(OrganizersService);
    const asUser = (user: TestUser) => ({ id: user.id, login: user.login, role: user.role });

    it('creates an organizer, or reuses an exact match', async () => {
      const created = await service().findOrCreateForEvent({ organizer: 'Inline Org', email: 'inline@example.org' }, asUser(contributor));
      expect(created).toMatchObject({ title: 'Inline Org', status: 'draft', authorId: contributor.id });
      const again = await service().findOrCreateForEvent({ organizer: 'INLINE org' }, asUser(contributor));
      expect(again.id).toBe(created.id);
    });

    it('names invalid fields as organizer[field]', async () => {
      await expect(service().findOrCreateForEvent({ organizer: 'X', email: 'nope' }, asUser(editor))).rejects.toMatchObject({
        code: 'rest_invalid_param',
        extraData: { params: { 'organizer[email]': expect.any(String) } },
      });
    });
  });
});
