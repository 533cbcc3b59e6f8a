import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { CORS_EXPOSED_HEADERS } from '../src/common/security/http-security';
import { createTestApp, TestApp } from './helpers/test-app';

/** Sets `variables` for the app created inside `build`, then puts the environment back. */
async function withEnv<T>(variables: Record<string, string>, build: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return await build();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** `Content-Security-Policy` as directive → sources. */
function parseCsp(header: string | undefined): Record<string, string[]> {
  const directives: Record<string, string[]> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives[name] = sources;
  }
  return directives;
}

/** The sources a directive falls back to, as browsers resolve them. */
function sourcesFor(csp: Record<string, string[]>, directive: string): string[] {
  return csp[directive] ?? csp['default-src'] ?? [];
}

const EXPOSED_BY_THE_BRIEF = [
  'X-TEC-Total',
  'X-TEC-TotalPages',
  'X-ET-TOTAL',
  'X-ET-TOTAL-PAGES',
  'X-Cart-Token',
  'X-Request-Id',
  'Location',
];

describe('Security headers and CORS (e2e)', () => {
  describe('with the default settings', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await createTestApp();
    });

    afterAll(async () => {
      await testApp.close();
    });

    const http = () => request(testApp.server);

    it.each([
      ['a list', '/cal/events/v1/events', 200],
      ['an unknown route', '/cal/events/v1/nowhere', 404],
      ['a refused request', '/cal/tickets/v1/nonces', 401],
    ])('answers %s with headers for a JSON API: nothing may run, frame or sniff it', async (_case, path, status) => {
      const response = await http().get(path).expect(status);
      expect(parseCsp(response.headers['content-security-policy'])).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
        'cross-origin-opener-policy': 'same-origin',
      });
      expect(response.headers['x-powered-by']).toBeUndefined();
    });

    it('keeps the documentation page working under its own policy: every script and style it loads is allowed', async () => {
      const page = await http().get('/docs').expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('swagger-ui');
      const csp = parseCsp(page.headers['content-security-policy']);
      expect(csp['upgrade-insecure-requests']).toBeUndefined();

      const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        const src = /src=["']([^"']+)["']/.exec(attributes)?.[1];
        // Inline scripts would need 'unsafe-inline' or a hash, which the policy does not give.
        expect({ inline: body.trim() }).toEqual({ inline: '' });
        expect(src).toBeDefined();
        const url = new URL(src as string, 'http://docs.test/docs');
        expect(url.origin).toBe('http://docs.test');
        expect(sourcesFor(csp, 'script-src')).toContain("'self'");
        const asset = await http().get(url.pathname).expect(200);
        expect(asset.headers['content-type']).toMatch(/javascript/);
      }
      for (const [, href] of page.text.matchAll(/<link[^>]*rel=["']stylesheet["'][^>]*href=["']([^"']+)["']/g)) {
        const url = new URL(href, 'http://docs.test/docs');
        expect(url.origin).toBe('http://docs.test');
        expect(sourcesFor(csp, 'style-src')).toContain("'self'");
        await http().get(url.pathname).expect(200);
      }
      if (/<style[\s>]|style="/.test(page.text)) expect(sourcesFor(csp, 'style-src')).toContain("'unsafe-inline'");
      expect(sourcesFor(csp, 'img-src')).toEqual(expect.arrayContaining(["'self'", 'data:']));
      // The page fetches nothing from elsewhere: its document is inlined in the init script.
      expect(sourcesFor(csp, 'connect-src')).toEqual(["'self'"]);
    });

    it('documents the 429 of the limits on every route of both namespaces, in a valid document', async () => {
      for (const namespace of ['events', 'tickets']) {
        const document = (await http().get(`/cal/${namespace}/v1/doc`).expect(200)).body as {
          paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
        };
        const operations = Object.entries(document.paths).flatMap(([path, item]) =>
          Object.entries(item).map(([method, operation]) => ({ route: `${method} ${path}`, operation })),
        );
        expect(operations.length).toBeGreaterThan(5);
        const undocumented = operations.filter(({ operation }) => !operation.responses['429']).map(({ route }) => route);
        expect(undocumented).toEqual([]);
        await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
      }
    });

    it('lets any origin read the API without credentials, exposing the paging, cart and tracing headers', async () => {
      const response = await http().get('/cal/events/v1/events').set('Origin', 'https://widget.example.net').expect(200);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      const exposed = response.headers['access-control-expose-headers'].split(',');
      expect(exposed).toEqual(expect.arrayContaining(EXPOSED_BY_THE_BRIEF));
      expect(exposed).toEqual(CORS_EXPOSED_HEADERS);
    });

    it('answers a preflight for an authenticated write', async () => {
      const response = await http()
        .options('/cal/tickets/v1/cart')
        .set('Origin', 'https://widget.example.net')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type,x-cart-token,idempotency-key')
        .expect(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
      expect(response.headers['access-control-allow-headers']).toBe('authorization,content-type,x-cart-token,idempotency-key');
      expect(response.headers['access-control-max-age']).toBe('600');
    });

    it('sends no CORS headers to a same-origin request (no Origin)', async () => {
      const response = await http().get('/cal/events/v1/events').expect(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('with CORS_ORIGINS', () => {
    const SHOP = 'https://shop.example.org';
    let listedOnly: TestApp;
    let listedAndAny: TestApp;

    beforeAll(async () => {
      listedOnly = await withEnv({ CORS_ORIGINS: `${SHOP},http://localhost:8080` }, () => createTestApp());
      listedAndAny = await withEnv({ CORS_ORIGINS: `${SHOP},*` }, () => createTestApp());
    });

    afterAll(async () => {
      await listedOnly.close();
      await listedAndAny.close();
    });

    it('echoes a listed origin with credentials, so that its pages may send the cart cookie', async () => {
      const response = await request(listedOnly.server).get('/cal/tickets/v1/cart').set('Origin', SHOP).expect(200);
      expect(response.headers['access-control-allow-origin']).toBe(SHOP);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(response.headers.vary).toMatch(/Origin/);
      const preflight = await request(listedOnly.server)
        .options('/cal/tickets/v1/cart')
        .set('Origin', SHOP)
        .set('Access-Control-Request-Method', 'POST')
        .expect(204);
      expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    });

    it('gives an unlisted origin nothing when * is not listed', async () => {
      const response = await request(listedOnly.server).get('/cal/events/v1/events').set('Origin', 'https://evil.example').expect(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      const preflight = await request(listedOnly.server)
        .options('/cal/tickets/v1/cart')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('gives an unlisted origin * without credentials when * is listed, varying on Origin for caches', async () => {
      const other = await request(listedAndAny.server).get('/cal/events/v1/events').set('Origin', 'https://widget.example.net').expect(200);
      expect(other.headers['access-control-allow-origin']).toBe('*');
      expect(other.headers['access-control-allow-credentials']).toBeUndefined();
      expect(other.headers.vary).toMatch(/Origin/);
      const listed = await request(listedAndAny.server).get('/cal/events/v1/events').set('Origin', SHOP).expect(200);
      expect(listed.headers['access-control-allow-origin']).toBe(SHOP);
      expect(listed.headers['access-control-allow-credentials']).toBe('true');
    });
  });
});
