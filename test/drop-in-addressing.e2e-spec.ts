import request from 'supertest';
import { createTestApp, TestApp } from './helpers/test-app';

// Set before the app reads its configuration.
process.env.API_ROOT = '/wp-json';
process.env.API_PREFIX = 'tribe';
process.env.PUBLIC_URL = 'https://calendar.example.org';

describe('Addressing with API_ROOT, API_PREFIX and PUBLIC_URL (e2e)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);

  it('serves the namespaces under the original paths, with absolute URLs from PUBLIC_URL', async () => {
    const response = await http().get('/wp-json/tribe/events/v1').expect(200);
    expect(response.body.namespace).toBe('tribe/events/v1');
    expect(response.body._links).toEqual({ up: [{ href: 'https://calendar.example.org/wp-json/' }] });
    expect(response.body.routes['/tribe/events/v1/doc']._links.self).toEqual([
      { href: 'https://calendar.example.org/wp-json/tribe/events/v1/doc' },
    ]);
  });

  it('points the doc servers at the drop-in namespace', async () => {
    const response = await http().get('/wp-json/tribe/tickets/v1/doc').expect(200);
    expect(response.body.servers).toEqual([{ url: 'https://calendar.example.org/wp-json/tribe/tickets/v1/' }]);
    expect(Object.keys(response.body.paths)).toContain('/nonces');
  });

  it('no longer answers the default paths', async () => {
    const response = await http().get('/cal/events/v1').expect(404);
    expect(response.body.code).toBe('rest_no_route');
  });

  it('keeps health outside the API root and the docs page under it', async () => {
    await http().get('/health').expect(200);
    await http().get('/wp-json/docs').expect(200);
  });
});
