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
      namespaces: ['tribe/events/v1', 'tribe/tickets/v1', 'tec/v1', 'wp/v2'],
      authentication: {},
    });
    expect([2, 3]).toContain(response.body.gmt_offset);
    expect(Object.keys(response.body).slice(0, 6)).toEqual(['name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string']);
    expect(response.body.routes['/tec/v1/events']).toMatchObject({ namespace: 'tec/v1', methods: ['GET', 'POST'] });
    expect(response.body.routes['/tec/v1/events/(?P<id>\\d+)']).toMatchObject({ namespace: 'tec/v1', methods: ['GET', 'PUT', 'PATCH', 'DELETE'] });
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
    expect(settings.body).toMatchObject({ title: 'Calendar', description: '', timezone: 'Europe/Athens', timezone_string: 'Europe/Athens' });
    expect(typeof settings.body.gmt_offset).toBe('number');
    expect(settings.body.date_format).toBe('F j, Y');
    await http().get('/wp-json/wp/v2/settings').set('Authorization', subscriber.authorization).expect(403);
    await http().get('/wp-json/wp/v2/settings').expect(401);
  });

  it('creates, reads, updates and deletes an event with its venue and organizer', async () => {
    const venue = await asAdmin('post', '/venues').send({ title: 'Main Hall', address: '1 Road', city: 'Athens', zip: '10558', country: 'Greece' });
    expect(venue.status).toBe(201);
    const organizer = await asAdmin('post', '/organizers').send({ title: 'ACME', email: 'info@acme.test' });
    expect(organizer.status).toBe(201);
    const created = await asAdmin('post', '/events').send({
      title: 'Workshop',
      content: '<p>Learn</p>',
      start_date: '2027-06-05 12:00:00',
      end_date: '2027-06-05 16:00:00',
      timezone: 'Europe/Athens',
      cost: '$10',
      venues: [venue.body.id],
      organizers: [organizer.body.id],
    });
    expect(created.status).toBe(201);
    console.log(JSON.stringify(created.body, null, 1));
    const list = await asAdmin('get', '/events').expect(200);
    console.log(list.headers, list.body.length);
  });
});
