import request from 'supertest';
import { TEC_ACKNOWLEDGEMENT } from '../src/tec-v1/experimental-acknowledgement.guard';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

// Drop-in mode, as TEC's clients find it; set before the app reads its configuration.
process.env.API_ROOT = '/wp-json';
process.env.API_PREFIX = 'tribe';
process.env.PUBLIC_URL = 'https://calendar.example.org';
process.env.SITE_NAME = 'Calendar';
process.env.SITE_TIMEZONE = 'Europe/Athens';

const TEC = '/wp-json/tec/v1';
const EEA = { 'X-TEC-EEA': TEC_ACKNOWLEDGEMENT };
const admin = basicAuth(ADMIN.login, ADMIN.password);

describe('tec/v1 and the WordPress discovery routes (e2e)', () => {
  let testApp: TestApp;
  let subscriber: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    subscriber = await createUser(testApp, 'subscriber');
    author = await createUser(testApp, 'author');
  });

  afterAll(() => testApp.close());

  const http = () => request(testApp.server);
  const asAdmin = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) =>
    http()[method](`${TEC}${path}`).set(EEA).set('Authorization', admin);

  it('serves the site index with what WordPress clients check first', async () => {
    const response = await http().get('/wp-json/').expect(200);
    expect(response.body).toMatchObject({
      name: 'Calendar',
      description: '',
      url: 'https://calendar.example.org',
      home: 'https://calendar.example.org',
      timezone_string: 'Europe/Athens',
      namespaces: ['tribe/events/v1', 'tribe/tickets/v1', 'tribe/auth/v1', 'tec/v1', 'wp/v2'],
      authentication: {},
    });
    expect([2, 3]).toContain(response.body.gmt_offset);
    expect(Object.keys(response.body).slice(0, 6)).toEqual(['name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string']);
    expect(response.body.routes['/tec/v1/events']).toMatchObject({ namespace: 'tec/v1', methods: ['GET', 'POST'] });
    expect(response.body.routes['/tec/v1/events/(?P<id>\\d+)']).toMatchObject({
      namespace: 'tec/v1',
      methods: ['GET', 'PUT', 'PATCH', 'DELETE'],
    });
    expect(response.body.routes['/wp/v2/users/me']).toMatchObject({ namespace: 'wp/v2', methods: ['GET'] });
  });

  it('answers users/me for the signed-in user, roles with context=edit, 401 anonymous', async () => {
    const me = await http().get('/wp-json/wp/v2/users/me').set('Authorization', author.authorization).expect(200);
    expect(me.body).toMatchObject({ id: author.id, name: author.login, slug: author.login });
    expect(me.body.roles).toBeUndefined();
    const edit = await http().get('/wp-json/wp/v2/users/me?context=edit').set('Authorization', author.authorization).expect(200);
    expect(edit.body).toMatchObject({ id: author.id, username: author.login, roles: ['author'] });
    const anonymous = await http().get('/wp-json/wp/v2/users/me').expect(401);
    expect(anonymous.body).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
  });

  it('answers settings to administrators only', async () => {
    const settings = await http().get('/wp-json/wp/v2/settings').set('Authorization', admin).expect(200);
    expect(settings.body).toMatchObject({
      title: 'Calendar',
      description: '',
      timezone: 'Europe/Athens',
      timezone_string: 'Europe/Athens',
    });
    expect(typeof settings.body.gmt_offset).toBe('number');
    expect(settings.body.date_format).toBe('F j, Y');
    await http().get('/wp-json/wp/v2/settings').set('Authorization', subscriber.authorization).expect(403);
    await http().get('/wp-json/wp/v2/settings').expect(401);
  });

  // Key names and order from TEC's snapshots (reference tec-v1.md 1.7), with the type of each value.
  const POST_KEYS = ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'content'];
  const LINKED_POST_KEYS = [...POST_KEYS, 'excerpt', 'author', 'featured_media', 'template'];
  const EVENT_KEYS = [
    ...LINKED_POST_KEYS,
    'tags',
    'tribe_events_cat',
    'class_list',
    'start_date',
    'start_date_utc',
    'end_date',
    'end_date_utc',
    'dates',
    'timezone',
    'duration',
    'multiday',
    'is_past',
    'is_now',
    'all_day',
    'starts_this_week',
    'ends_this_week',
    'this_week_duration',
    'happens_this_week',
    'displays_on',
    'featured',
    'sticky',
    'cost',
    'organizer_names',
    'organizers',
    'venues',
    'schedule_details',
    'short_schedule_details',
    'ticketed',
  ];
  const VENUE_KEYS = [
    ...LINKED_POST_KEYS,
    'address',
    'country',
    'city',
    'state_province',
    'state',
    'province',
    'zip',
    'phone',
    'directions_link',
    'website',
  ];
  const ORGANIZER_KEYS = [...LINKED_POST_KEYS, 'phone', 'website', 'email'];
  const TICKET_KEYS = [
    ...POST_KEYS,
    'template',
    'description',
    'on_sale',
    'sale_price',
    'price',
    'regular_price',
    'show_description',
    'start_date',
    'end_date',
    'sale_price_start_date',
    'sale_price_end_date',
    'event_id',
    'manage_stock',
    'stock',
    'sold',
    'sku',
  ];
  const WP_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
  const WALL_CLOCK = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
  const PHP_DATE = {
    date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.000000$/),
    timezone_type: 3,
    timezone: expect.any(String),
  };

  function expectPostEnvelope(body: Record<string, unknown>, type: string): void {
    expect(body).toMatchObject({
      id: expect.any(Number),
      date: expect.stringMatching(WP_DATE),
      date_gmt: expect.stringMatching(WP_DATE),
      guid: { rendered: body.link },
      modified: expect.stringMatching(WP_DATE),
      modified_gmt: expect.stringMatching(WP_DATE),
      slug: expect.any(String),
      status: expect.any(String),
      type,
      link: expect.any(String),
      title: { rendered: expect.any(String) },
      content: { rendered: expect.any(String), protected: false },
    });
  }

  let venue: Record<string, unknown>;
  let organizer: Record<string, unknown>;
  let event: Record<string, unknown>;
  let ticket: Record<string, unknown>;

  it('creates a venue and an organizer: 201, the WordPress post shape in TEC order', async () => {
    const venueResponse = await asAdmin('post', '/venues')
      .send({
        title: 'Main Hall',
        address: '1 Road',
        city: 'Athens',
        state_province: 'Attica',
        zip: '10558',
        country: 'Greece',
        website: 'https://hall.test',
        geo: 'dropped',
      })
      .expect(201);
    venue = venueResponse.body;
    expect(Object.keys(venue)).toEqual(VENUE_KEYS);
    expectPostEnvelope(venue, 'tribe_venue');
    expect(venue).toMatchObject({
      title: { rendered: 'Main Hall' },
      status: 'publish',
      link: 'https://calendar.example.org/venue/main-hall/',
      excerpt: { rendered: '', protected: false },
      author: 1,
      featured_media: 0,
      template: '',
      address: '1 Road',
      city: 'Athens',
      state_province: 'Attica',
      zip: '10558',
      country: 'Greece',
      phone: '',
      website: 'https://hall.test',
    });
    expect(venue.directions_link).toMatch(/^https:\/\/maps\.google\.com\/maps\?f=q&#038;source=s_q/);
    const organizerResponse = await asAdmin('post', '/organizers')
      .send({ title: 'ACME', email: 'info@acme.test', phone: '+30 210 000' })
      .expect(201);
    organizer = organizerResponse.body;
    expect(Object.keys(organizer)).toEqual(ORGANIZER_KEYS);
    expectPostEnvelope(organizer, 'tribe_organizer');
    expect(organizer).toMatchObject({ title: { rendered: 'ACME' }, email: 'info@acme.test', phone: '+30 210 000', website: '' });
  });

  it("creates an event linked by ids: 201, every field of TEC's event in its order and type", async () => {
    const category = await http()
      .post('/wp-json/tribe/events/v1/categories')
      .set('Authorization', admin)
      .send({ name: 'Workshops' })
      .expect(201);
    const response = await asAdmin('post', '/events')
      .send({
        title: 'Workshop',
        content: '<p>Learn</p>',
        excerpt: 'Short',
        start_date: '2027-06-05 12:00:00',
        end_date: '2027-06-05 16:00:00',
        timezone: 'Europe/Athens',
        all_day: false,
        featured: true,
        cost: '$10',
        venues: [venue.id],
        organizers: [organizer.id],
        tribe_events_cat: [category.body.id],
        comment_status: 'open',
        unknown_field: 'dropped',
      })
      .expect(201);
    event = response.body;
    expect(Object.keys(event)).toEqual(EVENT_KEYS);
    expectPostEnvelope(event, 'tribe_events');
    expect(event).toMatchObject({
      status: 'publish',
      title: { rendered: 'Workshop' },
      content: { rendered: '<p>Learn</p>', protected: false },
      tags: [],
      tribe_events_cat: [category.body.id],
      class_list: [`post-${event.id as number}`, 'tribe_events', 'type-tribe_events', 'status-publish', 'hentry'],
      start_date: '2027-06-05 12:00:00',
      start_date_utc: '2027-06-05 09:00:00',
      end_date: '2027-06-05 16:00:00',
      end_date_utc: '2027-06-05 13:00:00',
      timezone: 'Europe/Athens',
      duration: '14400',
      multiday: false,
      is_past: false,
      is_now: false,
      all_day: false,
      starts_this_week: null,
      ends_this_week: null,
      this_week_duration: null,
      happens_this_week: null,
      displays_on: [],
      featured: true,
      sticky: false,
      cost: '$10',
      organizer_names: ['ACME'],
      ticketed: false,
    });
    expect(event.dates).toEqual({
      start: { ...PHP_DATE, date: '2027-06-05 12:00:00.000000', timezone: 'Europe/Athens' },
      start_utc: { ...PHP_DATE, date: '2027-06-05 09:00:00.000000', timezone: 'UTC' },
      start_site: { ...PHP_DATE, date: '2027-06-05 12:00:00.000000', timezone: 'Europe/Athens' },
      start_display: { ...PHP_DATE, date: '2027-06-05 12:00:00.000000', timezone: 'Europe/Athens' },
      end: { ...PHP_DATE, date: '2027-06-05 16:00:00.000000', timezone: 'Europe/Athens' },
      end_utc: { ...PHP_DATE, date: '2027-06-05 13:00:00.000000', timezone: 'UTC' },
      end_site: { ...PHP_DATE, date: '2027-06-05 16:00:00.000000', timezone: 'Europe/Athens' },
      end_display: { ...PHP_DATE, date: '2027-06-05 16:00:00.000000', timezone: 'Europe/Athens' },
    });
    expect(Object.keys(event.dates as object)).toEqual([
      'start',
      'start_utc',
      'start_site',
      'start_display',
      'end',
      'end_utc',
      'end_site',
      'end_display',
    ]);
    expect((event.venues as Array<Record<string, unknown>>).map((item) => Object.keys(item))).toEqual([VENUE_KEYS]);
    expect((event.organizers as Array<Record<string, unknown>>).map((item) => Object.keys(item))).toEqual([ORGANIZER_KEYS]);
    expect(event.schedule_details).toBe(
      '<span class="tribe-event-date-start">June 5, 2027 @ 12:00 pm</span> - <span class="tribe-event-time">4:00 pm</span>',
    );
    expect(event.short_schedule_details).toBe(
      '<span class="tribe-event-date-start">12:00 pm</span> - <span class="tribe-event-time">4:00 pm</span>',
    );
    expect(event.start_date).toMatch(WALL_CLOCK);
    // The same event through the events namespace: one domain, two shapes.
    const tribe = await http()
      .get(`/wp-json/tribe/events/v1/events/${event.id as number}`)
      .expect(200);
    expect(tribe.body).toMatchObject({ title: 'Workshop', start_date: '2027-06-05 12:00:00', featured: true });
  });

  it('creates a Tickets Commerce ticket with event (or event_id), price, stock and sale window', async () => {
    const response = await asAdmin('post', '/tickets')
      .send({
        title: 'General Admission',
        event: event.id,
        price: 25.05,
        sale_price: 20,
        capacity: 100,
        stock_mode: 'own',
        start_date: '2027-05-01 00:00:00',
        end_date: '2027-06-04',
        sku: 'TICKET-123',
        provider: 'Tickets Commerce',
      })
      .expect(201);
    ticket = response.body;
    expect(Object.keys(ticket)).toEqual(TICKET_KEYS);
    expectPostEnvelope(ticket, 'tec_tc_ticket');
    expect(ticket).toMatchObject({
      title: { rendered: 'General Admission' },
      slug: 'general-admission',
      link: `https://calendar.example.org/?post_type=tec_tc_ticket&p=${ticket.id as number}`,
      template: '',
      on_sale: false,
      sale_price: null,
      price: 25.05,
      regular_price: 25.05,
      start_date: '2027-05-01 00:00:00',
      end_date: '2027-06-04 23:59:59',
      sale_price_start_date: null,
      sale_price_end_date: null,
      event_id: event.id,
      manage_stock: true,
      stock: 100,
      sold: 0,
    });
    const mcpStyle = await asAdmin('post', '/tickets')
      .send({ title: 'Free', event_id: event.id, price: 0, provider: 'Tickets Commerce' })
      .expect(201);
    expect(mcpStyle.body).toMatchObject({ event_id: event.id, price: 0, manage_stock: false, stock: null });
    const single = await asAdmin('get', `/tickets/${ticket.id as number}`).expect(200);
    expect(single.body).toMatchObject({ sku: 'TICKET-123', stock: 100 });
    const withTickets = await asAdmin('get', `/events/${event.id as number}`).expect(200);
    expect(withTickets.body.ticketed).toEqual(['tc']);
  });

  it("lists as bare arrays with X-WP-Total, X-WP-TotalPages and Link; a page past the end is 404 with TEC's code", async () => {
    for (const title of ['Second', 'Third']) {
      await asAdmin('post', '/events').send({ title, start_date: '2020-01-01 10:00:00', end_date: '2020-01-01 11:00:00' }).expect(201);
    }
    const first = await http().get(`${TEC}/events`).query({ per_page: 2 }).set(EEA).expect(200);
    expect(Array.isArray(first.body)).toBe(true);
    expect(first.body).toHaveLength(2);
    expect(first.headers['x-wp-total']).toBe('3');
    expect(first.headers['x-wp-totalpages']).toBe('2');
    expect(first.headers.link).toBe(`<https://calendar.example.org${TEC}/events?per_page=2&page=2>; rel="next"`);
    // No implicit upcoming window: past events are listed, in start order.
    expect(first.body.map((item: { title: { rendered: string } }) => item.title.rendered)).toEqual(['Second', 'Third']);
    const second = await http().get(`${TEC}/events?per_page=2&page=2`).set(EEA).expect(200);
    expect(second.body).toHaveLength(1);
    expect(second.headers.link).toBe(`<https://calendar.example.org${TEC}/events?per_page=2&page=1>; rel="prev"`);
    const past = await http().get(`${TEC}/events?per_page=2&page=3`).set(EEA).expect(404);
    expect(past.body).toEqual({
      code: 'tec_rest_organizers_page_not_found',
      message: 'The requested page was not found.',
      data: { status: 404 },
    });
    const upcoming = await http()
      .get(`${TEC}/events`)
      .query({ starts_after: '2026-01-01', include: '1,2', unknown: 'x' })
      .set(EEA)
      .expect(200);
    expect(upcoming.body.map((item: { id: number }) => item.id)).toEqual([event.id]);
    const ids = (response: { body: Array<{ id: number }> }) => response.body.map((item) => item.id);
    const [secondId, thirdId] = first.body.map((item: { id: number }) => item.id);
    // Bounds on the start and the end, and an order only when both orderby and order are sent.
    expect(ids(await http().get(`${TEC}/events?starts_before=2021-01-01`).set(EEA).expect(200))).toEqual([secondId, thirdId]);
    expect(ids(await http().get(`${TEC}/events?ends_after=2027-06-05`).set(EEA).expect(200))).toEqual([event.id]);
    expect(ids(await http().get(`${TEC}/events?orderby=title&order=desc`).set(EEA).expect(200))).toEqual([event.id, thirdId, secondId]);
    expect(ids(await http().get(`${TEC}/events?orderby=title`).set(EEA).expect(200))).toEqual([secondId, thirdId, event.id]);
    expect(ids(await http().get(`${TEC}/events?orderby=date&order=DESC`).set(EEA).expect(200))).toEqual([thirdId, secondId, event.id]);
    const badOrder = await http().get(`${TEC}/events?orderby=price&order=asc`).set(EEA).expect(400);
    expect(badOrder.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { orderby: expect.any(String) } } });
    const tooMany = await http().get(`${TEC}/events?per_page=101`).set(EEA).expect(400);
    expect(tooMany.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { per_page: expect.any(String) } } });
    const search = await http().get(`${TEC}/events?search=workshop`).set(EEA).expect(200);
    expect(search.body.map((item: { id: number }) => item.id)).toEqual([event.id]);
    const byVenue = await http()
      .get(`${TEC}/events?venue=${venue.id as number}`)
      .set(EEA)
      .expect(200);
    expect(byVenue.body).toHaveLength(1);
    const venues = await http().get(`${TEC}/venues`).set(EEA).expect(200);
    expect(venues.headers['x-wp-total']).toBe('1');
    expect(venues.body.map((item: Record<string, unknown>) => Object.keys(item))).toEqual([VENUE_KEYS]);
    const organizers = await http().get(`${TEC}/organizers?search=acme`).set(EEA).expect(200);
    expect(organizers.body).toHaveLength(1);
    const tickets = await http()
      .get(`${TEC}/tickets`)
      .query({ event: event.id, orderby: 'title', order: 'asc' })
      .set(EEA)
      .set('Authorization', admin)
      .expect(200);
    expect(tickets.body.map((item: { title: { rendered: string } }) => item.title.rendered)).toEqual(['Free', 'General Admission']);
    expect(tickets.headers['x-wp-total']).toBe('2');
  });

  it('keeps drafts from anonymous lists; status[] beyond publish for callers who may edit', async () => {
    const draft = await asAdmin('post', '/events')
      .send({ title: 'Draft', status: 'draft', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00' })
      .expect(201);
    const anonymous = await http().get(`${TEC}/events?status=draft`).set(EEA);
    expect(anonymous.status === 200 ? anonymous.body.map((item: { id: number }) => item.id) : []).not.toContain(draft.body.id);
    const editor = await asAdmin('get', '/events?status=draft').expect(200);
    expect(editor.body.map((item: { id: number }) => item.id)).toEqual([draft.body.id]);
  });

  it('updates with PUT and PATCH alike, partially', async () => {
    const put = await asAdmin('put', `/events/${event.id as number}`)
      .send({ title: 'New title' })
      .expect(200);
    expect(put.body).toMatchObject({ title: { rendered: 'New title' }, featured: true, start_date: '2027-06-05 12:00:00' });
    const patch = await asAdmin('patch', `/events/${event.id as number}`)
      .send({ featured: false, tags: [] })
      .expect(200);
    expect(patch.body).toMatchObject({ title: { rendered: 'New title' }, featured: false });
    const venuePatch = await asAdmin('patch', `/venues/${venue.id as number}`)
      .send({ city: 'Patras' })
      .expect(200);
    expect(venuePatch.body).toMatchObject({ city: 'Patras', title: { rendered: 'Main Hall' } });
    const ticketPut = await asAdmin('put', `/tickets/${ticket.id as number}`)
      .send({ price: 30, capacity: 50 })
      .expect(200);
    expect(ticketPut.body).toMatchObject({ price: 30, stock: 50, event_id: event.id });
    // The event of a ticket is fixed once created.
    const other = await asAdmin('post', '/events')
      .send({ title: 'Other', start_date: '2027-02-01 10:00:00', end_date: '2027-02-01 11:00:00' })
      .expect(201);
    const moved = await asAdmin('patch', `/tickets/${ticket.id as number}`)
      .send({ event: other.body.id })
      .expect(400);
    expect(moved.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { event: expect.any(String) } } });
  });

  it("answers the status codes of TEC's table", async () => {
    // Create without required fields: the fields named as tec/v1 names them.
    const missing = await asAdmin('post', '/tickets').send({ title: 'No event' }).expect(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['event'] } });
    const badDate = await asAdmin('post', '/events')
      .send({ title: 'Bad', start_date: 'not a date', end_date: '2027-01-01 10:00:00' })
      .expect(400);
    expect(badDate.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    expect(Object.keys(badDate.body.data.params as object)).toEqual(['start_date']);
    // Not found: TEC's {"error"} bodies, worded per operation.
    expect((await asAdmin('get', '/events/999999').expect(404)).body).toEqual({ error: 'The entity could not be read.' });
    expect((await asAdmin('put', '/venues/999999').send({ title: 'x' }).expect(404)).body).toEqual({
      error: 'The entity could not be updated.',
    });
    expect((await asAdmin('delete', '/organizers/999999').expect(404)).body).toEqual({ error: 'The entity could not be deleted.' });
    expect((await asAdmin('get', '/tickets/999999').expect(404)).body).toEqual({ error: 'The entity could not be read.' });
    // Delete: 200 [], trash first; again 410; force=true deletes for good.
    const doomed = await asAdmin('post', '/organizers').send({ title: 'Doomed' }).expect(201);
    expect((await asAdmin('delete', `/organizers/${doomed.body.id as number}`).expect(200)).body).toEqual([]);
    expect((await asAdmin('delete', `/organizers/${doomed.body.id as number}`).expect(410)).body).toEqual({
      error: 'The entity has already been trashed.',
    });
    expect((await asAdmin('delete', `/organizers/${doomed.body.id as number}?force=true`).expect(200)).body).toEqual([]);
    await asAdmin('get', `/organizers/${doomed.body.id as number}`).expect(404);
    const free = await asAdmin('get', `/tickets?event=${event.id as number}&search=Free`).expect(200);
    expect((await asAdmin('delete', `/tickets/${free.body[0].id as number}`).expect(200)).body).toEqual([]);
    // Non-numeric ids are no route, as WordPress's \d+ pattern.
    await asAdmin('get', '/events/abc').expect(404);
  });

  it('checks the permission first, then the header, then the input', async () => {
    const gateSentence = { code: 'missing_experimental_endpoint_acknowledgement', data: { status: 400 } };
    const noHeader = await http().get(`${TEC}/events`).expect(400);
    expect(noHeader.body).toEqual({ ...gateSentence, message: 'Experimental endpoint requires acknowledgement header.' });
    const wrong = await http().get(`${TEC}/events`).set('X-TEC-EEA', 'yes').expect(400);
    expect(wrong.body).toEqual({ ...gateSentence, message: 'Experimental endpoint requires appropriate acknowledgement header.' });
    // Trimmed and case-insensitive.
    await http().get(`${TEC}/venues`).set('X-TEC-EEA', `  ${TEC_ACKNOWLEDGEMENT.toUpperCase()}  `).expect(200);
    // Anonymous write without the header: 401 first; signed in without the right: 403.
    expect((await http().post(`${TEC}/events`).send({}).expect(401)).body).toMatchObject({ code: 'rest_forbidden' });
    expect((await http().post(`${TEC}/events`).set(EEA).send({ title: 'x' }).expect(401)).body).toMatchObject({ code: 'rest_forbidden' });
    await http().post(`${TEC}/venues`).set('Authorization', subscriber.authorization).send({ title: 'x' }).expect(403);
    await http()
      .delete(`${TEC}/events/${event.id as number}`)
      .set('Authorization', subscriber.authorization)
      .expect(403);
    // Allowed, no header: 400 before the body is looked at.
    expect((await http().post(`${TEC}/events`).set('Authorization', admin).send({}).expect(400)).body.code).toBe(
      'missing_experimental_endpoint_acknowledgement',
    );
    // With the header, then the validation.
    expect((await asAdmin('post', '/events').send({}).expect(400)).body.code).toBe('rest_missing_callback_param');
    // /docs needs no header.
    await http().get(`${TEC}/docs`).expect(200);
  });

  it('serves its OpenAPI document at /docs, and its index', async () => {
    const docs = await http().get(`${TEC}/docs`).expect(200);
    expect(docs.body.openapi).toMatch(/^3\./);
    expect(docs.body.servers).toEqual([{ url: `https://calendar.example.org${TEC}/` }]);
    expect(Object.keys(docs.body.paths)).toEqual(
      expect.arrayContaining([
        '/',
        '/docs',
        '/events',
        '/events/{id}',
        '/venues',
        '/venues/{id}',
        '/organizers',
        '/organizers/{id}',
        '/tickets',
        '/tickets/{id}',
      ]),
    );
    expect(Object.keys(docs.body.paths['/events/{id}'])).toEqual(['get', 'put', 'patch', 'delete']);
    expect(docs.body.components.schemas.TecEvent.properties).toHaveProperty('schedule_details');
    const index = await http().get(TEC).expect(200);
    expect(index.body.namespace).toBe('tec/v1');
    expect(index.body.routes['/tec/v1/tickets/(?P<id>\\d+)'].methods).toEqual(['GET', 'PUT', 'PATCH', 'DELETE']);
  });
});
