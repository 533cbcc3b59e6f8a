import { CountCache } from '../src/catalogue/caching/count-cache';
import { recordedExchange } from './helpers/recorded';
import request from 'supertest';
import { Event } from '../src/events/event.entity';
import { postEvent } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

// The site zone differs from the zones events are created in, so that wall-clock and UTC fields
// can only both be right if each is computed in its own zone.
process.env.SITE_TIMEZONE = 'America/New_York';

const recordedSingleEvent = recordedExchange('14-event-single.json').body as Record<string, unknown>;

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

describe('Events (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let contributor: TestUser;
  let subscriber: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    author = await createUser(testApp, 'author');
    otherAuthor = await createUser(testApp, 'author');
    contributor = await createUser(testApp, 'contributor');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);
  const base = '/cal/events/v1/events';

  async function createEvent(user: TestUser, body: Record<string, unknown>) {
    return postEvent(testApp, user, { start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 12:00:00', ...body });
  }

  async function purgeEvents() {
    await testApp.dataSource.getRepository(Event).createQueryBuilder().delete().execute();
  }

  describe('create', () => {
    it('creates an event with 201, Location and the documented shape', async () => {
      const response = await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .send({
          title: 'Reference Event',
          description: '<p>Event body.</p>',
          excerpt: 'Short excerpt',
          start_date: '2027-01-15 10:00:00',
          end_date: '2027-01-15 12:00:00',
          timezone: 'UTC',
          cost: '10',
          website: 'http://example.com/ev',
          status: 'publish',
        })
        .expect(201);
      expect(response.headers.location).toBe(response.body.rest_url);
      expect(response.body).toMatchObject({
        title: 'Reference Event',
        status: 'publish',
        slug: 'reference-event',
        author: String(editor.id),
        description: '<p>Event body.</p>',
        excerpt: '<p>Short excerpt</p>',
        all_day: false,
        start_date: '2027-01-15 10:00:00',
        start_date_details: { year: '2027', month: '01', day: '15', hour: '10', minutes: '00', seconds: '00' },
        end_date: '2027-01-15 12:00:00',
        utc_start_date: '2027-01-15 10:00:00',
        timezone: 'UTC',
        timezone_abbr: 'UTC',
        cost: '$10',
        cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['10'] },
        website: 'http://example.com/ev',
        show_map: true,
        show_map_link: true,
        hide_from_listings: false,
        sticky: false,
        featured: false,
        categories: [],
        tags: [],
        venue: [],
        organizer: [],
        custom_fields: [],
        image: false,
        ticketed: false,
      });
      expect(response.body.rest_url).toMatch(new RegExp(`/cal/events/v1/events/${response.body.id}$`));
      expect(response.body.global_id).toBe(`127.0.0.1?id=${response.body.id}`);
      expect(response.body).not.toHaveProperty('json_ld');
    });

    it('returns 400 rest_missing_callback_param naming title, start_date and end_date', async () => {
      const response = await http().post(base).set('Authorization', editor.authorization).send({}).expect(400);
      expect(response.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title, start_date, end_date',
        data: { status: 400, params: ['title', 'start_date', 'end_date'] },
      });
      const onlyDates = await http().post(base).set('Authorization', editor.authorization).send({ title: 'No dates' }).expect(400);
      expect(onlyDates.body.data.params).toEqual(['start_date', 'end_date']);
    });

    it.each([
      ['start_date', { start_date: 'next tuesday' }],
      ['end_date', { end_date: '2027-02-30 10:00:00' }],
      ['timezone', { timezone: 'Mars/Olympus' }],
      ['website', { website: 'not a url' }],
      ['status', { status: 'published' }],
      ['all_day', { all_day: 'sometimes' }],
      ['title', { title: '' }],
      ['slug', { slug: '' }],
      ['author', { author: 'me' }],
      ['author', { author: 999999 }],
      ['venue', { venue: 999999 }],
      ['organizer', { organizer: [999999] }],
      ['categories', { categories: [999999] }],
      ['tags', { tags: [{ nested: true }] }],
      ['cost', { cost: { amount: 5 } }],
      ['image', { image: 'javascript:alert(1)' }],
    ])('returns 400 rest_invalid_param naming %s', async (field, body) => {
      const response = await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .send({ title: 'Bad', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 12:00:00', ...body })
        .expect(400);
      expect(response.body.code).toBe('rest_invalid_param');
      expect(Object.keys(response.body.data.params)).toContain(field);
      expect(response.body.message).toContain(field);
    });

    it('refuses an end before the start (stricter than the original)', async () => {
      const response = await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .send({ title: 'Backwards', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 09:00:00' })
        .expect(400);
      expect(response.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): end_date',
        data: { status: 400, params: { end_date: 'end_date must not be before start_date' } },
      });
    });

    it('accepts ISO 8601, unix timestamps and dates without seconds', async () => {
      const iso = await createEvent(editor, {
        title: 'Iso',
        timezone: 'Europe/Paris',
        start_date: '2027-06-01T10:00:00+02:00',
        end_date: '2027-06-01T12:00:00Z',
      });
      expect(iso).toMatchObject({
        start_date: '2027-06-01 10:00:00',
        end_date: '2027-06-01 14:00:00',
        utc_start_date: '2027-06-01 08:00:00',
      });
      const unix = await createEvent(editor, { title: 'Unix', timezone: 'UTC', start_date: 1811000000, end_date: '1811003600' });
      expect(unix).toMatchObject({ utc_start_date: '2027-05-22 15:33:20', utc_end_date: '2027-05-22 16:33:20' });
      const short = await createEvent(editor, {
        title: 'Short',
        timezone: 'UTC',
        start_date: '2027-06-02 09:30',
        end_date: '2027-06-02 10:45',
      });
      expect(short).toMatchObject({ start_date: '2027-06-02 09:30:00', end_date: '2027-06-02 10:45:00' });
    });

    it('makes slugs unique with -2, -3', async () => {
      const first = await createEvent(editor, { title: 'Same Title' });
      const second = await createEvent(editor, { title: 'Same Title' });
      const third = await createEvent(editor, { title: 'Other', slug: 'same-title' });
      expect([first.slug, second.slug, third.slug]).toEqual(['same-title', 'same-title-2', 'same-title-3']);
    });

    it('accepts a form-encoded body', async () => {
      const response = await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .type('form')
        .send('title=Form+Event&start_date=2027-07-01+10:00:00&end_date=2027-07-01+11:00:00&featured=true&tags=alpha,beta')
        .expect(201);
      expect(response.body).toMatchObject({ title: 'Form Event', featured: true });
      expect(response.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['alpha', 'beta']);
    });

    it('removes unsafe markup from descriptions', async () => {
      const event = await createEvent(editor, { title: 'Xss', description: '<p onclick="x()">Hi<script>alert(1)</script></p>' });
      expect(event.description).toBe('<p>Hi</p>');
    });
  });

  describe('time zones and all-day events', () => {
    it('keeps the wall-clock time in the event zone and the instant in UTC (Asia/Hong_Kong on a New York site)', async () => {
      const event = await createEvent(editor, {
        title: 'Hong Kong',
        timezone: 'Asia/Hong_Kong',
        start_date: '2027-01-15 10:00:00',
        end_date: '2027-01-15 12:30:00',
      });
      expect(event).toMatchObject({
        timezone: 'Asia/Hong_Kong',
        start_date: '2027-01-15 10:00:00',
        end_date: '2027-01-15 12:30:00',
        utc_start_date: '2027-01-15 02:00:00',
        utc_end_date: '2027-01-15 04:30:00',
        utc_start_date_details: { year: '2027', month: '01', day: '15', hour: '02', minutes: '00', seconds: '00' },
      });
      expect(event.timezone_abbr).toBe('HKT');
    });

    it.each([
      ['Europe/London', 'GMT', 'BST'],
      ['America/New_York', 'EST', 'EDT'],
      ['Asia/Hong_Kong', 'HKT', 'HKT'],
      ['Asia/Kolkata', 'IST', 'IST'],
      ['Australia/Sydney', 'AEDT', 'AEST'],
    ])('gives the tz database abbreviation of %s in January and July, not an ICU offset name', async (timezone, january, july) => {
      const winter = await createEvent(editor, {
        title: `${timezone} winter`,
        timezone,
        start_date: '2027-01-15 10:00:00',
        end_date: '2027-01-15 11:00:00',
        status: 'publish',
      });
      const summer = await createEvent(editor, {
        title: `${timezone} summer`,
        timezone,
        start_date: '2027-07-15 10:00:00',
        end_date: '2027-07-15 11:00:00',
        status: 'publish',
      });
      expect(winter.timezone_abbr).toBe(january);
      expect(summer.timezone_abbr).toBe(july);
      const read = await http().get(`${base}/${summer.id}`).expect(200);
      expect(read.body.timezone_abbr).toBe(july);
    });

    it('reads dates without a zone in the site zone', async () => {
      const event = await createEvent(editor, { title: 'Site zone', start_date: '2027-01-15 10:00:00', end_date: '2027-01-15 11:00:00' });
      expect(event).toMatchObject({ timezone: 'America/New_York', timezone_abbr: 'EST', utc_start_date: '2027-01-15 15:00:00' });
    });

    it('accepts UTC±N zones', async () => {
      const event = await createEvent(editor, {
        title: 'Offset',
        timezone: 'UTC+2',
        start_date: '2027-01-15 10:00:00',
        end_date: '2027-01-15 11:00:00',
      });
      expect(event).toMatchObject({ timezone: 'UTC+2', timezone_abbr: 'UTC+2', utc_start_date: '2027-01-15 08:00:00' });
    });

    it('snaps all-day events to 00:00:00 and 23:59:59, keeping several days', async () => {
      const event = await createEvent(editor, {
        title: 'All Day Thing',
        all_day: true,
        timezone: 'UTC',
        start_date: '2027-02-01 15:00',
        end_date: '2027-02-03',
      });
      expect(event).toMatchObject({ all_day: true, start_date: '2027-02-01 00:00:00', end_date: '2027-02-03 23:59:59' });
    });

    it('computes UTC across a DST change (New York, spring forward)', async () => {
      const event = await createEvent(editor, {
        title: 'Across DST',
        timezone: 'America/New_York',
        start_date: '2027-03-13 22:00:00',
        end_date: '2027-03-14 04:00:00',
      });
      // EST (-5) before 2027-03-14 02:00, EDT (-4) after: five hours pass, not six.
      expect(event).toMatchObject({ utc_start_date: '2027-03-14 03:00:00', utc_end_date: '2027-03-14 08:00:00', timezone_abbr: 'EST' });
    });

    it('moves a time skipped by DST forward and reports it', async () => {
      const event = await createEvent(editor, {
        title: 'In the gap',
        timezone: 'America/New_York',
        start_date: '2027-03-14 02:30:00',
        end_date: '2027-03-14 05:00:00',
      });
      expect(event).toMatchObject({ start_date: '2027-03-14 03:30:00', utc_start_date: '2027-03-14 07:30:00' });
    });

    it('keeps the wall-clock times when only the zone changes', async () => {
      const event = await createEvent(editor, {
        title: 'Moving zone',
        timezone: 'UTC',
        start_date: '2027-08-01 10:00:00',
        end_date: '2027-08-01 11:00:00',
      });
      const updated = await http()
        .patch(`${base}/${event.id}`)
        .set('Authorization', editor.authorization)
        .send({ timezone: 'Europe/Berlin' })
        .expect(200);
      expect(updated.body).toMatchObject({
        start_date: '2027-08-01 10:00:00',
        utc_start_date: '2027-08-01 08:00:00',
        timezone_abbr: 'CEST',
      });
    });
  });

  describe('links to venues, organizers and terms', () => {
    it('links an existing venue and organizers by id, keeping the organizer order', async () => {
      const venue = (
        await http()
          .post('/cal/events/v1/venues')
          .set('Authorization', editor.authorization)
          .send({ venue: 'Loopback Hall', city: 'Springfield' })
          .expect(201)
      ).body;
      const first = (
        await http().post('/cal/events/v1/organizers').set('Authorization', editor.authorization).send({ organizer: 'Zed' }).expect(201)
      ).body;
      const second = (
        await http().post('/cal/events/v1/organizers').set('Authorization', editor.authorization).send({ organizer: 'Amy' }).expect(201)
      ).body;
      const event = await createEvent(editor, { title: 'Linked', venue: venue.id, organizer: [first.id, { id: second.id }] });
      expect(event.venue).toMatchObject({ id: venue.id, venue: 'Loopback Hall', city: 'Springfield' });
      expect(event.venue.json_ld).toMatchObject({ '@type': 'Place' });
      expect(event.organizer.map((organizer: { id: number }) => organizer.id)).toEqual([first.id, second.id]);
    });

    it('creates an inline venue and reuses an exact match the second time', async () => {
      const inline = { venue: 'Inline Hall', address: '1 Main St', city: 'Springfield' };
      const first = await createEvent(editor, { title: 'Inline one', venue: inline });
      const second = await createEvent(editor, { title: 'Inline two', venue: { ...inline, city: 'SPRINGFIELD' } });
      expect(first.venue).toMatchObject({ venue: 'Inline Hall', address: '1 Main St' });
      expect(second.venue.id).toBe(first.venue.id);
    });

    it('creates inline organizers mixed with ids', async () => {
      const existing = (
        await http().post('/cal/events/v1/organizers').set('Authorization', editor.authorization).send({ organizer: 'Known' }).expect(201)
      ).body;
      const event = await createEvent(editor, {
        title: 'Mixed',
        organizer: [{ id: existing.id }, { organizer: 'Fresh Org', email: 'fresh@example.org' }],
      });
      expect(event.organizer).toHaveLength(2);
      expect(event.organizer[0].id).toBe(existing.id);
      expect(event.organizer[1]).toMatchObject({ organizer: 'Fresh Org', email: 'fresh@example.org' });
    });

    it('names an invalid inline venue field', async () => {
      const response = await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .send({
          title: 'Bad venue',
          start_date: '2027-05-01 10:00:00',
          end_date: '2027-05-01 11:00:00',
          venue: { venue: 'X', website: 'nope' },
        })
        .expect(400);
      expect(response.body.code).toBe('rest_invalid_param');
      expect(Object.keys(response.body.data.params)[0]).toMatch(/^venue/);
    });

    it('creates terms from names and reuses existing ones; "" clears and omitted keeps', async () => {
      const category = (
        await http().post('/cal/events/v1/categories').set('Authorization', editor.authorization).send({ name: 'Workshops' }).expect(201)
      ).body;
      const event = await createEvent(editor, { title: 'Terms', categories: [category.id, 'Concerts'], tags: 'beginner' });
      expect(event.categories.map((term: { name: string }) => term.name).sort()).toEqual(['Concerts', 'Workshops']);
      expect(event.categories[0]).toMatchObject({ taxonomy: 'cal_events_cat', term_group: 0, filter: 'raw', count: 1 });
      expect(event.tags[0]).toMatchObject({ name: 'beginner', taxonomy: 'post_tag' });
      const again = await createEvent(editor, { title: 'Terms again', categories: ['workshops'] });
      expect(again.categories[0].id).toBe(category.id);
      const kept = await http()
        .patch(`${base}/${event.id}`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Renamed' })
        .expect(200);
      expect(kept.body.categories).toHaveLength(2);
      const cleared = await http()
        .patch(`${base}/${event.id}`)
        .set('Authorization', editor.authorization)
        .send({ categories: '', tags: [] })
        .expect(200);
      expect(cleared.body.categories).toEqual([]);
      expect(cleared.body.tags).toEqual([]);
    });

    it('unlinks a venue with "" and 0', async () => {
      const event = await createEvent(editor, { title: 'Unlink', venue: { venue: 'Temporary Hall' } });
      expect(event.venue).toHaveProperty('id');
      const cleared = await http()
        .put(`${base}/${event.id}`)
        .set('Authorization', editor.authorization)
        .send({ venue: 0, organizer: [] })
        .expect(200);
      expect(cleared.body.venue).toEqual([]);
      expect(cleared.body.organizer).toEqual([]);
    });
  });

  describe('single event', () => {
    it('matches the key set and value types of the recorded single event', async () => {
      const venue = (
        await http()
          .post('/cal/events/v1/venues')
          .set('Authorization', editor.authorization)
          .send({ venue: 'Shape Hall', address: '1 Main St' })
          .expect(201)
      ).body;
      const organizer = (
        await http()
          .post('/cal/events/v1/organizers')
          .set('Authorization', editor.authorization)
          .send({ organizer: 'Shape Org', phone: '555' })
          .expect(201)
      ).body;
      const event = await createEvent(editor, {
        title: 'Shape',
        venue: venue.id,
        organizer: [organizer.id],
        categories: ['Shape Cat'],
        tags: ['shape-tag'],
        cost: '10',
      });
      const response = await http().get(`${base}/${event.id}`).expect(200);
      // The original's keys in its order, then the series fields this API adds (docs/recurring-events.md).
      expect(Object.keys(response.body)).toEqual([...Object.keys(recordedSingleEvent), 'series_id', 'recurrence']);
      expect(response.body).toMatchObject({ series_id: null, recurrence: null });
      for (const [key, value] of Object.entries(recordedSingleEvent)) {
        expect([key, typeOf(response.body[key])]).toEqual([key, typeOf(value)]);
      }
      expect(response.body.json_ld).toMatchObject({
        '@context': 'http://schema.org',
        '@type': 'Event',
        name: 'Shape',
        startDate: '2027-05-01T10:00:00-04:00',
        location: { '@type': 'Place', name: 'Shape Hall' },
        offers: { '@type': 'Offer', price: '10', priceCurrency: 'USD' },
      });
    });

    it('reads by slug', async () => {
      const event = await createEvent(editor, { title: 'By Slug Event' });
      const response = await http().get(`${base}/by-slug/by-slug-event`).expect(200);
      expect(response.body.id).toBe(event.id);
    });

    it('returns 404 rest-event-not-found for an unknown id or slug', async () => {
      const response = await http().get(`${base}/999999`).expect(404);
      expect(response.body).toEqual({
        code: 'rest-event-not-found',
        message: 'Event with ID 999999 does not exist.',
        data: { status: 404 },
      });
      await http().get(`${base}/by-slug/no-such-event`).expect(404);
    });

    it('returns 404 rest_no_route for an id that is not a number', async () => {
      const response = await http().get(`${base}/abc`).expect(404);
      expect(response.body.code).toBe('rest_no_route');
    });

    it('hides drafts from anonymous callers and other authors, not from their author or editors', async () => {
      const draft = await createEvent(author, { title: 'Secret draft', status: 'draft' });
      const anonymous = await http().get(`${base}/${draft.id}`).expect(403);
      expect(anonymous.body).toEqual({
        code: 'event-not-accessible',
        message: 'The requested event is not accessible',
        data: { status: 403 },
      });
      await http().get(`${base}/${draft.id}`).set('Authorization', otherAuthor.authorization).expect(403);
      await http().get(`${base}/${draft.id}`).set('Authorization', subscriber.authorization).expect(403);
      await http().get(`${base}/${draft.id}`).set('Authorization', author.authorization).expect(200);
      await http().get(`${base}/${draft.id}`).set('Authorization', editor.authorization).expect(200);
    });
  });

  describe('roles', () => {
    it('refuses anonymous writes with 401 and subscribers with 403', async () => {
      const anonymous = await http()
        .post(base)
        .send({ title: 'x', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' })
        .expect(401);
      expect(anonymous.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
      const subscriberResponse = await http()
        .post(base)
        .set('Authorization', subscriber.authorization)
        .send({ title: 'x', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' })
        .expect(403);
      expect(subscriberResponse.body.code).toBe('rest_forbidden');
    });

    it('checks authentication before validation', async () => {
      await http().post(base).send({}).expect(401);
      await http().patch(`${base}/1`).send({ start_date: 'bad' }).expect(401);
      await http().delete(`${base}/1`).expect(401);
    });

    it('saves contributors as drafts and scales their publish back to pending', async () => {
      const draft = await createEvent(contributor, { title: 'Contributor draft' });
      expect(draft.status).toBe('draft');
      const pending = await createEvent(contributor, { title: 'Contributor publish', status: 'publish' });
      expect(pending.status).toBe('pending');
      const published = await createEvent(author, { title: 'Author publish' });
      expect(published.status).toBe('publish');
    });

    it('lets contributors edit their own drafts only', async () => {
      const own = await createEvent(contributor, { title: 'Own draft' });
      await http()
        .patch(`${base}/${own.id}`)
        .set('Authorization', contributor.authorization)
        .send({ title: 'Own draft edited' })
        .expect(200);
      const others = await createEvent(author, { title: 'Not yours', status: 'draft' });
      await http().patch(`${base}/${others.id}`).set('Authorization', contributor.authorization).send({ title: 'Mine now' }).expect(403);
      await http().patch(`${base}/${own.id}`).set('Authorization', editor.authorization).send({ status: 'publish' }).expect(200);
      const publishedOwn = await http()
        .patch(`${base}/${own.id}`)
        .set('Authorization', contributor.authorization)
        .send({ title: 'Edit published' })
        .expect(403);
      expect(publishedOwn.body.code).toBe('rest_forbidden');
    });

    it('lets authors manage their own events but not others', async () => {
      const mine = await createEvent(author, { title: 'Author own' });
      await http().patch(`${base}/${mine.id}`).set('Authorization', author.authorization).send({ title: 'Author own edited' }).expect(200);
      await http().patch(`${base}/${mine.id}`).set('Authorization', otherAuthor.authorization).send({ title: 'Hijack' }).expect(403);
      await http().delete(`${base}/${mine.id}`).set('Authorization', otherAuthor.authorization).expect(403);
      await http().patch(`${base}/${mine.id}`).set('Authorization', editor.authorization).send({ featured: true }).expect(200);
    });

    it('refuses a contributor naming another author, and lets an editor do it', async () => {
      const response = await http()
        .post(base)
        .set('Authorization', contributor.authorization)
        .send({ title: 'Impersonation', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00', author: editor.id })
        .expect(403);
      expect(response.body.code).toBe('rest_cannot_edit_others');
      const assigned = await createEvent(editor, { title: 'Assigned', author: author.id });
      expect(assigned.author).toBe(String(author.id));
    });

    it('ignores read-only fields in the body', async () => {
      const event = await createEvent(editor, {
        title: 'Mass assignment',
        id: 123456,
        rest_url: 'http://evil',
        utc_start_date: '2000-01-01 00:00:00',
        global_id: 'x',
      });
      expect(event.id).not.toBe(123456);
      expect(event.utc_start_date).toBe('2027-05-01 14:00:00');
    });

    it('returns 404 for an unknown id on update and delete', async () => {
      const update = await http().patch(`${base}/999999`).set('Authorization', editor.authorization).send({ title: 'x' }).expect(404);
      expect(update.body.code).toBe('rest-event-not-found');
      await http().delete(`${base}/999999`).set('Authorization', editor.authorization).expect(404);
    });
  });

  describe('update', () => {
    it('keeps fields left out, on POST, PUT and PATCH alike', async () => {
      const event = await createEvent(editor, {
        title: 'Keep me',
        cost: '5',
        featured: true,
        all_day: true,
        website: 'https://example.org',
      });
      for (const method of ['post', 'put', 'patch'] as const) {
        const response = await http()
          [method](`${base}/${event.id}`)
          .set('Authorization', editor.authorization)
          .send({ excerpt: `via ${method}` })
          .expect(200);
        expect(response.body).toMatchObject({
          title: 'Keep me',
          cost: '$5',
          featured: true,
          all_day: true,
          website: 'https://example.org',
          excerpt: `<p>via ${method}</p>`,
        });
      }
    });

    it('clears optional fields with ""', async () => {
      const event = await createEvent(editor, { title: 'Clear me', cost: '5', website: 'https://example.org', description: 'Text' });
      const response = await http()
        .patch(`${base}/${event.id}`)
        .set('Authorization', editor.authorization)
        .send({ cost: '', website: '', description: '' })
        .expect(200);
      expect(response.body).toMatchObject({ cost: '', description: '', website: response.body.url });
    });

    it('refuses an update that puts the end before the start', async () => {
      const event = await createEvent(editor, { title: 'Order', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 12:00:00' });
      const response = await http()
        .patch(`${base}/${event.id}`)
        .set('Authorization', editor.authorization)
        .send({ start_date: '2027-05-01 13:00:00' })
        .expect(400);
      expect(response.body.data.params).toEqual({ end_date: 'end_date must not be before start_date' });
    });

    it('updates and deletes by slug', async () => {
      await createEvent(editor, { title: 'Slug Target' });
      const updated = await http()
        .put(`${base}/by-slug/slug-target`)
        .set('Authorization', editor.authorization)
        .send({ featured: true })
        .expect(200);
      expect(updated.body.featured).toBe(true);
      const trashed = await http().delete(`${base}/by-slug/slug-target`).set('Authorization', editor.authorization).expect(200);
      expect(trashed.body.status).toBe('trash');
      await http().patch(`${base}/by-slug/no-such-slug`).set('Authorization', editor.authorization).send({ featured: true }).expect(404);
    });
  });

  describe('delete', () => {
    it('trashes, answers 410 the second time, restores by status, and deletes for good with force', async () => {
      const event = await createEvent(editor, { title: 'Trash me' });
      const trashed = await http().delete(`${base}/${event.id}`).set('Authorization', editor.authorization).expect(200);
      expect(trashed.body).toMatchObject({ id: event.id, status: 'trash' });
      const again = await http().delete(`${base}/${event.id}`).set('Authorization', editor.authorization).expect(410);
      expect(again.body).toEqual({ code: 'event-is-in-trash', message: 'The event is already trashed', data: { status: 410 } });
      const anonymous = await http().get(`${base}/${event.id}`).expect(403);
      expect(anonymous.body.code).toBe('event-no-longer-available');
      const restored = await http()
        .patch(`${base}/${event.id}`)
        .set('Authorization', editor.authorization)
        .send({ status: 'publish' })
        .expect(200);
      expect(restored.body.status).toBe('publish');
      const removed = await http().delete(`${base}/${event.id}?force=true`).set('Authorization', editor.authorization).expect(200);
      expect(removed.body).toMatchObject({ id: event.id, title: 'Trash me' });
      await http().get(`${base}/${event.id}`).expect(404);
    });

    it('refuses deletes by subscribers and contributors on others', async () => {
      const event = await createEvent(editor, { title: 'Protected' });
      await http().delete(`${base}/${event.id}`).set('Authorization', subscriber.authorization).expect(403);
      await http().delete(`${base}/${event.id}`).set('Authorization', contributor.authorization).expect(403);
    });

    it('lets a contributor trash its own draft', async () => {
      const event = await createEvent(contributor, { title: 'Own to trash' });
      await http().delete(`${base}/${event.id}`).set('Authorization', contributor.authorization).expect(200);
    });
  });

  describe('list', () => {
    beforeEach(purgeEvents);

    const list = (query = '', user?: TestUser) => {
      const call = http().get(`${base}${query}`);
      return user ? call.set('Authorization', user.authorization) : call;
    };
    const titles = (body: { events: Array<{ title: string }> }) => body.events.map((event) => event.title);

    it('answers an empty list with 200, totals 0 and no links', async () => {
      const response = await list().expect(200);
      expect(response.body).toEqual({ events: [], rest_url: expect.any(String), total: 0, total_pages: 0 });
      expect(response.headers['x-tec-total']).toBe('0');
      expect(response.headers['x-tec-totalpages']).toBe('0');
    });

    it('lists published upcoming events by start, hiding past, far, hidden and draft ones', async () => {
      await createEvent(editor, { title: 'Later', start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00' });
      await createEvent(editor, { title: 'Sooner', start_date: '2027-02-01 10:00', end_date: '2027-02-01 11:00' });
      await createEvent(editor, { title: 'Past', start_date: '2020-02-01 10:00', end_date: '2020-02-01 11:00' });
      await createEvent(editor, { title: 'Far', start_date: '2040-02-01 10:00', end_date: '2040-02-01 11:00' });
      await createEvent(editor, { title: 'Hidden', hide_from_listings: true });
      await createEvent(editor, { title: 'Draft', status: 'draft' });
      const response = await list().expect(200);
      expect(titles(response.body)).toEqual(['Sooner', 'Later']);
      expect(response.body.total).toBe(2);
      expect(response.body.rest_url).toMatch(
        /\/cal\/events\/v1\/events\/\?page=1&per_page=25&start_date=\d{4}-\d{2}-\d{2}\+00%3A00%3A00&end_date=.*&status=publish$/,
      );
      const asEditor = await list('', editor).expect(200);
      expect(titles(asEditor.body)).toEqual(['Sooner', 'Later', 'Draft']);
    });

    it('filters by start_date and end_date', async () => {
      await createEvent(editor, { title: 'January', start_date: '2027-01-10 10:00', end_date: '2027-01-10 11:00' });
      await createEvent(editor, { title: 'March', start_date: '2027-03-10 10:00', end_date: '2027-03-10 11:00' });
      expect(titles((await list('?start_date=2027-02-01').expect(200)).body)).toEqual(['March']);
      expect(titles((await list('?end_date=2027-02-01').expect(200)).body)).toEqual(['January']);
      expect(titles((await list('?start_date=2027-01-10&end_date=2027-01-10').expect(200)).body)).toEqual(['January']);
      expect(titles((await list('?start_date=2019-01-01&end_date=2019-12-31').expect(200)).body)).toEqual([]);
      const bad = await list('?start_date=someday').expect(400);
      expect(bad.body.data.params).toHaveProperty('start_date');
    });

    it('filters by search in title, description or excerpt', async () => {
      await createEvent(editor, { title: 'Jazz night' });
      await createEvent(editor, { title: 'Other', description: 'Some JAZZ inside' });
      await createEvent(editor, { title: 'Rock' });
      expect(titles((await list('?search=jazz').expect(200)).body).sort()).toEqual(['Jazz night', 'Other']);
      expect(titles((await list('?search=polka').expect(200)).body)).toEqual([]);
      expect(titles((await list('?search=100%25').expect(200)).body)).toEqual([]);
    });

    it('filters by categories and tags, by id or slug, with OR logic', async () => {
      const music = await createEvent(editor, { title: 'Music', categories: ['Concerts'], tags: ['loud'] });
      await createEvent(editor, { title: 'Talk', categories: ['Talks'], tags: ['quiet'] });
      await createEvent(editor, { title: 'None' });
      const concertsId = music.categories[0].id;
      expect(titles((await list(`?categories=${concertsId}`).expect(200)).body)).toEqual(['Music']);
      expect(titles((await list('?categories=concerts,talks').expect(200)).body).sort()).toEqual(['Music', 'Talk']);
      expect(titles((await list('?tags[]=quiet').expect(200)).body)).toEqual(['Talk']);
      const unknown = await list('?categories=no-such-category').expect(400);
      expect(unknown.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { categories: expect.any(String) } } });
      await list('?tags=999999').expect(400);
    });

    it('filters by venue and organizer ids', async () => {
      const withVenue = await createEvent(editor, {
        title: 'At hall',
        venue: { venue: 'Filter Hall' },
        organizer: { organizer: 'Filter Org' },
      });
      await createEvent(editor, { title: 'Elsewhere', venue: { venue: 'Other Hall' } });
      expect(titles((await list(`?venue=${withVenue.venue.id}`).expect(200)).body)).toEqual(['At hall']);
      expect(titles((await list(`?organizer=${withVenue.organizer[0].id}`).expect(200)).body)).toEqual(['At hall']);
      const unknown = await list('?venue=999999').expect(400);
      expect(unknown.body.data.params).toHaveProperty('venue');
      await list('?organizer=abc').expect(400);
    });

    it('filters by featured', async () => {
      await createEvent(editor, { title: 'Star', featured: true });
      await createEvent(editor, { title: 'Plain' });
      expect(titles((await list('?featured=true').expect(200)).body)).toEqual(['Star']);
      expect(titles((await list('?featured=false').expect(200)).body)).toEqual(['Plain']);
      await list('?featured=maybe').expect(400);
    });

    it('filters by status: publish only for anonymous callers, any for editors', async () => {
      await createEvent(editor, { title: 'Published' });
      await createEvent(editor, { title: 'Drafted', status: 'draft' });
      expect(titles((await list('?status=publish').expect(200)).body)).toEqual(['Published']);
      const anonymousDraft = await list('?status=draft').expect(400);
      expect(anonymousDraft.body.data.params).toHaveProperty('status');
      expect(titles((await list('?status=draft', editor).expect(200)).body)).toEqual(['Drafted']);
      await list('?status=nonsense', editor).expect(400);
    });

    it('shows authors their own drafts but not others', async () => {
      await createEvent(author, { title: 'Author draft', status: 'draft' });
      await createEvent(otherAuthor, { title: 'Other draft', status: 'draft' });
      expect(titles((await list('', author).expect(200)).body)).toEqual(['Author draft']);
    });

    it('filters by include, ignoring the date window', async () => {
      const past = await createEvent(editor, { title: 'Old one', start_date: '2020-01-01 10:00', end_date: '2020-01-01 11:00' });
      const future = await createEvent(editor, { title: 'New one' });
      await createEvent(editor, { title: 'Not included' });
      expect(titles((await list(`?include=${past.id},${future.id}`).expect(200)).body).sort()).toEqual(['New one', 'Old one']);
      await list('?include=abc').expect(400);
    });

    it('filters by post_parent', async () => {
      const parent = await createEvent(editor, { title: 'Parent' });
      const child = await createEvent(editor, { title: 'Child' });
      await testApp.dataSource.getRepository(Event).update({ id: child.id }, { postParentId: parent.id });
      expect(titles((await list(`?post_parent=${parent.id}`).expect(200)).body)).toEqual(['Child']);
      expect(titles((await list(`?post_parent=${child.id}`).expect(200)).body)).toEqual([]);
      const unknown = await list('?post_parent=999999').expect(400);
      expect(unknown.body.data.params).toHaveProperty('post_parent');
    });

    it('filters by geolocation: venues with coordinates, and within the radius nearest first', async () => {
      const paris = { venue: 'Paris Venue', geo_lat: 48.8566, geo_lng: 2.3522 };
      const versailles = { venue: 'Versailles Venue', geo_lat: 48.8049, geo_lng: 2.1204 };
      const lyon = { venue: 'Lyon Venue', geo_lat: 45.764, geo_lng: 4.8357 };
      await createEvent(editor, {
        title: 'In Versailles',
        venue: versailles,
        start_date: '2027-01-01 10:00',
        end_date: '2027-01-01 11:00',
      });
      await createEvent(editor, { title: 'In Paris', venue: paris, start_date: '2027-02-01 10:00', end_date: '2027-02-01 11:00' });
      await createEvent(editor, { title: 'In Lyon', venue: lyon });
      await createEvent(editor, { title: 'Nowhere', venue: { venue: 'No coordinates' } });
      expect(titles((await list('?geoloc=true').expect(200)).body).sort()).toEqual(['In Lyon', 'In Paris', 'In Versailles']);
      expect(titles((await list('?geoloc_lat=48.8566&geoloc_lng=2.3522').expect(200)).body)).toEqual(['In Paris', 'In Versailles']);
      expect(titles((await list('?geoloc_lat=0&geoloc_lng=0').expect(200)).body)).toEqual([]);
      const half = await list('?geoloc_lat=48.85').expect(400);
      expect(half.body.data.params).toHaveProperty('geoloc_lng');
      await list('?geoloc_lat=95&geoloc_lng=2').expect(400);
    });

    it('pages with links, headers, the last page and a page past the end', async () => {
      for (let day = 1; day <= 5; day += 1) {
        await createEvent(editor, { title: `Day ${day}`, start_date: `2027-04-0${day} 10:00`, end_date: `2027-04-0${day} 11:00` });
      }
      const first = await list('?per_page=2').expect(200);
      expect(titles(first.body)).toEqual(['Day 1', 'Day 2']);
      expect(first.headers['x-tec-total']).toBe('5');
      expect(first.headers['x-tec-totalpages']).toBe('3');
      expect(first.body.next_rest_url).toContain('page=2');
      expect(first.body).not.toHaveProperty('previous_rest_url');
      const second = await list('?per_page=2&page=2').expect(200);
      expect(second.body.previous_rest_url).not.toMatch(/[?&]page=/);
      const last = await list('?per_page=2&page=3').expect(200);
      expect(titles(last.body)).toEqual(['Day 5']);
      expect(last.body).not.toHaveProperty('next_rest_url');
      expect(last.body.previous_rest_url).toMatch(/[?&]page=2&/);
      const past = await list('?per_page=2&page=4').expect(404);
      expect(past.body).toEqual({
        code: 'event-archive-page-not-found',
        message: 'The requested event archive page does not exist',
        data: { status: 404 },
      });
      const clamped = await list('?per_page=500').expect(200);
      expect(clamped.body.rest_url).toContain('per_page=100');
      await list('?per_page=0').expect(400);
      await list('?page=0').expect(400);
      expect(Object.keys(first.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    });

    it('runs the same number of SQL queries whatever per_page is', async () => {
      for (let index = 0; index < 12; index += 1) {
        await createEvent(editor, {
          title: `Counted ${index}`,
          venue: { venue: `Count Hall ${index}` },
          organizer: [{ organizer: `Count Org ${index}` }],
          categories: [`Count Cat ${index}`],
          tags: [`count-tag-${index}`],
        });
      }
      const countQueries = async (query: string) => {
        // Counted cold: the list counts are cached (CountCache), and reading their generation is not the list's work.
        testApp.app.get(CountCache).clear();
        const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
        try {
          await list(query).expect(200);
          return spy.mock.calls.filter(([sql]) => !/cache_generations/.test(sql)).length;
        } finally {
          spy.mockRestore();
        }
      };
      const small = await countQueries('?per_page=1');
      const large = await countQueries('?per_page=12');
      expect(large).toBe(small);
      // Documents built cold: one read of the stored ones and one write-back of those built (EVENT_DOCUMENT_STORE).
      expect(small).toBeLessThanOrEqual(12);
    });
  });
});
