import request from 'supertest';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';

// Native addressing (API_ROOT empty), with the acknowledgement requirement turned off.
process.env.TEC_V1_REQUIRE_ACKNOWLEDGEMENT = 'false';

describe('tec/v1 under the native API root, without the acknowledgement requirement (e2e)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(() => testApp.close());

  const http = () => request(testApp.server);

  it('serves tec/v1 and wp/v2 beside the cal namespaces, whatever API_PREFIX is', async () => {
    const root = await http().get('/').expect(200);
    expect(root.body.namespaces).toEqual(['cal/events/v1', 'cal/tickets/v1', 'cal/auth/v1', 'tec/v1', 'wp/v2']);
    await http().get('/wp/v2/users/me').set('Authorization', basicAuth(ADMIN.login, ADMIN.password)).expect(200);
    const docs = await http().get('/tec/v1/docs').expect(200);
    expect(docs.body.servers[0].url).toMatch(/\/tec\/v1\/$/);
    await http().get('/cal/tec/v1/events').expect(404);
  });

  it('answers without X-TEC-EEA when TEC_V1_REQUIRE_ACKNOWLEDGEMENT=false', async () => {
    const created = await http()
      .post('/tec/v1/venues')
      .set('Authorization', basicAuth(ADMIN.login, ADMIN.password))
      .send({ title: 'No header hall' })
      .expect(201);
    const list = await http().get('/tec/v1/venues').expect(200);
    expect(list.body.map((venue: { id: number }) => venue.id)).toEqual([created.body.id]);
    expect(list.headers['x-wp-total']).toBe('1');
    // The permission still comes first.
    await http().post('/tec/v1/venues').send({ title: 'x' }).expect(401);
  });
});
