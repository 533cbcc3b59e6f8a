import { join } from 'node:path';
import request from 'supertest';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';

/**
 * Revoking an API token holds at once on another instance (issue 43): two apps on one database
 * (MariaDB when TEST_DATABASE_URL is set, else one SQLite file), as behind a load balancer. No
 * instance keeps a copy of a token between requests, so there is nothing to invalidate.
 */
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'tokens-instances.sqlite')}`;
}

const admin = basicAuth(ADMIN.login, ADMIN.password);

describe('API tokens on two instances (e2e)', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ keepTables: true });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('refuses a token on the other instance as soon as it is revoked or deleted', async () => {
    const path = '/cal/events/v1/events';
    const create = async (name: string, scopes: string[]) =>
      (await request(first.server).post('/cal/auth/v1/tokens').set('Authorization', admin).send({ name, scopes }).expect(201)).body as {
        id: number;
        token: string;
      };

    const revoked = await create('Revoked elsewhere', ['events:read']);
    await request(second.server).get(path).set('Authorization', `Bearer ${revoked.token}`).expect(200);
    await request(first.server).post(`/cal/auth/v1/tokens/${revoked.id}/revoke`).set('Authorization', admin).expect(200);
    const refused = await request(second.server).get(path).set('Authorization', `Bearer ${revoked.token}`).expect(401);
    expect(refused.body.code).toBe('invalid_token');
    expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

    const deleted = await create('Deleted elsewhere', ['events:read']);
    await request(second.server).get(path).set('Authorization', `Bearer ${deleted.token}`).expect(200);
    await request(first.server).delete(`/cal/auth/v1/tokens/${deleted.id}`).set('Authorization', admin).expect(200);
    expect((await request(second.server).get(path).set('Authorization', `Bearer ${deleted.token}`).expect(401)).body.code).toBe(
      'invalid_token',
    );
  });
});
