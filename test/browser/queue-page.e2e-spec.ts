import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { QueueTicker } from '../../src/queues/queue-ticker.service';
import { insertEvent } from '../helpers/fixtures';
import { ADMIN, basicAuth, createTestApp, TestApp } from '../helpers/test-app';
import { insertTicket } from '../helpers/ticketing-fixtures';

/**
 * The waiting room's page (/queue/{id}/) in headless Chromium: it joins, shows the pre-queue, then
 * its position once the sale opens, claims the admission when its turn comes and keeps the token in
 * the cal_queue cookie, with which the cart then takes the queued ticket. Skipped, saying so, where
 * Debian's `chromium` is not installed; BROWSER_TESTS=0 skips it as for the door page.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = join(__dirname, 'screenshots');
const admin = basicAuth(ADMIN.login, ADMIN.password);
const API = '/cal/tickets/v1';

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) process.stderr.write(`queue page browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
const describeWithChromium = hasChromium && process.env.BROWSER_TESTS !== '0' ? describe : describe.skip;

describeWithChromium('Queue page in headless Chromium (e2e)', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let ticketId: number;
  let queueId: number;

  jest.setTimeout(120_000);

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.server.address() as AddressInfo).port}`;
    const event = await insertEvent(testApp.dataSource, {});
    ticketId = (await insertTicket(testApp.dataSource, { eventId: event.id, capacity: 10 })).id;
    const queue = await request(testApp.server)
      .post(`${API}/queues`)
      .set('Authorization', admin)
      .send({
        post_id: event.id,
        prequeue_opens_at: new Date(Date.now() - 1000).toISOString(),
        opens_at: new Date(Date.now() + 4000).toISOString(),
        max_active: 5,
        max_admit_per_minute: 600,
      })
      .expect(201);
    queueId = queue.body.id as number;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  afterEach(async () => {
    const state = expect.getState();
    if (state.assertionCalls !== state.numPassingAsserts && page) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'queue-page-failure.png') }).catch(() => undefined);
    }
  });

  it('joins, waits in the pre-queue, is admitted and buys with the cookie it set', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/queue/${queueId}/`);
    await page.waitForSelector('#state[data-status="prequeue"]');
    expect(await page.textContent('#position')).toBe('–');

    // The sale opens and the counter admits (the suite's ticker is off: it is moved by hand).
    await new Promise((resolve) => setTimeout(resolve, 4500));
    await testApp.app.get(QueueTicker).runNow();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await testApp.app.get(QueueTicker).runNow();

    await page.waitForSelector('#state[data-status="admitted"]', { timeout: 30_000 });
    await page.waitForSelector('#next:not([hidden])');
    expect(await page.textContent('#position')).toBe('1');
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'cal_queue')?.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    const cart = await page.evaluate(
      async ({ api, ticket }) => {
        const response = await fetch(`${api}/cart`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ provider: 'tc', tickets: [{ ticket_id: ticket, quantity: 1 }] }),
        });
        return response.status;
      },
      { api: API, ticket: ticketId },
    );
    expect(cart).toBe(200);
    expect(errors).toEqual([]);
  });

  it('answers its own files with a strict Content-Security-Policy', async () => {
    const response = await request(testApp.server).get(`/queue/${queueId}/`).expect(200);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.text).toContain(`data-api="${API}"`);
    await request(testApp.server)
      .get('/queue/assets/queue.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
  });
});
