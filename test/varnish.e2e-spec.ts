import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutboxWorker } from '../src/outbox-worker/outbox-worker.service';
import { freePort } from './helpers/private-mariadb';
import { ADMIN, basicAuth, createTestApp, TestApp } from './helpers/test-app';

/**
 * A real Varnish (Debian's varnish + varnish-modules for xkey) in front of the service, with the
 * VCL docs/caching.md documents (docs/varnish/cal.vcl): an anonymous page is kept, a write purges
 * it by surrogate key (PURGE_URL pointing at this Varnish, sent by the outbox worker), the next read
 * through Varnish shows the change, and a signed-in read is never kept.
 */
const VARNISHD = '/usr/sbin/varnishd';
const admin = basicAuth(ADMIN.login, ADMIN.password);
const EVENTS = '/cal/events/v1';

if (!existsSync(VARNISHD)) {
  // .ci/run installs it; a laptop without Varnish skips this file and says so.
  process.stderr.write(`test/varnish.e2e-spec.ts skipped: ${VARNISHD} is not installed (apt-get install varnish varnish-modules)\n`);
}
const describeWithVarnish = existsSync(VARNISHD) ? describe : describe.skip;

function daysAhead(days: number, time = '19:00:00'): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${time}`;
}

describeWithVarnish('Varnish in front of the service (e2e)', () => {
  let testApp: TestApp;
  let varnish: ChildProcess;
  let workDir: string;
  let cacheUrl: string;
  let appUrl: string;
  let varnishLog = '';

  beforeAll(async () => {
    const varnishPort = await freePort();
    cacheUrl = `http://127.0.0.1:${varnishPort}`;
    process.env.PURGE_URL = `${cacheUrl}/`;
    process.env.PUBLIC_URL = 'https://calendar.example.org';
    try {
      testApp = await createTestApp();
    } finally {
      delete process.env.PURGE_URL;
      delete process.env.PUBLIC_URL;
    }
    await new Promise<void>((resolve) => testApp.server.listen(0, '127.0.0.1', resolve));
    const appPort = (testApp.server.address() as AddressInfo).port;
    appUrl = `http://127.0.0.1:${appPort}`;

    workDir = mkdtempSync(join(tmpdir(), 'cal-varnish-'));
    // varnishd reads the VCL after dropping its privileges (to its own users when started as root).
    chmodSync(workDir, 0o755);
    const vcl = readFileSync(join(__dirname, '..', 'docs', 'varnish', 'cal.vcl'), 'utf8').replace(
      '.port = "3000";',
      `.port = "${appPort}";`,
    );
    writeFileSync(join(workDir, 'cal.vcl'), vcl);
    varnish = spawn(
      VARNISHD,
      ['-F', '-a', `127.0.0.1:${varnishPort}`, '-f', join(workDir, 'cal.vcl'), '-n', join(workDir, 'n'), '-s', 'malloc,32m'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    varnish.stdout?.on('data', (chunk: Buffer) => (varnishLog += chunk.toString()));
    varnish.stderr?.on('data', (chunk: Buffer) => (varnishLog += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await fetch(`${cacheUrl}${EVENTS}/events`).catch(() => null);
      if (answer?.status === 200) break;
      if (varnish.exitCode !== null || Date.now() > deadline)
        throw new Error(`varnishd did not start or answer within 30 s:\n${varnishLog}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);

  afterAll(async () => {
    if (varnish?.pid && varnish.exitCode === null) {
      varnish.kill('SIGTERM');
      await new Promise((resolve) => varnish.once('exit', resolve));
    }
    if (workDir) rmSync(workDir, { recursive: true, force: true });
    await testApp?.close();
  });

  const throughCache = (path: string, headers: Record<string, string> = {}) => fetch(`${cacheUrl}${path}`, { headers });

  async function write(path: string, body: Record<string, unknown>, expected: number): Promise<Record<string, any>> {
    const answer = await fetch(`${appUrl}${EVENTS}/${path}`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(expected);
    return (await answer.json()) as Record<string, any>;
  }

  it('keeps an anonymous page, purges it by key after a write, and shows the change on the next read', async () => {
    const venue = await write('venues', { venue: 'Old hall', city: 'Lyon' }, 201);
    const event = await write(
      'events',
      { title: 'Through Varnish', start_date: daysAhead(3), end_date: daysAhead(3, '22:00:00'), venue: venue.id },
      201,
    );
    await testApp.app.get(OutboxWorker).drain();
    const single = `${EVENTS}/events/${event.id}`;

    const first = await throughCache(single);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('xkey')).toBeNull();
    const second = await throughCache(single);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(((await second.json()) as { venue: { venue: string } }).venue.venue).toBe('Old hall');

    // A list too.
    await throughCache(`${EVENTS}/events`);
    expect((await throughCache(`${EVENTS}/events`)).headers.get('x-cache')).toBe('HIT');

    // A write the page shows (its venue's name), made on the service; the worker sends the purge to Varnish.
    await write(`venues/${venue.id}`, { venue: 'New hall' }, 200);
    const stale = await throughCache(single);
    expect(stale.headers.get('x-cache')).toBe('HIT'); // not purged until the outbox is delivered
    await testApp.app.get(OutboxWorker).drain();

    const fresh = await throughCache(single);
    expect(fresh.headers.get('x-cache')).toBe('MISS');
    expect(((await fresh.json()) as { venue: { venue: string } }).venue.venue).toBe('New hall');
    expect((await throughCache(`${EVENTS}/events`)).headers.get('x-cache')).toBe('MISS');
  });

  it('never keeps a signed-in caller’s answer, nor serves them the anonymous one', async () => {
    const draft = await write(
      'events',
      { title: 'Draft', status: 'draft', start_date: daysAhead(4), end_date: daysAhead(4, '22:00:00') },
      201,
    );
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const signedIn = await throughCache(`${EVENTS}/events?status=draft`, { authorization: admin });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('x-cache')).toBe('MISS');
      expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');
      expect(((await signedIn.json()) as { events: Array<{ id: number }> }).events.map((entry) => entry.id)).toContain(draft.id);
    }
    // The anonymous answer to the same URL does not show the draft, whatever was asked before.
    const anonymous = await throughCache(`${EVENTS}/events?status=draft`);
    expect(anonymous.status).not.toBe(200);
  });

  it('refuses a purge without keys', async () => {
    const answer = await fetch(`${cacheUrl}/`, { method: 'PURGE' });
    expect(answer.status).toBe(400);
  });
});
