import { join } from 'node:path';
import request from 'supertest';
import { runCli } from '../src/cli';
import { createTestApp, TestApp } from './helpers/test-app';

// The CLI opens its own connection, so on SQLite both must share a file rather than memory.
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'cli.sqlite')}`;
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('Command line tool (e2e)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

  it('creates a user whose application password authenticates over HTTP', async () => {
    const result = await cli('user:create', '--login', 'carol', '--role', 'author', '--email', 'carol@example.org');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(created).toEqual({
      id: expect.any(Number),
      login: 'carol',
      role: 'author',
      email: 'carol@example.org',
      application_password: expect.stringMatching(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/),
      uuid: expect.any(String),
    });
    await request(testApp.server)
      .get('/cal/tickets/v1/nonces')
      .set('Authorization', basic('carol', created.application_password))
      .expect(200);
  });

  it('lists users', async () => {
    const result = await cli('user:list');
    expect(result.code).toBe(0);
    const users = JSON.parse(result.stdout);
    expect(users).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ login: 'admin', role: 'administrator' }),
        expect.objectContaining({ login: 'carol' }),
      ]),
    );
  });

  it('issues and revokes further application passwords', async () => {
    const issued = JSON.parse((await cli('app-password:create', '--login', 'carol', '--name', 'laptop')).stdout);
    expect(issued).toMatchObject({ login: 'carol', name: 'laptop' });
    const auth = basic('carol', issued.application_password);
    await request(testApp.server).get('/cal/tickets/v1/nonces').set('Authorization', auth).expect(200);
    const revoked = await cli('app-password:revoke', '--uuid', issued.uuid);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: 1 });
    await request(testApp.server).get('/cal/tickets/v1/nonces').set('Authorization', auth).expect(401);
  });

  it('refuses a duplicate login, an unknown role and a missing option with a message and exit code 1', async () => {
    const duplicate = await cli('user:create', '--login', 'carol', '--role', 'author');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already exists');
    const badRole = await cli('user:create', '--login', 'dave', '--role', 'king');
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain('role must be one of');
    const missing = await cli('user:create', '--login', 'erin');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--role');
    const revokeBoth = await cli('app-password:revoke');
    expect(revokeBoth.code).toBe(1);
  });

  it('prints help listing the commands', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const command of ['user:create', 'user:list', 'app-password:create', 'app-password:revoke']) {
      expect(help.stdout).toContain(command);
    }
  });
});
