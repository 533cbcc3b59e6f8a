import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import * as ical from 'node-ical';
import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { CLOCK } from '../src/common/clock';
import { Ticket } from '../src/tickets/ticket.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { OutboxWorker } from '../src/outbox-worker/outbox-worker.service';
import { DomainEvents } from '../src/common/domain-events/domain-events';
import { checkout, fillCart, ORDERS_PATH } from './helpers/buyers';
import { decodeQr, MailCatcher } from './helpers/mail-catcher';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestAppOptions } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertTicket, setTicketCounts, TestClock } from './helpers/ticketing-fixtures';
import { TransactionHost } from '../src/common/database/transaction-host';

// Several app instances, a real SMTP server or receiver and many deliveries per test: slow on a loaded machine.
jest.setTimeout(120_000);

// A second instance must see the first one's rows: on SQLite that needs a file, not :memory:.
if (!process.env.TEST_DATABASE_URL) process.env.DATABASE_URL = `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-outbox-')), 'cal.sqlite')}`;

const ADMIN_AUTH = basicAuth(ADMIN.login, ADMIN.password);
let counter = 0;
const unique = (name: string) => `${name}${(counter += 1)}-${Date.now()}@example.org`;

async function appWith(env: Record<string, string | undefined>, options: TestAppOptions = {}): Promise<TestApp> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    return await createTestApp(options);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

const worker = (testApp: TestApp) => testApp.app.get(OutboxWorker);

async function freeOrder(
  testApp: TestApp,
  purchaserEmail: string,
  attendees: Array<{ name: string; email: string }> = [],
  quantity = 1,
  capacity = 10,
) {
  const event = await insertEvent(testApp.dataSource, { timezone: 'Europe/Paris' });
  const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity, name: 'Free & <open> entry' });
  const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity }]);
  const response = await checkout(testApp, buyer, {
    provider: 'tc',
    purchaser: { name: 'Grace & "Hopper"', email: purchaserEmail },
    attendees: attendees.map((attendee) => ({ ticket_id: ticket.id, ...attendee })),
  }).expect(201);
  return { event, ticket, buyer, order: response.body as { id: number; status: string } };
}

async function paidOrder(testApp: TestApp, purchaserEmail: string) {
  const event = await insertEvent(testApp.dataSource);
  const ticket = await insertTicket(testApp.dataSource, { eventId: event.id, price: '20.00', capacity: 10 });
  const subscriber = await createUser(testApp, 'subscriber');
  const buyer = await fillCart(testApp, { authorization: subscriber.authorization }, 'tc', [{ ticket_id: ticket.id, quantity: 1 }]);
  const response = await checkout(testApp, buyer, { provider: 'tc', purchaser: { name: 'Paying Buyer', email: purchaserEmail } }).expect(
    201,
  );
  return { event, ticket, buyer, subscriber, order: response.body as { id: number; status: string } };
}

async function rows(testApp: TestApp, where: { channel?: OutboxMessage['channel']; type?: string }): Promise<OutboxMessage[]> {
  return testApp.dataSource.getRepository(OutboxMessage).find({ where, order: { id: 'ASC' } });
}

describe('Notifications: emails from the transactional outbox', () => {
  const smtp = new MailCatcher();
  let testApp: TestApp;

  beforeAll(async () => {
    await smtp.start();
    testApp = await appWith({ SMTP_URL: smtp.url, OUTBOX_RETRY_BASE_MS: '1' });
  });

  afterAll(async () => {
    await testApp?.close();
    await smtp.stop();
  });

  it('emails a free order: the purchaser a confirmation with every ticket, QR codes and the event as .ics; another attendee their ticket', async () => {
    const purchaser = unique('grace');
    const ada = unique('ada');
    const { event, order, ticket } = await freeOrder(testApp, purchaser, [{ name: 'Ada "Countess" Lovelace', email: ada }], 2, 2);
    expect(order.status).toBe('completed');

    const types = (await rows(testApp, { channel: 'event' }))
      .filter((row) => JSON.parse(row.payload).order_id === order.id || JSON.parse(row.payload).ticket_id === ticket.id)
      .map((row) => row.type);
    expect(types).toEqual(['order.placed', 'attendee.created', 'attendee.created', 'ticket.sold_out']);

    await worker(testApp).drain();
    const attendees = await testApp.dataSource.getRepository(Attendee).find({ where: { orderId: order.id }, order: { id: 'ASC' } });

    const [confirmation] = smtp.to(purchaser);
    expect(smtp.to(purchaser)).toHaveLength(1);
    expect(confirmation.subject).toBe(`Your order #${order.id}: ${event.title}`);
    expect(confirmation.from?.text).toContain('tickets@localhost');
    // Values are escaped in the HTML part, as they are in the plain text one.
    expect(confirmation.text).toContain('Hello Grace & "Hopper",');
    expect(confirmation.html).toContain('Hello Grace &amp; &quot;Hopper&quot;,');
    expect(confirmation.html).toContain('Free &amp;');
    expect(confirmation.html).not.toContain('"Hopper"');
    const qrCodes = confirmation.attachments.filter((attachment) => attachment.contentType === 'image/png');
    expect(qrCodes.map((attachment) => decodeQr(attachment.content)).sort()).toEqual(
      // The QR code holds the check-in secret the door redeems (src/checkin/).
      attendees.map((attendee) => attendee.checkinSecret).sort(),
    );
    // Inline images referenced by cid (mailparser marks them related and inlines them into the HTML).
    for (const attachment of qrCodes) expect([attachment.related, attachment.cid]).toEqual([true, expect.stringMatching(/^qr-\d+@cal$/)]);
    const ics = confirmation.attachments.find((attachment) => attachment.contentType.startsWith('text/calendar'));
    expect(ics?.filename).toBe(`${event.slug}.ics`);
    const parsed = Object.values(ical.sync.parseICS(ics!.content.toString('utf8'))).find((entry) => entry.type === 'VEVENT') as ical.VEvent;
    expect(parsed.summary).toBe(event.title);
    expect((parsed.start as Date).toISOString()).toBe(event.startUtc.toISOString());
    expect((parsed.end as Date).toISOString()).toBe(event.endUtc.toISOString());

    const [ticketMail] = smtp.to(ada);
    expect(smtp.to(ada)).toHaveLength(1);
    expect(ticketMail.subject).toBe(`Your ticket for ${event.title}`);
    expect(ticketMail.html).toContain('Hello Ada &quot;Countess&quot; Lovelace,');
    const adaAttendee = attendees.find((attendee) => attendee.holderEmail === ada)!;
    const adaQr = ticketMail.attachments.filter((attachment) => attachment.contentType === 'image/png');
    expect(adaQr.map((attachment) => decodeQr(attachment.content))).toEqual([adaAttendee.checkinSecret]);
    expect(ticketMail.attachments.some((attachment) => attachment.contentType.startsWith('text/calendar'))).toBe(true);

    // Every row is delivered; nothing is left pending.
    const emailRows = (await rows(testApp, { channel: 'email' })).filter((row) => JSON.parse(row.payload).order_id === order.id);
    expect(emailRows.map((row) => [row.type, row.recipient, row.status])).toEqual([
      ['order-confirmation', purchaser, 'delivered'],
      ['ticket', ada, 'delivered'],
    ]);
  });

  it('emails a paid order when it is completed, not when it is placed, then its cancellation and a refund notice', async () => {
    const purchaser = unique('payer');
    const { order } = await paidOrder(testApp, purchaser);
    expect(order.status).toBe('pending');
    await worker(testApp).drain();
    expect(smtp.to(purchaser)).toHaveLength(0);

    await request(testApp.server).post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', ADMIN_AUTH).expect(200);
    await worker(testApp).drain();
    expect(smtp.to(purchaser).map((mail) => mail.subject)).toEqual([expect.stringMatching(new RegExp(`^Your order #${order.id}:`))]);

    await request(testApp.server).post(`${ORDERS_PATH}/${order.id}/refund`).set('Authorization', ADMIN_AUTH).expect(200);
    await worker(testApp).drain();
    const refund = smtp.to(purchaser)[1];
    expect(refund.subject).toMatch(new RegExp(`^Order #${order.id} refunded:`));
    expect(refund.text).toContain('20.00 USD');

    const second = await paidOrder(testApp, unique('canceller'));
    await request(testApp.server)
      .post(`${ORDERS_PATH}/${second.order.id}/cancel`)
      .set('Authorization', second.subscriber.authorization)
      .expect(200);
    await worker(testApp).drain();
    const cancelled = smtp.messages.filter((mail) => mail.subject?.startsWith(`Order #${second.order.id} cancelled`));
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0].attachments).toHaveLength(0);
  });

  it('writes nothing when the transaction rolls back, and nothing for a checkout that fails', async () => {
    const before = await testApp.dataSource.getRepository(OutboxMessage).count();
    const domainEvents = testApp.app.get(DomainEvents);
    const order = {
      id: 999_999,
      status: 'completed',
      provider: 'tc',
      totalMinor: 0,
      currency: 'USD',
      purchaserName: 'X',
      purchaserEmail: 'x@example.org',
    };
    await expect(
      testApp.app.get(TransactionHost).run(async () => {
        await domainEvents.publish({ kind: 'OrderPlaced', order, attendees: [] });
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');

    const event = await insertEvent(testApp.dataSource);
    const roomy = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 5 });
    const full = await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 1 });
    const buyer = await fillCart(testApp, {}, 'tc', [
      { ticket_id: roomy.id, quantity: 1 },
      { ticket_id: full.id, quantity: 1 },
    ]);
    await insertAttendeeTakingLastUnit(testApp, full.id);
    const response = await checkout(testApp, buyer, { provider: 'tc', purchaser: { name: 'Late', email: unique('late') } });
    expect(response.status).toBe(409);

    expect(await testApp.dataSource.getRepository(OutboxMessage).count()).toBe(before);
    await worker(testApp).drain();
    expect(smtp.messages.filter((mail) => mail.subject?.includes('999999'))).toHaveLength(0);
  });

  it('keeps a message through SMTP being down and delivers it once the server is back', async () => {
    const down = new MailCatcher();
    await down.start();
    const port = down.port;
    await down.stop();
    const flaky = await appWith({ SMTP_URL: `smtp://127.0.0.1:${port}`, OUTBOX_RETRY_BASE_MS: '1' }, { keepTables: true });
    try {
      await worker(flaky).drain();
      const purchaser = unique('patient');
      const { order } = await freeOrder(flaky, purchaser);
      const first = await worker(flaky).runOnce();
      expect(first.delivered).toBeGreaterThanOrEqual(1);
      const failing = await worker(flaky).runOnce();
      expect(failing.retried).toBe(1);
      const [row] = (await rows(flaky, { channel: 'email' })).filter((message) => JSON.parse(message.payload).order_id === order.id);
      expect(row.status).toBe('pending');
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);

      const back = await new MailCatcher().start(port);
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await worker(flaky).drain();
        expect(back.to(purchaser)).toHaveLength(1);
        const delivered = await flaky.dataSource.getRepository(OutboxMessage).findOneByOrFail({ id: row.id });
        expect(delivered.status).toBe('delivered');
        expect(delivered.attempts).toBe(2);
      } finally {
        await back.stop();
      }
    } finally {
      await flaky.close();
    }
  });

  it('delivers after a crash between commit and delivery: another instance picks the rows up, claimed ones once their lease lapses', async () => {
    const purchaser = unique('crash');
    const { order } = await freeOrder(testApp, purchaser);
    // The first instance "crashes" holding a claim: its rows stay claimed until the lease lapses.
    const [eventRow] = (await rows(testApp, { channel: 'event', type: 'order.placed' })).filter(
      (row) => JSON.parse(row.payload).order_id === order.id,
    );
    await testApp.dataSource
      .getRepository(OutboxMessage)
      .update({ id: eventRow.id }, { claimToken: 'dead-worker', nextAttemptAt: new Date(Date.now() + 5 * 60_000) });

    const clock = new TestClock();
    const restarted = await appWith({ SMTP_URL: smtp.url }, { keepTables: true, overrides: [{ provide: CLOCK, useValue: clock }] });
    try {
      await worker(restarted).drain();
      expect(smtp.to(purchaser)).toHaveLength(0);
      clock.advanceMinutes(6);
      await worker(restarted).drain();
      expect(smtp.to(purchaser)).toHaveLength(1);
      expect((await restarted.dataSource.getRepository(OutboxMessage).findOneByOrFail({ id: eventRow.id })).status).toBe('delivered');
    } finally {
      await restarted.close();
    }
  });

  it('two instances draining at once deliver each message once', async () => {
    await worker(testApp).drain();
    const second = await appWith({ SMTP_URL: smtp.url }, { keepTables: true });
    try {
      const purchasers: string[] = [];
      for (let index = 0; index < 8; index += 1) {
        const purchaser = unique('twin');
        purchasers.push(purchaser);
        await freeOrder(testApp, purchaser);
      }
      await Promise.all([worker(testApp).drain(), worker(second).drain(), worker(testApp).drain(), worker(second).drain()]);
      await Promise.all([worker(testApp).drain(), worker(second).drain()]);
      for (const purchaser of purchasers) expect(smtp.to(purchaser)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('delivers on its own every OUTBOX_POLL_INTERVAL_MS when OUTBOX_WORKER is on, and not when it is off', async () => {
    await worker(testApp).drain();
    const polling = await appWith({ SMTP_URL: smtp.url, OUTBOX_WORKER: 'true', OUTBOX_POLL_INTERVAL_MS: '50' }, { keepTables: true });
    try {
      const purchaser = unique('polled');
      await freeOrder(testApp, purchaser);
      for (let waited = 0; smtp.to(purchaser).length === 0 && waited < 10_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(smtp.to(purchaser)).toHaveLength(1);
    } finally {
      await polling.close();
    }
    // testApp runs with OUTBOX_WORKER=false (test/setup-env.ts): nothing moves until it is drained.
    const idle = unique('idle');
    await freeOrder(testApp, idle);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(idle)).toHaveLength(0);
    await worker(testApp).drain();
    expect(smtp.to(idle)).toHaveLength(1);
  });

  describe('resend routes', () => {
    it('lets the buyer and managers resend an order, refuses others, and sends it again', async () => {
      const purchaser = unique('resend');
      const { order, subscriber } = await paidOrder(testApp, purchaser);
      const path = `${ORDERS_PATH}/${order.id}/resend`;
      const pending = await request(testApp.server).post(path).set('Authorization', subscriber.authorization).expect(409);
      expect(pending.body).toEqual({
        code: 'order-invalid-status',
        message: expect.any(String),
        data: { status: 409, order_status: 'pending' },
      });

      await request(testApp.server).post(`${ORDERS_PATH}/${order.id}/complete`).set('Authorization', ADMIN_AUTH).expect(200);
      await worker(testApp).drain();
      expect(smtp.to(purchaser)).toHaveLength(1);

      const anonymous = await request(testApp.server).post(path).expect(401);
      expect(anonymous.body.code).toBe('rest_forbidden');
      const stranger = await createUser(testApp, 'subscriber');
      const hidden = await request(testApp.server).post(path).set('Authorization', stranger.authorization).expect(404);
      expect(hidden.body).toEqual({ code: 'order-not-found', message: expect.any(String), data: { status: 404 } });
      const bad = await request(testApp.server).post(`${ORDERS_PATH}/abc/resend`).set('Authorization', ADMIN_AUTH);
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);

      const byBuyer = await request(testApp.server).post(path).set('Authorization', subscriber.authorization).expect(202);
      expect(byBuyer.body).toEqual({ queued: [{ template: 'order-confirmation', recipient: purchaser }] });
      const editor = await createUser(testApp, 'editor');
      await request(testApp.server).post(path).set('Authorization', editor.authorization).expect(202);
      await worker(testApp).drain();
      expect(smtp.to(purchaser)).toHaveLength(3);
    });

    it("resends an attendee's ticket to the attendee for managers and the buyer only", async () => {
      const purchaser = unique('holder-buyer');
      const holder = unique('holder');
      const { order, buyer } = await freeOrder(testApp, purchaser, [{ name: 'Holder', email: holder }]);
      await worker(testApp).drain();
      const [attendee] = await testApp.dataSource.getRepository(Attendee).find({ where: { orderId: order.id } });
      const path = `/cal/tickets/v1/attendees/${attendee.id}/resend`;

      expect((await request(testApp.server).post(path).expect(401)).body.code).toBe('rest_forbidden');
      const stranger = await createUser(testApp, 'subscriber');
      expect((await request(testApp.server).post(path).set('Authorization', stranger.authorization).expect(404)).body.code).toBe(
        'attendee-not-found',
      );
      const author = await createUser(testApp, 'author');
      expect((await request(testApp.server).post(path).set('Authorization', author.authorization).expect(404)).body.code).toBe(
        'attendee-not-found',
      );
      expect(
        (await request(testApp.server).post('/cal/tickets/v1/attendees/99999999/resend').set('Authorization', ADMIN_AUTH).expect(404)).body
          .code,
      ).toBe('attendee-not-found');

      const byBuyer = await request(testApp.server).post(path).set('X-Cart-Token', buyer.token!).expect(202);
      expect(byBuyer.body).toEqual({ queued: [{ template: 'ticket', recipient: holder }] });
      await request(testApp.server).post(path).set('Authorization', ADMIN_AUTH).expect(202);
      await worker(testApp).drain();
      const tickets = smtp.to(holder);
      expect(tickets).toHaveLength(3);
      for (const mail of tickets)
        expect(decodeQr(mail.attachments.find((attachment) => attachment.contentType === 'image/png')!.content)).toBe(
          attendee.checkinSecret,
        );
    });
  });

  it('exposes pending, delivered, failed and oldest age in /metrics', async () => {
    await freeOrder(testApp, unique('metrics'));
    let text = (await request(testApp.server).get('/metrics').expect(200)).text;
    expect(text).toMatch(/^cal_outbox_pending_messages\{channel="event"\} [1-9]/m);
    expect(text).toMatch(/^cal_outbox_oldest_pending_age_seconds \d/m);
    await worker(testApp).drain();
    text = (await request(testApp.server).get('/metrics').expect(200)).text;
    expect(text).toMatch(/^cal_outbox_pending_messages\{channel="event"\} 0$/m);
    expect(text).toMatch(/^cal_outbox_delivered_total\{channel="email"\} [1-9]/m);
    expect(text).toMatch(/^cal_outbox_failed_messages\{channel="email"\} \d/m);
    expect(text).toMatch(/^cal_outbox_oldest_pending_age_seconds 0$/m);
  });

  it('prunes delivered rows older than the retention', async () => {
    await freeOrder(testApp, unique('prune'));
    await worker(testApp).drain();
    const repository = testApp.dataSource.getRepository(OutboxMessage);
    const delivered = await repository.count({ where: { status: 'delivered' } });
    expect(delivered).toBeGreaterThan(0);
    expect(await worker(testApp).prune(new Date(Date.now() + 13 * 86_400_000))).toBe(0);
    expect(await worker(testApp).prune(new Date(Date.now() + 15 * 86_400_000))).toBeGreaterThanOrEqual(delivered);
    expect(await repository.count({ where: { status: 'delivered' } })).toBe(0);
  });
});

describe('Notifications without SMTP_URL, with templates from a configuration folder', () => {
  it('writes .eml files under the data folder, rendered from the overriding templates', async () => {
    const templates = mkdtempSync(join(tmpdir(), 'cal-templates-'));
    writeFileSync(
      join(templates, 'order-confirmation.txt'),
      'Subject: Custom {{order.id}} for {{order.purchaserName}}\n\nCustom text for {{order.purchaserName}}\n',
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'cal-data-'));
    const testApp = await appWith({ SMTP_URL: undefined, EMAIL_TEMPLATES_DIR: templates, DATA_DIR: dataDir });
    try {
      const purchaser = unique('files');
      const { order } = await freeOrder(testApp, purchaser);
      await worker(testApp).drain();
      const folder = join(dataDir, 'outbox');
      expect(existsSync(folder)).toBe(true);
      const files = readdirSync(folder).filter((file) => file.endsWith(`-order-confirmation.eml`));
      const mine = files.map((file) => readFileSync(join(folder, file), 'utf8')).filter((text) => text.includes(purchaser));
      expect(mine).toHaveLength(1);
      const mail = await simpleParser(mine[0]);
      expect(mail.subject).toBe(`Custom ${order.id} for Grace & "Hopper"`);
      expect(mail.text).toContain('Custom text for Grace & "Hopper"');
      // The HTML part still comes from the built-in template, escaped.
      expect(mail.html).toContain('Grace &amp; &quot;Hopper&quot;');
    } finally {
      await testApp.close();
    }
  });
});

/** Takes the ticket's last unit behind the cart's back, so that the checkout fails after writing. */
async function insertAttendeeTakingLastUnit(testApp: TestApp, ticketId: number): Promise<void> {
  const ticket = await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ id: ticketId });
  await setTicketCounts(testApp.dataSource, ticketId, { sold: ticket.capacity ?? 0 });
}
