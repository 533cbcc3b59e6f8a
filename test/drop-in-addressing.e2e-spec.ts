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

  it('serves the root index at /wp-json/: the namespaces and all their routes, as WordPress does', async () => {
    for (const path of ['/wp-json/', '/wp-json', '/?rest_route=/']) {
      const response = await http().get(path).expect(200);
      expect(response.body).toMatchObject({
        url: 'https://calendar.example.org',
        home: 'https://calendar.example.org',
        namespaces: ['tribe/events/v1', 'tribe/tickets/v1', 'tribe/auth/v1', 'tec/v1', 'wp/v2'],
        _links: { help: [{ href: 'https://calendar.example.org/wp-json/docs' }] },
      });
      const routes = response.body.routes as Record<string, { namespace: string; methods: string[] }>;
      expect(routes['/']).toMatchObject({
        namespace: '',
        methods: ['GET'],
        _links: { self: [{ href: 'https://calendar.example.org/wp-json/' }] },
      });
      expect(routes['/tribe/events/v1']).toMatchObject({ namespace: 'tribe/events/v1', methods: ['GET'] });
      expect(routes['/tribe/tickets/v1/tickets/(?P<id>\\d+)']).toMatchObject({ namespace: 'tribe/tickets/v1' });
      expect(routes['/tribe/events/v1/events']).toMatchObject({ namespace: 'tribe/events/v1', methods: ['GET', 'POST'] });
    }
    // Each namespace index links up to it.
    const index = await http().get('/wp-json/tribe/tickets/v1').expect(200);
    expect(index.body._links.up).toEqual([{ href: 'https://calendar.example.org/wp-json/' }]);
  });

  it('answers a namespace index asked for a namespace it does not have with 404 rest_invalid_namespace, as WordPress', async () => {
    const unknown = await http().get('/wp-json/tribe/events/v1').query({ namespace: 'acme/v1' }).expect(404);
    expect(unknown.body).toEqual({
      code: 'rest_invalid_namespace',
      message: 'The specified namespace could not be found.',
      data: { status: 404 },
    });
    const other = await http().get('/wp-json/tribe/events/v1').query({ namespace: 'tribe/tickets/v1' }).expect(200);
    expect(other.body.namespace).toBe('tribe/tickets/v1');
    expect(Object.keys(other.body.routes)).toContain('/tribe/tickets/v1/cart');
    const own = await http().get('/wp-json/tribe/tickets/v1').query({ namespace: 'tribe/tickets/v1' }).expect(200);
    expect(own.body.namespace).toBe('tribe/tickets/v1');
    // Paths that no route matches stay rest_no_route, in a known namespace or not (WordPress matches routes, not namespaces).
    for (const path of ['/wp-json/wp/v2/posts', '/wp-json/tribe/events/v1/nothing-here', '/wp-json/tribe/events/v2']) {
      expect((await http().get(path).expect(404)).body.code).toBe('rest_no_route');
    }
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
