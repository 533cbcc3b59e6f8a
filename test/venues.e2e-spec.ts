import fc from 'fast-check';
import request from 'supertest';
import { CLOCK, Clock } from '../src/common/clock';
import { EventVenueLink } from '../src/events/event-links.entity';
import { VenuesService } from '../src/venues/venues.service';
import { Venue } from '../src/venues/venue.entity';
import { clearLinkedPosts, insertEvent, linkVenue } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { TransactionHost } from '../src/common/database/transaction-host';

// Publication dates show in the site zone (`date`) and in UTC (`date_utc`); a zone other than
// UTC tells them apart.
process.env.SITE_TIMEZONE = 'Europe/Paris';

const VENUES = '/cal/events/v1/venues';

/** The body of the recorded venue create (03-venue-create.json). */
const RECORDED_VENUE = {
  venue: 'Loopback Hall',
  address: '1 Main St',
  city: 'Springfield',
  country: 'United States',
  state: 'IL',
  zip: '62701',
  phone: '555-0100',
  website: 'http://example.com',
};

/** Keys of the recorded single GET of that venue (19-venue-single.json), in order. */
const RECORDED_SINGLE_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'venue',
  'slug',
  'address',
  'city',
  'country',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'json_ld',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
];

/** The recorded JSON-LD of that venue. */
const RECORDED_JSON_LD = {
  '@type': 'Place',
  name: 'Loopback Hall',
  description: '',
  url: '',
  address: {
    '@type': 'PostalAddress',
    streetAddress: '1 Main St',
    addressLocality: 'Springfield',
    addressRegion: 'IL',
    postalCode: '62701',
    addressCountry: 'United States',
  },
  telephone: '555-0100',
  sameAs: 'http://example.com',
};

describe('Venues (e2e)', () => {
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
  const venues = () => testApp.dataSource.getRepository(Venue);

  async function createVenue(user: TestUser, body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await http().post(VENUES).set('Authorization', user.authorization).send(body);
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  describe('create', () => {
    it('creates a venue with 201, Location and the recorded shape', async () => {
      const response = await http().post(VENUES).set('Authorization', editor.authorization).send(RECORDED_VENUE).expect(201);
      const id = response.body.id;
      expect(response.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/cal/events/v1/venues/${id}$`));
      expect(Object.keys(response.body)).toEqual(RECORDED_SINGLE_KEYS.filter((key) => key !== 'json_ld'));
      expect(response.body).toMatchObject({
        ...RECORDED_VENUE,
        author: String(editor.id),
        status: 'publish',
        slug: 'loopback-hall',
        stateprovince: 'IL',
        show_map: true,
        show_map_link: true,
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/venue\/loopback-hall\/$/),
        global_id: `127.0.0.1?id=${id}`,
        global_id_lineage: [`127.0.0.1?id=${id}`],
      });
      const stored = await venues().findOneByOrFail({ id });
      expect(stored).toMatchObject({
        title: 'Loopback Hall',
        city: 'Springfield',
        stateprovince: 'IL',
        authorId: editor.id,
        status: 'publish',
      });
    });

    it('publishes by default for publishers and saves drafts for contributors', async () => {
      expect((await createVenue(author, { venue: 'Author Hall' })).status).toBe('publish');
      expect((await createVenue(contributor, { venue: 'Contributor Hall' })).status).toBe('draft');
    });

    it('scales a contributor asking for publish back to pending', async () => {
      const venue = await createVenue(contributor, { venue: 'Eager Hall', status: 'publish' });
      expect(venue.status).toBe('pending');
    });

    it('keeps the requested status of those who may publish', async () => {
      expect((await createVenue(author, { venue: 'Quiet Hall', status: 'draft' })).status).toBe('draft');
    });

    it('returns 400 rest_missing_callback_param when the name is missing', async () => {
      const response = await http().post(VENUES).set('Authorization', editor.authorization).send({ city: 'Paris' }).expect(400);
      expect(response.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): venue',
        data: { status: 400, params: ['venue'] },
      });
    });

    it.each([
      ['an empty name', { venue: '' }, 'venue'],
      ['a blank name', { venue: '   ' }, 'venue'],
      ['a name that is not text', { venue: ['a', 'b'] }, 'venue'],
      ['a website that is not a URL', { website: 'not a url' }, 'website'],
      ['a latitude above 90', { geo_lat: 90.5 }, 'geo_lat'],
      ['a longitude below -180', { geo_lng: -180.01 }, 'geo_lng'],
      ['a latitude that is not a number', { geo_lat: 'north' }, 'geo_lat'],
      ['a show_map that is not a boolean', { show_map: 'maybe' }, 'show_map'],
      ['an unknown status', { status: 'archived' }, 'status'],
      ['a date that does not parse', { date: 'next tuesday-ish' }, 'date'],
      ['an impossible date_utc', { date_utc: '2027-02-30 10:00:00' }, 'date_utc'],
      ['an image that is not a URL', { image: 'picture.jpg' }, 'image'],
      ['an empty author', { author: '' }, 'author'],
      ['an author that is not a number', { author: 'someone' }, 'author'],
      ['a name longer than the column', { venue: 'x'.repeat(256) }, 'venue'],
    ])('returns 400 rest_invalid_param for %s', async (_case, fields, field) => {
      const response = await http()
        .post(VENUES)
        .set('Authorization', editor.authorization)
        .send({ venue: 'Valid Hall', ...fields })
        .expect(400);
      expect(response.body.code).toBe('rest_invalid_param');
      expect(Object.keys(response.body.data.params)).toEqual([field]);
      expect(response.body.data.status).toBe(400);
    });

    it('returns 400 rest_invalid_param naming author when it is no user', async () => {
      const response = await http()
        .post(VENUES)
        .set('Authorization', editor.authorization)
        .send({ venue: 'Ghost Hall', author: 999999 })
        .expect(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { author: expect.any(String) } } });
    });

    it('lets an editor name another author and refuses a contributor with 403', async () => {
      const byEditor = await createVenue(editor, { venue: 'Assigned Hall', author: author.id });
      expect(byEditor.author).toBe(String(author.id));
      const response = await http()
        .post(VENUES)
        .set('Authorization', contributor.authorization)
        .send({ venue: 'Borrowed Hall', author: editor.id })
        .expect(403);
      expect(response.body.code).toBe('rest_forbidden');
    });

    it('answers an anonymous caller with 401 before validating the body', async () => {
      const response = await http().post(VENUES).send({}).expect(401);
      expect(response.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    });

    it('answers a subscriber with 403 rest_forbidden', async () => {
      const response = await http().post(VENUES).set('Authorization', subscriber.authorization).send({ venue: 'No Hall' }).expect(403);
      expect(response.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    });

    it('makes slugs unique with -2, -3 and takes a requested slug', async () => {
      const first = await createVenue(editor, { venue: 'Twin Hall', city: 'One' });
      const second = await createVenue(editor, { venue: 'Twin Hall', city: 'Two' });
      const third = await createVenue(editor, { venue: 'Twin Hall', city: 'Three' });
      expect([first.slug, second.slug, third.slug]).toEqual(['twin-hall', 'twin-hall-2', 'twin-hall-3']);
      expect((await createVenue(editor, { venue: 'Named Hall', slug: 'Custom Slug!' })).slug).toBe('custom-slug');
    });

    it('reads a form-encoded body with booleans and coordinates as strings', async () => {
      const response = await http()
        .post(VENUES)
        .set('Authorization', editor.authorization)
        .type('form')
        .send('venue=Form+Hall&city=Lyon&show_map=false&show_map_link=true&geo_lat=45.764043&geo_lng=4.835659')
        .expect(201);
      expect(response.body).toMatchObject({
        venue: 'Form Hall',
        city: 'Lyon',
        show_map: false,
        show_map_link: true,
        geo_lat: 45.764043,
        geo_lng: 4.835659,
      });
      expect(await venues().findOneByOrFail({ id: response.body.id })).toMatchObject({
        showMap: false,
        geoLat: 45.764043,
        geoLng: 4.835659,
      });
    });

    it('ignores read-only and computed fields in the body', async () => {
      const venue = await createVenue(editor, {
        venue: 'Plain Hall',
        id: 4242,
        global_id: 'elsewhere?id=1',
        url: 'http://elsewhere/venue/x/',
        modified: '2001-01-01 00:00:00',
      });
      expect(venue.id).not.toBe(4242);
      expect(venue.global_id).toBe(`127.0.0.1?id=${venue.id}`);
      expect(venue.url).toMatch(/\/venue\/plain-hall\/$/);
      expect(venue.modified).not.toBe('2001-01-01 00:00:00');
    });

    it('reads date in the site zone and date_utc in UTC, date winning', async () => {
      const local = await createVenue(editor, { venue: 'Dated Hall', date: '2026-07-01 10:00:00' });
      expect(local).toMatchObject({ date: '2026-07-01 10:00:00', date_utc: '2026-07-01 08:00:00' });
      const utc = await createVenue(editor, { venue: 'UTC Hall', date_utc: '2026-07-01 10:00:00' });
      expect(utc).toMatchObject({ date: '2026-07-01 12:00:00', date_utc: '2026-07-01 10:00:00' });
      const both = await createVenue(editor, { venue: 'Both Hall', date: '2026-01-05 09:00:00', date_utc: '2020-01-01 00:00:00' });
      expect(both.date_utc).toBe('2026-01-05 08:00:00');
    });

    it('dates a venue created without a date with the current time', async () => {
      const venue = await createVenue(editor, { venue: 'Now Hall' });
      expect(venue.date_utc).toBe('2030-06-01 12:00:00');
      expect(venue.date).toBe('2030-06-01 14:00:00');
    });

    it('removes unsafe markup and renders descriptions as paragraphs', async () => {
      const venue = await createVenue(editor, {
        venue: 'Rich Hall',
        description: 'Big room<script>alert(1)</script>\n\nSecond <a href="javascript:alert(1)" onclick="x()">part</a>',
        excerpt: '<p>Already HTML</p>',
      });
      expect(venue.description).toBe('<p>Big room</p>\n<p>Second <a>part</a></p>');
      expect(venue.excerpt).toBe('<p>Already HTML</p>');
    });

    it('keeps an image URL as the image object', async () => {
      const venue = await createVenue(editor, { venue: 'Pictured Hall', image: 'https://img.example.org/hall.JPG' });
      expect(venue.image).toEqual({ url: 'https://img.example.org/hall.JPG', id: 0, extension: 'jpg', width: 0, height: 0, sizes: {} });
    });
  });

  describe('duplicate avoidance', () => {
    it('returns the existing venue, with 201, when every field sent matches case-insensitively', async () => {
      const original = await createVenue(editor, RECORDED_VENUE);
      const response = await http()
        .post(VENUES)
        .set('Authorization', editor.authorization)
        .send({ venue: 'LOOPBACK hall', city: 'springfield', zip: '62701' })
        .expect(201);
      expect(response.body.id).toBe(original.id);
      expect(response.headers.location).toMatch(new RegExp(`/venues/${original.id}$`));
      expect(await venues().count()).toBe(1);
    });

    it('creates a new venue when one field sent differs', async () => {
      const original = await createVenue(editor, RECORDED_VENUE);
      const other = await createVenue(editor, { ...RECORDED_VENUE, city: 'Shelbyville' });
      expect(other.id).not.toBe(original.id);
      expect(other.slug).toBe('loopback-hall-2');
    });

    it('matches an empty field sent against a venue without it', async () => {
      const original = await createVenue(editor, { venue: 'Bare Hall' });
      expect((await createVenue(editor, { venue: 'Bare Hall', city: '' })).id).toBe(original.id);
      expect((await createVenue(editor, { venue: 'Bare Hall', city: 'Somewhere' })).id).not.toBe(original.id);
    });

    it('does not reuse a trashed venue', async () => {
      const original = await createVenue(editor, { venue: 'Gone Hall' });
      await http().delete(`${VENUES}/${original.id}`).set('Authorization', editor.authorization).expect(200);
      expect((await createVenue(editor, { venue: 'Gone Hall' })).id).not.toBe(original.id);
    });

    it('does not hand a contributor a draft it cannot read', async () => {
      const hidden = await createVenue(editor, { venue: 'Secret Hall', status: 'draft' });
      const created = await createVenue(contributor, { venue: 'Secret Hall' });
      expect(created.id).not.toBe(hidden.id);
    });
  });

  describe('single GET', () => {
    it('answers with the recorded key order and JSON-LD', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const response = await http().get(`${VENUES}/${created.id}`).expect(200);
      expect(Object.keys(response.body)).toEqual(RECORDED_SINGLE_KEYS);
      expect(response.body.json_ld).toEqual(RECORDED_JSON_LD);
    });

    it('shows coordinates before json_ld and as GeoCoordinates in it', async () => {
      const created = await createVenue(editor, { ...RECORDED_VENUE, geo_lat: 39.7817, geo_lng: -89.6501 });
      const response = await http().get(`${VENUES}/${created.id}`).expect(200);
      const keys = Object.keys(response.body);
      expect(keys.slice(keys.indexOf('stateprovince'), keys.indexOf('show_map'))).toEqual([
        'stateprovince',
        'geo_lat',
        'geo_lng',
        'json_ld',
      ]);
      expect(response.body).toMatchObject({ geo_lat: 39.7817, geo_lng: -89.6501 });
      expect(response.body.json_ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 39.7817, longitude: -89.6501 });
    });

    it('leaves out empty fields but keeps the map flags', async () => {
      const created = await createVenue(editor, { venue: 'Minimal Hall', show_map: false, show_map_link: false });
      const response = await http().get(`${VENUES}/${created.id}`).expect(200);
      expect(Object.keys(response.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'slug',
        'json_ld',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      expect(response.body).toMatchObject({ show_map: false, show_map_link: false });
      expect(response.body.json_ld).toEqual({
        '@type': 'Place',
        name: 'Minimal Hall',
        description: '',
        url: '',
        address: { '@type': 'PostalAddress' },
        telephone: '',
        sameAs: '',
      });
    });

    it('finds a venue by slug', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const response = await http().get(`${VENUES}/by-slug/loopback-hall`).expect(200);
      expect(response.body.id).toBe(created.id);
      expect(response.body.json_ld).toEqual(RECORDED_JSON_LD);
    });

    it('returns 404 venue-not-found for an unknown id and an unknown slug', async () => {
      const byId = await http().get(`${VENUES}/987654`).expect(404);
      expect(byId.body).toEqual({ code: 'venue-not-found', message: 'The venue with ID 987654 does not exist.', data: { status: 404 } });
      const bySlug = await http().get(`${VENUES}/by-slug/no-such-venue`).expect(404);
      expect(bySlug.body).toMatchObject({ code: 'venue-not-found', data: { status: 404 } });
    });

    it('returns 404 rest_no_route for an id that is not a number and an empty slug', async () => {
      expect((await http().get(`${VENUES}/abc`).expect(404)).body.code).toBe('rest_no_route');
      expect((await http().get(`${VENUES}/by-slug/`).expect(404)).body.code).toBe('rest_no_route');
    });

    it('hides a draft from anonymous callers and other contributors with 403 venue-not-accessible', async () => {
      const draft = await createVenue(contributor, { venue: 'Draft Hall' });
      const anonymous = await http().get(`${VENUES}/${draft.id}`).expect(403);
      expect(anonymous.body).toEqual({
        code: 'venue-not-accessible',
        message: 'The requested venue is not accessible',
        data: { status: 403 },
      });
      await http().get(`${VENUES}/${draft.id}`).set('Authorization', otherContributor.authorization).expect(403);
      await http().get(`${VENUES}/by-slug/draft-hall`).expect(403);
    });

    it('shows a draft to its author and to editors', async () => {
      const draft = await createVenue(contributor, { venue: 'Draft Hall' });
      await http().get(`${VENUES}/${draft.id}`).set('Authorization', contributor.authorization).expect(200);
      const byEditor = await http().get(`${VENUES}/${draft.id}`).set('Authorization', editor.authorization).expect(200);
      expect(byEditor.body.status).toBe('draft');
    });
  });

  describe('update', () => {
    it.each(['post', 'put', 'patch'] as const)('updates with %s, keeping fields left out', async (method) => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const response = await http()
        [method](`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ city: 'Chicago' })
        .expect(200);
      expect(response.body).toMatchObject({ ...RECORDED_VENUE, city: 'Chicago', id: created.id });
      expect(response.body.json_ld).toBeUndefined();
      expect((await venues().findOneByOrFail({ id: created.id })).city).toBe('Chicago');
    });

    it('clears a field sent as "" and then leaves it out of the response', async () => {
      const created = await createVenue(editor, { ...RECORDED_VENUE, description: 'Nice', geo_lat: 10, geo_lng: 20 });
      const response = await http()
        .patch(`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ phone: '', description: '', website: '', geo_lat: '', geo_lng: '' })
        .expect(200);
      for (const key of ['phone', 'description', 'website', 'geo_lat', 'geo_lng']) expect(response.body).not.toHaveProperty(key);
      expect(await venues().findOneByOrFail({ id: created.id })).toMatchObject({
        phone: null,
        description: null,
        website: null,
        geoLat: null,
      });
    });

    it('refuses to clear the name with 400', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const response = await http()
        .put(`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ venue: '' })
        .expect(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { venue: expect.any(String) } } });
    });

    it('follows state with stateprovince unless stateprovince is sent', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const moved = await http()
        .patch(`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ state: 'WI' })
        .expect(200);
      expect(moved.body).toMatchObject({ state: 'WI', stateprovince: 'WI' });
      const explicit = await http()
        .patch(`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ state: 'MN', stateprovince: 'Minnesota' })
        .expect(200);
      expect(explicit.body).toMatchObject({ state: 'MN', stateprovince: 'Minnesota' });
    });

    it('updates by slug with POST, PUT and PATCH', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      for (const method of ['post', 'put', 'patch'] as const) {
        const zip = `6270${['post', 'put', 'patch'].indexOf(method)}`;
        const response = await http()
          [method](`${VENUES}/by-slug/loopback-hall`)
          .set('Authorization', editor.authorization)
          .send({ zip })
          .expect(200);
        expect(response.body).toMatchObject({ id: created.id, zip });
      }
    });

    it('changes the slug when one is sent and rebuilds it from the name for ""', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const renamed = await http()
        .patch(`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ slug: 'the-hall' })
        .expect(200);
      expect(renamed.body.slug).toBe('the-hall');
      const rebuilt = await http()
        .patch(`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ slug: '', venue: 'Other Hall' })
        .expect(200);
      expect(rebuilt.body.slug).toBe('other-hall');
    });

    it('returns 404 venue-not-found for an unknown id or slug', async () => {
      const byId = await http().patch(`${VENUES}/987654`).set('Authorization', editor.authorization).send({ city: 'X' }).expect(404);
      expect(byId.body).toMatchObject({ code: 'venue-not-found', message: 'The venue with ID 987654 does not exist.' });
      const bySlug = await http()
        .put(`${VENUES}/by-slug/nowhere`)
        .set('Authorization', editor.authorization)
        .send({ city: 'X' })
        .expect(404);
      expect(bySlug.body.code).toBe('venue-not-found');
    });

    it('validates before looking the venue up, and looks it up before checking permission', async () => {
      const invalid = await http()
        .patch(`${VENUES}/987654`)
        .set('Authorization', editor.authorization)
        .send({ website: 'nope' })
        .expect(400);
      expect(invalid.body.code).toBe('rest_invalid_param');
      await http().patch(`${VENUES}/987654`).set('Authorization', contributor.authorization).send({ city: 'X' }).expect(404);
    });

    it('answers anonymous callers with 401 and subscribers with 403', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      await http().patch(`${VENUES}/${created.id}`).send({ city: 'X' }).expect(401);
      await http().patch(`${VENUES}/${created.id}`).set('Authorization', subscriber.authorization).send({ city: 'X' }).expect(403);
    });

    it("lets a contributor edit its own draft but not others' venues or its own published one", async () => {
      const own = await createVenue(contributor, { venue: 'Own Draft' });
      const edited = await http()
        .patch(`${VENUES}/${own.id}`)
        .set('Authorization', contributor.authorization)
        .send({ city: 'Nantes' })
        .expect(200);
      expect(edited.body).toMatchObject({ city: 'Nantes', status: 'draft' });

      const others = await createVenue(otherContributor, { venue: 'Their Draft' });
      const forbidden = await http()
        .patch(`${VENUES}/${others.id}`)
        .set('Authorization', contributor.authorization)
        .send({ city: 'X' })
        .expect(403);
      expect(forbidden.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });

      await http().patch(`${VENUES}/${own.id}`).set('Authorization', editor.authorization).send({ status: 'publish' }).expect(200);
      await http().patch(`${VENUES}/${own.id}`).set('Authorization', contributor.authorization).send({ city: 'X' }).expect(403);
    });

    it('scales a contributor publishing its draft back to pending', async () => {
      const own = await createVenue(contributor, { venue: 'Own Draft' });
      const response = await http()
        .patch(`${VENUES}/${own.id}`)
        .set('Authorization', contributor.authorization)
        .send({ status: 'publish' })
        .expect(200);
      expect(response.body.status).toBe('pending');
    });

    it("lets an editor edit anyone's venue and reassign it", async () => {
      const own = await createVenue(contributor, { venue: 'Own Draft' });
      const response = await http()
        .patch(`${VENUES}/${own.id}`)
        .set('Authorization', editor.authorization)
        .send({ author: author.id, status: 'publish' })
        .expect(200);
      expect(response.body).toMatchObject({ author: String(author.id), status: 'publish' });
    });

    it('restores a trashed venue by updating its status', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      await http().delete(`${VENUES}/${created.id}`).set('Authorization', editor.authorization).expect(200);
      const restored = await http()
        .patch(`${VENUES}/${created.id}`)
        .set('Authorization', editor.authorization)
        .send({ status: 'publish' })
        .expect(200);
      expect(restored.body.status).toBe('publish');
    });
  });

  describe('delete', () => {
    it('trashes with 200 and the venue, then answers 410 venue-is-in-trash', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const trashed = await http().delete(`${VENUES}/${created.id}`).set('Authorization', editor.authorization).expect(200);
      expect(trashed.body).toMatchObject({ id: created.id, venue: 'Loopback Hall', status: 'trash' });
      expect((await venues().findOneByOrFail({ id: created.id })).status).toBe('trash');
      const again = await http().delete(`${VENUES}/${created.id}`).set('Authorization', editor.authorization).expect(410);
      expect(again.body).toEqual({ code: 'venue-is-in-trash', message: 'The venue is already trashed', data: { status: 410 } });
    });

    it('deletes for good with force=true, answering with the last state, and drops the links to events', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const event = await insertEvent(testApp.dataSource, { endUtc: new Date('2031-01-01T00:00:00Z') });
      await linkVenue(testApp.dataSource, event.id, created.id);
      const response = await http().delete(`${VENUES}/${created.id}?force=true`).set('Authorization', editor.authorization).expect(200);
      expect(response.body).toMatchObject({ id: created.id, venue: 'Loopback Hall', status: 'publish' });
      expect(await venues().findOneBy({ id: created.id })).toBeNull();
      expect(await testApp.dataSource.getRepository(EventVenueLink).countBy({ venueId: created.id })).toBe(0);
      await http().get(`${VENUES}/${created.id}`).expect(404);
    });

    it('deletes a trashed venue for good with force=true', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      await http().delete(`${VENUES}/${created.id}`).set('Authorization', editor.authorization).expect(200);
      const response = await http()
        .delete(`${VENUES}/${created.id}`)
        .query({ force: 'true' })
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(response.body.status).toBe('trash');
      expect(await venues().findOneBy({ id: created.id })).toBeNull();
    });

    it('keeps the links of a trashed venue, so that restoring it brings them back', async () => {
      const created = await createVenue(editor, RECORDED_VENUE);
      const event = await insertEvent(testApp.dataSource, { endUtc: new Date('2031-01-01T00:00:00Z') });
      await linkVenue(testApp.dataSource, event.id, created.id);
      await http().delete(`${VENUES}/${created.id}`).set('Authorization', editor.authorization).expect(200);
      expect(await testApp.dataSource.getRepository(EventVenueLink).countBy({ venueId: created.id })).toBe(1);
    });

    it('deletes by slug and answers 404 venue-not-found for unknown ids and slugs', async () => {
      await createVenue(editor, RECORDED_VENUE);
      const response = await http().delete(`${VENUES}/by-slug/loopback-hall`).set('Authorization', editor.authorization).expect(200);
      expect(response.body.status).toBe('trash');
      expect((await http().delete(`${VENUES}/by-slug/nowhere`).set('Authorization', editor.authorization).expect(404)).body.code).toBe(
        'venue-not-found',
      );
      expect((await http().delete(`${VENUES}/987654`).set('Authorization', editor.authorization).expect(404)).body.code).toBe(
        'venue-not-found',
      );
    });

    it('checks each role: anonymous 401, subscriber 403, contributor own draft only', async () => {
      const others = await createVenue(otherContributor, { venue: 'Their Draft' });
      await http().delete(`${VENUES}/${others.id}`).expect(401);
      await http().delete(`${VENUES}/${others.id}`).set('Authorization', subscriber.authorization).expect(403);
      await http().delete(`${VENUES}/${others.id}`).set('Authorization', contributor.authorization).expect(403);
      const own = await createVenue(contributor, { venue: 'Own Draft' });
      await http().delete(`${VENUES}/${own.id}`).set('Authorization', contributor.authorization).expect(200);
      const published = await createVenue(editor, { venue: 'Published Hall', author: contributor.id });
      await http().delete(`${VENUES}/${published.id}`).set('Authorization', contributor.authorization).expect(403);
      await http().delete(`${VENUES}/${published.id}`).set('Authorization', editor.authorization).expect(200);
    });
  });

  describe('list', () => {
    it('answers an empty list with 200, zero totals and no page links', async () => {
      const response = await http().get(VENUES).expect(200);
      expect(response.body).toEqual({
        venues: [],
        rest_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/cal\/events\/v1\/venues\/\?page=1&per_page=25$/),
        total: 0,
        total_pages: 0,
      });
      expect(Object.keys(response.body)).toEqual(['venues', 'rest_url', 'total', 'total_pages']);
      expect(response.headers['x-tec-total']).toBe('0');
      expect(response.headers['x-tec-totalpages']).toBe('0');
    });

    it('lists items without json_ld in the body key order of the reference', async () => {
      await createVenue(editor, RECORDED_VENUE);
      const response = await http().get(VENUES).expect(200);
      expect(Object.keys(response.body.venues[0])).toEqual(RECORDED_SINGLE_KEYS.filter((key) => key !== 'json_ld'));
    });

    it('pages with links, totals and headers, and answers 404 past the end', async () => {
      for (const day of [1, 2, 3]) await createVenue(editor, { venue: `Hall ${day}`, date_utc: `2026-01-0${day} 10:00:00` });
      const first = await http().get(VENUES).query({ per_page: 2 }).expect(200);
      expect(first.body.venues.map((venue: { venue: string }) => venue.venue)).toEqual(['Hall 3', 'Hall 2']);
      expect(Object.keys(first.body)).toEqual(['venues', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(first.body.next_rest_url).toMatch(/\/venues\/\?page=2&per_page=2$/);
      expect(first.body).toMatchObject({ total: 3, total_pages: 2 });
      expect(first.headers['x-tec-total']).toBe('3');
      expect(first.headers['x-tec-totalpages']).toBe('2');

      const last = await http().get(VENUES).query({ per_page: 2, page: 2 }).expect(200);
      expect(last.body.venues.map((venue: { venue: string }) => venue.venue)).toEqual(['Hall 1']);
      expect(Object.keys(last.body)).toEqual(['venues', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(last.body.previous_rest_url).toMatch(/\/venues\/\?per_page=2$/);

      const past = await http().get(VENUES).query({ per_page: 2, page: 3 }).expect(404);
      expect(past.body).toEqual({
        code: 'venue-archive-page-not-found',
        message: 'The requested venue archive page does not exist',
        data: { status: 404 },
      });
    });

    it('orders by publication date, newest first, then by id', async () => {
      const older = await createVenue(editor, { venue: 'Older', date_utc: '2026-01-01 10:00:00' });
      const tieLow = await createVenue(editor, { venue: 'Tie A', date_utc: '2026-02-01 10:00:00' });
      const tieHigh = await createVenue(editor, { venue: 'Tie B', date_utc: '2026-02-01 10:00:00' });
      const response = await http().get(VENUES).expect(200);
      expect(response.body.venues.map((venue: { id: number }) => venue.id)).toEqual([tieHigh.id, tieLow.id, older.id]);
    });

    it('clamps per_page to 100 and refuses per_page=0 and page=0 with 400', async () => {
      const clamped = await http().get(VENUES).query({ per_page: 500 }).expect(200);
      expect(clamped.body.rest_url).toMatch(/per_page=100$/);
      const zero = await http().get(VENUES).query({ per_page: 0 }).expect(400);
      expect(zero.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { per_page: expect.any(String) } } });
      const page = await http().get(VENUES).query({ page: 0 }).expect(400);
      expect(page.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { page: expect.any(String) } } });
      await http().get(VENUES).query({ per_page: 'many' }).expect(400);
    });

    it('searches words across fields: "temple avenue" finds "100, Avenue du Temple"', async () => {
      await createVenue(editor, { venue: 'Le Marais', address: '100, Avenue du Temple' });
      await createVenue(editor, { venue: 'Elsewhere', address: '5 Temple Street' });
      const found = await http().get(VENUES).query({ search: 'temple avenue' }).expect(200);
      expect(found.body.venues.map((venue: { venue: string }) => venue.venue)).toEqual(['Le Marais']);
      expect(found.body.rest_url).toMatch(/search=temple\+avenue/);
      const byZip = await http().get(VENUES).query({ search: 'temple' }).expect(200);
      expect(byZip.body.total).toBe(2);
      const none = await http().get(VENUES).query({ search: 'avenue street' }).expect(200);
      expect(none.body.total).toBe(0);
    });

    it('shows anonymous callers published venues only and refuses them other statuses', async () => {
      await createVenue(editor, { venue: 'Public' });
      await createVenue(editor, { venue: 'Private Draft', status: 'draft' });
      const anonymous = await http().get(VENUES).expect(200);
      expect(anonymous.body.venues.map((venue: { venue: string }) => venue.venue)).toEqual(['Public']);
      const refused = await http().get(VENUES).query({ status: 'draft' }).expect(400);
      expect(refused.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { status: expect.any(String) } } });
      await http().get(VENUES).query({ status: 'publish' }).expect(200);
    });

    it('filters by status for signed-in callers, contributors seeing their own only', async () => {
      await createVenue(editor, { venue: 'Public' });
      await createVenue(editor, { venue: 'Editor Draft', status: 'draft' });
      await createVenue(contributor, { venue: 'Contributor Draft' });
      const drafts = await http().get(VENUES).query({ status: 'draft' }).set('Authorization', editor.authorization).expect(200);
      expect(drafts.body.venues.map((venue: { venue: string }) => venue.venue).sort()).toEqual(['Contributor Draft', 'Editor Draft']);
      expect(drafts.body.rest_url).toMatch(/status=draft/);
      const own = await http().get(VENUES).set('Authorization', contributor.authorization).expect(200);
      expect(own.body.venues.map((venue: { venue: string }) => venue.venue).sort()).toEqual(['Contributor Draft', 'Public']);
      await http().get(VENUES).query({ status: 'bogus' }).set('Authorization', editor.authorization).expect(400);
      const blank = await http().get(VENUES).query({ status: ' , ' }).set('Authorization', editor.authorization).expect(200);
      expect(blank.body.total).toBe(3);
    });

    it('keeps trashed venues out unless asked for', async () => {
      const trashed = await createVenue(editor, { venue: 'Trashed' });
      await http().delete(`${VENUES}/${trashed.id}`).set('Authorization', editor.authorization).expect(200);
      expect((await http().get(VENUES).set('Authorization', editor.authorization).expect(200)).body.total).toBe(0);
      const asked = await http().get(VENUES).query({ status: 'trash' }).set('Authorization', editor.authorization).expect(200);
      expect(asked.body.venues.map((venue: { id: number }) => venue.id)).toEqual([trashed.id]);
    });

    describe('filters on linked events', () => {
      const future = new Date('2031-01-01T00:00:00Z');
      const past = new Date('2029-01-01T00:00:00Z');
      let linked: Record<string, any>;
      let draftOnly: Record<string, any>;
      let pastOnly: Record<string, any>;
      let privateOnly: Record<string, any>;
      let publishedEventId: number;

      beforeEach(async () => {
        linked = await createVenue(editor, { venue: 'Linked' });
        draftOnly = await createVenue(editor, { venue: 'Draft Only' });
        pastOnly = await createVenue(editor, { venue: 'Past Only' });
        privateOnly = await createVenue(editor, { venue: 'Private Only' });
        await createVenue(editor, { venue: 'Unlinked' });
        const published = await insertEvent(testApp.dataSource, { endUtc: future });
        publishedEventId = published.id;
        await linkVenue(testApp.dataSource, published.id, linked.id);
        const draft = await insertEvent(testApp.dataSource, { endUtc: future, status: 'draft' });
        await linkVenue(testApp.dataSource, draft.id, draftOnly.id);
        const ended = await insertEvent(testApp.dataSource, { endUtc: past });
        await linkVenue(testApp.dataSource, ended.id, pastOnly.id);
        const privateEvent = await insertEvent(testApp.dataSource, { endUtc: future, status: 'private', authorId: editor.id });
        await linkVenue(testApp.dataSource, privateEvent.id, privateOnly.id);
      });

      const names = (body: { venues: Array<{ venue: string }> }) => body.venues.map((venue) => venue.venue).sort();

      it('event: only the venues linked to that event', async () => {
        const response = await http().get(VENUES).query({ event: publishedEventId }).expect(200);
        expect(names(response.body)).toEqual(['Linked']);
        expect(response.body.rest_url).toMatch(new RegExp(`event=${publishedEventId}`));
        const other = await insertEvent(testApp.dataSource, { endUtc: future });
        expect((await http().get(VENUES).query({ event: other.id }).expect(200)).body.total).toBe(0);
      });

      it('event: 400 rest_invalid_param naming event when no such event exists or it is not an id', async () => {
        const unknown = await http().get(VENUES).query({ event: 987654 }).expect(400);
        expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { event: expect.any(String) } } });
        const malformed = await http().get(VENUES).query({ event: 'abc' }).expect(400);
        expect(Object.keys(malformed.body.data.params)).toEqual(['event']);
      });

      it('has_events=true: linked to an event that is neither draft nor pending nor trashed', async () => {
        const response = await http().get(VENUES).query({ has_events: 'true' }).expect(200);
        expect(names(response.body)).toEqual(['Linked', 'Past Only', 'Private Only']);
      });

      it('has_events=false: the others', async () => {
        const response = await http().get(VENUES).query({ has_events: false }).expect(200);
        expect(names(response.body)).toEqual(['Draft Only', 'Unlinked']);
      });

      it('has_events: 400 for a value that is not a boolean', async () => {
        const response = await http().get(VENUES).query({ has_events: 'sometimes' }).expect(400);
        expect(Object.keys(response.body.data.params)).toEqual(['has_events']);
      });

      it('only_with_upcoming: linked to an event that has not ended and the caller can see', async () => {
        const anonymous = await http().get(VENUES).query({ only_with_upcoming: true }).expect(200);
        expect(names(anonymous.body)).toEqual(['Linked']);
        const byEditor = await http()
          .get(VENUES)
          .query({ only_with_upcoming: true })
          .set('Authorization', editor.authorization)
          .expect(200);
        expect(names(byEditor.body)).toEqual(['Linked', 'Private Only']);
        const byAuthor = await http()
          .get(VENUES)
          .query({ only_with_upcoming: true })
          .set('Authorization', author.authorization)
          .expect(200);
        expect(names(byAuthor.body)).toEqual(['Linked']);
      });

      it('only_with_upcoming: reads "now" from the clock', async () => {
        const saved = now.getTime();
        try {
          now.setTime(Date.parse('2028-06-01T00:00:00Z'));
          const response = await http().get(VENUES).query({ only_with_upcoming: true }).expect(200);
          expect(names(response.body)).toEqual(['Linked', 'Past Only']);
        } finally {
          now.setTime(saved);
        }
      });

      it('only_with_upcoming=false filters nothing', async () => {
        expect((await http().get(VENUES).query({ only_with_upcoming: false }).expect(200)).body.total).toBe(5);
      });

      it('runs at most one query for the page and one for the count, whatever the filters', async () => {
        const countQueries = async (query: Record<string, unknown>) => {
          const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
          try {
            await http().get(VENUES).query(query).set('Authorization', editor.authorization).expect(200);
            // Authentication reads the caller first; what is counted is the listing itself.
            return spy.mock.calls.filter(([sql]) => !/application_passwords|FROM [`"]users[`"]/.test(sql)).length;
          } finally {
            spy.mockRestore();
          }
        };
        expect(await countQueries({ per_page: 1 })).toBe(2);
        // TypeORM skips the count when the first page is not full.
        expect(
          await countQueries({ per_page: 100, search: 'only', has_events: true, only_with_upcoming: true, status: 'publish,draft' }),
        ).toBeLessThanOrEqual(2);
        // The event filter first checks that the event exists.
        expect(await countQueries({ event: publishedEventId, per_page: 1 })).toBe(3);
      });

      it('combines filters with AND', async () => {
        const response = await http().get(VENUES).query({ has_events: true, only_with_upcoming: true, search: 'linked' }).expect(200);
        expect(names(response.body)).toEqual(['Linked']);
        expect(names((await http().get(VENUES).query({ has_events: false, search: 'linked' }).expect(200)).body)).toEqual(['Unlinked']);
      });
    });
  });

  describe('documentation', () => {
    it('declares every venue route with its responses in the OpenAPI document and the namespace index', async () => {
      const doc = await http().get('/cal/events/v1/doc').expect(200);
      const responses = (path: string, method: string) => Object.keys(doc.body.paths[path][method].responses).sort();
      expect(responses('/venues', 'get')).toEqual(['200', '400', '403', '404', '429']);
      expect(responses('/venues', 'post')).toEqual(['201', '400', '401', '403', '429']);
      for (const path of ['/venues/{id}', '/venues/by-slug/{slug}']) {
        expect(responses(path, 'get')).toEqual(['200', '403', '404', '429']);
        for (const method of ['post', 'put', 'patch']) expect(responses(path, method)).toEqual(['200', '400', '401', '403', '404', '429']);
        expect(responses(path, 'delete')).toEqual(['200', '401', '403', '404', '410', '429']);
      }
      const body = doc.body.paths['/venues'].post.requestBody.content['application/json'].schema;
      expect(body.$ref).toMatch(/Create/);
      const index = await http().get('/cal/events/v1').expect(200);
      expect(Object.keys(index.body.routes)).toEqual(
        expect.arrayContaining([
          '/cal/events/v1/venues',
          '/cal/events/v1/venues/(?P<id>\\d+)',
          '/cal/events/v1/venues/by-slug/(?P<slug>[^/]+)',
        ]),
      );
      const create = index.body.routes['/cal/events/v1/venues'].endpoints.find((endpoint: { methods: string[] }) =>
        endpoint.methods.includes('POST'),
      );
      expect(create.args.venue).toMatchObject({ required: true, type: 'string' });
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
            .get(VENUES)
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
        'venue',
        'description',
        'excerpt',
        'slug',
        'status',
        'image',
        'author',
        'date',
        'date_utc',
        'address',
        'city',
        'country',
        'province',
        'state',
        'stateprovince',
        'zip',
        'phone',
        'website',
        'show_map',
        'show_map_link',
        'geo_lat',
        'geo_lng',
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
            .post(VENUES)
            .set('Authorization', editor.authorization)
            .send({ venue: 'Fuzz', [name]: value });
          expect(created.status).toBeLessThan(500);
          const updated = await http()
            .patch(`${VENUES}/${target.id}`)
            .set('Authorization', editor.authorization)
            .send({ [name]: value });
          expect(updated.status).toBeLessThan(500);
        }),
        { numRuns: 80 },
      );
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1 }), async (slug) => {
          const response = await http().get(`${VENUES}/by-slug/${encodeURIComponent(slug)}`);
          expect(response.status).toBeLessThan(500);
        }),
        { numRuns: 40 },
      );
      for (const body of ['[]', '"text"', 'null', '[{"venue":"x"}]']) {
        const response = await http()
          .post(VENUES)
          .set('Authorization', editor.authorization)
          .set('Content-Type', 'application/json')
          .send(body);
        expect(response.status).toBe(400);
      }
      expect((await http().get(`${VENUES}/by-slug/%E0%A4%A`)).status).toBeLessThan(500);
    });

    async function createOrganizerOrVenue(): Promise<Record<string, any>> {
      return (await http().post(VENUES).set('Authorization', editor.authorization).send({ venue: 'Fuzz Target' }).expect(201)).body;
    }
  });

  describe('findOrCreateForEvent (used by the events module)', () => {
    const service = () => testApp.app.get(VenuesService);
    const asUser = (user: TestUser) => ({ id: user.id, login: user.login, role: user.role });

    it('creates a venue from an object of fields', async () => {
      const venue = await service().findOrCreateForEvent({ venue: 'Inline Hall', city: 'Lille', show_map: 'false' }, asUser(author));
      expect(venue).toMatchObject({
        title: 'Inline Hall',
        city: 'Lille',
        showMap: false,
        status: 'publish',
        authorId: author.id,
        slug: 'inline-hall',
      });
      expect(await venues().findOneByOrFail({ id: venue.id })).toMatchObject({ title: 'Inline Hall' });
    });

    it('reuses an exact match', async () => {
      const existing = await createVenue(editor, RECORDED_VENUE);
      const venue = await service().findOrCreateForEvent({ venue: 'loopback hall', city: 'SPRINGFIELD' }, asUser(author));
      expect(venue.id).toBe(existing.id);
    });

    it('names invalid fields as venue[field] in a 400 rest_invalid_param', async () => {
      const failure = service().findOrCreateForEvent({ city: 'Lille', website: 'nope' }, asUser(author));
      await expect(failure).rejects.toMatchObject({
        code: 'rest_invalid_param',
        extraData: { params: { 'venue[venue]': expect.any(String), 'venue[website]': expect.any(String) } },
      });
      await expect(service().findOrCreateForEvent({ venue: 'X', author: 999999 }, asUser(editor))).rejects.toMatchObject({
        code: 'rest_invalid_param',
        extraData: { params: { 'venue[author]': expect.any(String) } },
      });
    });

    it('writes inside the transaction it is given', async () => {
      await expect(
        testApp.app.get(TransactionHost).run(async () => {
          await service().findOrCreateForEvent({ venue: 'Rolled Back Hall' }, asUser(editor));
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await venues().countBy({ title: 'Rolled Back Hall' })).toBe(0);
    });
  });
});
