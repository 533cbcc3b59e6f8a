import request from 'supertest';
import { ApiToken } from '../src/auth/api-token.entity';
import { User } from '../src/auth/user.entity';
import { insertEvent } from './helpers/fixtures';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const AUTH_NS = '/cal/auth/v1';
const EVENTS_NS = '/cal/events/v1';
const TICKETS_NS = '/cal/tickets/v1';
const admin = basicAuth(ADMIN.login, ADMIN.password);

/** API tokens (docs/tokens.md): the management routes, Bearer authentication and the scope guard. */
describe('API tokens (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    author = await createUser(testApp, 'author');
  });

  afterAll(() => testApp.close());

  const bearer = (secret: string) => `Bearer ${secret}`;

  async function createToken(
    authorization: string,
    body: Record<string, unknown>,
  ): Promise<{ id: number; token: string } & Record<string, unknown>> {
    const response = await request(testApp.server).post(`${AUTH_NS}/tokens`).set('Authorization', authorization).send(body);
    if (response.status !== 201) throw new Error(`token creation failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as { id: number; token: string };
  }

  describe('creating and reading', () => {
    it('shows the secret once, in the 201, and stores only its hash', async () => {
      const created = await createToken(admin, { name: 'Dashboard', preset: 'read_only_reporting' });
      expect(created).toMatchObject({
        name: 'Dashboard',
        scopes: ['events:read', 'tickets:read', 'reports:read'],
        preset: 'read_only_reporting',
        all_events: true,
        limit_events: [],
        pii: 'redacted',
        expires_at: null,
        allowed_ips: [],
        last_used_at: null,
        revoked_at: null,
      });
      expect(created.token).toMatch(/^cal_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
      expect(created.token.slice(4, 12)).toBe(created.prefix);
      const read = await request(testApp.server).get(`${AUTH_NS}/tokens/${created.id}`).set('Authorization', admin).expect(200);
      expect(read.body).not.toHaveProperty('token');
      expect(JSON.stringify(read.body)).not.toContain(created.token);
      const row = await testApp.dataSource.getRepository(ApiToken).findOneByOrFail({ id: created.id });
      expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(created.token);
    });

    it('is listed in the auth namespace index beside the others', async () => {
      const root = await request(testApp.server).get('/').expect(200);
      expect(root.body.namespaces).toContain('cal/auth/v1');
      expect(Object.keys(root.body.routes)).toEqual(expect.arrayContaining(['/cal/auth/v1/tokens', '/cal/auth/v1/tokens/(?P<id>\\d+)']));
      const doc = await request(testApp.server).get(`${AUTH_NS}/doc`).expect(200);
      expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/tokens', '/tokens/{id}', '/tokens/{id}/revoke']));
      expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    });
  });
});
