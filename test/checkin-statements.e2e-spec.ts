import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import type { Event } from '../src/events/event.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { insertAttendeeRow, insertTicketRow } from './helpers/attendee-fixtures';
import { insertEvent } from './helpers/fixtures';
import { recordStatements, StatementRecorder, withoutTransactionControl } from './helpers/statement-recorder';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const NS = '/cal/tickets/v1';
/** The fixture events run from 10:00 to 12:00 UTC on 2027-05-01. */
const EVENT_START = new Date('2027-05-01T10:00:00Z');
const ON_THE_DAY = '2027-05-01T10:30:00.000Z';

/**
 * What one scan at the door sends to the database (docs/checkin.md, "Throughput"): the device's
 * token (read on every request, so a revocation holds at once), then one short transaction that
 * takes the attendee's row lock, reads everything the decision needs in one statement, and writes
 * the check-in (with its answer), the position and the notification. The list and its event come
 * from a short-lived cache, forgotten when the list changes.
 */
describe('Redeem statements (e2e)', () => {
  let testApp: TestApp;
  let recorder: StatementRecorder;
  let author: TestUser;
  let event: Event;
  let general: Ticket;
  let vip: Ticket;
  let listId: number;
  let device: { id: number; authorization: string };

  const server = () => testApp.server;

  async function attendee(ticket: Ticket = general): Promise<Attendee> {
    const row = await insertAttendeeRow(testApp.dataSource, ticket);
    return testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: row.id });
  }

  function redeem(body: Record<string, unknown>, authorization = device.authorization) {
    return request(server())
      .post(`${NS}/checkin/redeem`)
      .set('Authorization', authorization)
      .send({ datetime: ON_THE_DAY, list_ids: [listId], ...body });
  }

  /** The statements of one redeem, transaction control dropped. */
  async function recordRedeem(body: Record<string, unknown>, status: number): Promise<string[]> {
    recorder.clear();
    const response = await redeem(body);
    expect(response.status).toBe(status);
    const recorded = withoutTransactionControl(recorder.statements);
    if (process.env.PRINT_STATEMENTS) {
      process.stdout.write(`${recorded.length} statements:\n${recorded.map((s) => `  ${s.slice(0, 240)}`).join('\n')}\n`);
    }
    return recorded;
  }

  const DEVICE = /^SELECT .* FROM checkin_devices .*WHERE/;
  const LOCK = /^UPDATE attendees SET updated_at = \S+ WHERE checkin_secret = \S+ AND event_id IN \(/;
  const FACTS = /^SELECT .* FROM attendees attendee LEFT JOIN tickets ticket .* LEFT JOIN checkin_positions position /;
  const CHECKIN = /^INSERT INTO checkins\(/;

  beforeAll(async () => {
    testApp = await createTestApp();
    recorder = recordStatements(testApp.dataSource);
    author = await createUser(testApp, 'author');
    event = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
    general = await insertTicketRow(testApp.dataSource, event, { provider: 'tc', name: 'General' });
    vip = await insertTicketRow(testApp.dataSource, event, { provider: 'tc', name: 'VIP' });
    const list = await request(server())
      .post(`${NS}/checkin-lists`)
      .set('Authorization', author.authorization)
      .send({ post_id: event.id, name: 'Main gate' })
      .expect(201);
    listId = list.body.id as number;
    const created = await request(server())
      .post(`${NS}/devices`)
      .set('Authorization', author.authorization)
      .send({ name: 'North', list_ids: [listId] })
      .expect(201);
    const paired = await request(server()).post(`${NS}/devices/initialize`).send({ token: created.body.initialization_token }).expect(201);
    device = { id: paired.body.device_id as number, authorization: `Device ${paired.body.api_token as string}` };
    // The first scan reads the list and its event into the cache.
    await redeem({ secret: (await attendee()).checkinSecret }).expect(201);
  });

  afterAll(() => testApp.close());

  it('admits a ticket with the device read and five statements in one transaction', async () => {
    const holder = await attendee();
    const recorded = await recordRedeem({ secret: holder.checkinSecret, nonce: 'statements-1' }, 201);
    expect(recorded).toEqual([
      expect.stringMatching(DEVICE),
      expect.stringMatching(LOCK),
      expect.stringMatching(FACTS),
      expect.stringMatching(CHECKIN),
      expect.stringMatching(/^INSERT INTO checkin_positions\(/),
      expect.stringMatching(/^INSERT INTO outbox_messages\(/),
    ]);
    // One transaction, the lock its first statement.
    const all = recorder.statements;
    const begin = all.findIndex((statement) => /^(START TRANSACTION|BEGIN)/i.test(statement));
    expect(all[begin + 1]).toMatch(LOCK);
    expect(all[all.length - 1]).toBe('COMMIT');
  });

  it('answers a retry with the same nonce from the stored answer, the check-in id included', async () => {
    const holder = await attendee();
    const first = await redeem({ secret: holder.checkinSecret, nonce: 'statements-2' }).expect(201);
    recorder.clear();
    const again = await redeem({ secret: holder.checkinSecret, nonce: 'statements-2' }).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.body.checkin.id).toBeGreaterThan(0);
    expect(withoutTransactionControl(recorder.statements)).toEqual([
      expect.stringMatching(DEVICE),
      expect.stringMatching(LOCK),
      expect.stringMatching(FACTS),
      expect.stringMatching(/^SELECT .* FROM checkins /),
    ]);
  });

  it('refuses a second entry with one more read (when and where it entered)', async () => {
    const holder = await attendee();
    await redeem({ secret: holder.checkinSecret }).expect(201);
    const recorded = await recordRedeem({ secret: holder.checkinSecret }, 409);
    expect(recorded).toEqual([
      expect.stringMatching(DEVICE),
      expect.stringMatching(LOCK),
      expect.stringMatching(FACTS),
      expect.stringMatching(/^SELECT .* FROM checkins checkin LEFT JOIN checkin_devices device /),
      expect.stringMatching(CHECKIN),
    ]);
  });

  it('applies a changed list at once', async () => {
    await request(server())
      .patch(`${NS}/checkin-lists/${listId}`)
      .set('Authorization', author.authorization)
      .send({ ticket_ids: [vip.id] })
      .expect(200);
    const holder = await attendee(general);
    const refused = await redeem({ secret: holder.checkinSecret }).expect(409);
    expect(refused.body).toMatchObject({ status: 'error', reason: 'product' });
    const guest = await attendee(vip);
    await redeem({ secret: guest.checkinSecret }).expect(201);
    await request(server())
      .patch(`${NS}/checkin-lists/${listId}`)
      .set('Authorization', author.authorization)
      .send({ ticket_ids: [] })
      .expect(200);
    await redeem({ secret: holder.checkinSecret }).expect(201);
  });

  it('refuses a revoked device at once', async () => {
    const holder = await attendee();
    await request(server()).post(`${NS}/devices/${device.id}/revoke`).set('Authorization', author.authorization).expect(200);
    const refused = await redeem({ secret: holder.checkinSecret }).expect(401);
    expect(refused.body).toMatchObject({ code: 'device-token-invalid', data: { status: 401 } });
  });
});
