import request from 'supertest';
import { Attendee } from '../src/attendees/attendee.entity';
import { decryptRecord, syncIndex } from '../src/checkin/checkin-secrets';
import { CheckinList } from '../src/checkin/checkin-list.entity';
import { Checkin } from '../src/checkin/checkin.entity';
import { Device } from '../src/checkin/device.entity';
import { CheckinDoor1765000000000 } from '../src/database/migrations/1765000000000-CheckinDoor';
import { CheckinAnnulments1765130000000 } from '../src/database/migrations/1765130000000-CheckinAnnulments';
import { WalkInSales1765140000000 } from '../src/database/migrations/1765140000000-WalkInSales';
import type { Event } from '../src/events/event.entity';
import { LessThan } from 'typeorm';
import { Order, OrderItem } from '../src/orders/order.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import type { Ticket } from '../src/tickets/ticket.entity';
import { insertAttendeeRow, insertTicketRow, AttendeeRowOptions } from './helpers/attendee-fixtures';
import { insertEvent } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const NS = '/cal/tickets/v1';
/** The fixture events run from 10:00 to 12:00 UTC on 2027-05-01. */
const EVENT_START = new Date('2027-05-01T10:00:00Z');
/** On the fixture event's day (2027-05-01, UTC): inside its default window. */
const ON_THE_DAY = '2027-05-01T10:30:00.000Z';
const mariadb = (process.env.TEST_DATABASE_URL ?? '').startsWith('mysql');

describe('check-in at the door', () => {
  let testApp: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let author: TestUser;
  let authorB: TestUser;
  let contributor: TestUser;
  let subscriber: TestUser;
  let doorStaff: TestUser;
  let event: Event;
  let general: Ticket;
  let vip: Ticket;

  const server = () => testApp.server;

  async function attendee(ticket: Ticket = general, options: AttendeeRowOptions = {}): Promise<Attendee> {
    const row = await insertAttendeeRow(testApp.dataSource, ticket, options);
    await testApp.dataSource
      .getRepository(OrderItem)
      .insert({ orderId: row.orderId, ticketId: ticket.id, quantity: 1, unitPriceMinor: ticket.priceMinor });
    return testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: row.id });
  }

  async function createList(body: Record<string, unknown>, user: TestUser = author): Promise<{ id: number } & Record<string, unknown>> {
    const response = await request(server())
      .post(`${NS}/checkin-lists`)
      .set('Authorization', user.authorization)
      .send({ post_id: event.id, name: 'Gate', ...body })
      .expect(201);
    return response.body as { id: number } & Record<string, unknown>;
  }

  async function pairDevice(listIds: number[], user: TestUser = author, name?: string): Promise<{ id: number; authorization: string }> {
    const created = await request(server())
      .post(`${NS}/devices`)
      .set('Authorization', user.authorization)
      .send({ name: name ?? `Gate ${listIds.join('+')}`, list_ids: listIds })
      .expect(201);
    const initialized = await request(server())
      .post(`${NS}/devices/initialize`)
      .send({ token: created.body.initialization_token, hardware: 'test phone' })
      .expect(201);
    return { id: initialized.body.device_id as number, authorization: `Device ${initialized.body.api_token as string}` };
  }

  function redeem(authorization: string, body: Record<string, unknown>) {
    return request(server())
      .post(`${NS}/checkin/redeem`)
      .set('Authorization', authorization)
      .send({ datetime: ON_THE_DAY, ...body });
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    admin = await createUser(testApp, 'administrator');
    editor = await createUser(testApp, 'editor');
    author = await createUser(testApp, 'author');
    authorB = await createUser(testApp, 'author');
    contributor = await createUser(testApp, 'contributor');
    subscriber = await createUser(testApp, 'subscriber');
    doorStaff = await createUser(testApp, 'door_staff');
    event = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id, showAttendeeList: true });
    general = await insertTicketRow(testApp.dataSource, event, { provider: 'tc', name: 'General' });
    vip = await insertTicketRow(testApp.dataSource, event, { provider: 'tc', name: 'VIP' });
  });

  afterAll(() => testApp.close());

  async function lastCheckinId(): Promise<number> {
    const [latest] = await testApp.dataSource.getRepository(Checkin).find({ order: { id: 'DESC' }, take: 1 });
    return latest.id;
  }

  // ---------------------------------------------------------------- secrets

  describe('check-in secrets', () => {
    it('gives every attendee a unique 160-bit secret that is not its id or security code', async () => {
      const first = await attendee();
      const second = await attendee();
      for (const holder of [first, second]) {
        expect(holder.checkinSecret).toMatch(/^[0-9A-F]{40}$/);
        expect(holder.checkinSecret).not.toBe(holder.securityCode);
        expect(holder.checkinSecret).not.toBe(String(holder.id));
      }
      expect(first.checkinSecret).not.toBe(second.checkinSecret);
    });

    it('shows the secret to managers and the buyer, never to the public', async () => {
      const holder = await attendee(general, { userId: subscriber.id });
      const managed = await request(server()).get(`${NS}/attendees/${holder.id}`).set('Authorization', author.authorization).expect(200);
      expect(managed.body).toMatchObject({ checkin_secret: holder.checkinSecret, checkin_secret_revoked: false });
      const anonymous = await request(server()).get(`${NS}/attendees/${holder.id}`).expect(200);
      expect(anonymous.body).not.toHaveProperty('checkin_secret');
      expect(JSON.stringify(anonymous.body)).not.toContain(holder.checkinSecret);
      const list = await request(server()).get(`${NS}/attendees`).query({ post_id: event.id }).expect(200);
      expect(JSON.stringify(list.body)).not.toContain(holder.checkinSecret);
      const order = await request(server())
        .get(`${NS}/orders/${holder.orderId}`)
        .set('Authorization', subscriber.authorization)
        .expect(200);
      expect(order.body.attendees[0]).toMatchObject({ id: holder.id, checkin_secret: holder.checkinSecret });
    });

    it('revokes the secret when the order is refunded: the attendee says so and redeem answers canceled', async () => {
      const holder = await attendee();
      await request(server()).post(`${NS}/orders/${holder.orderId}/refund`).set('Authorization', admin.authorization).expect(200);
      const stored = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: holder.id });
      expect(stored.checkinRevokedAt).toBeInstanceOf(Date);
      const managed = await request(server()).get(`${NS}/attendees/${holder.id}`).set('Authorization', author.authorization).expect(200);
      expect(managed.body.checkin_secret_revoked).toBe(true);
      const list = await createList({});
      const refused = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(409);
      expect(refused.body).toMatchObject({ code: 'checkin-canceled', status: 'error', reason: 'canceled', data: { status: 409 } });
    });

    it('accepts the secret (and still the security code) at POST /qr, recorded on the default list', async () => {
      const bySecret = await attendee();
      const byCode = await attendee();
      await request(server())
        .post(`${NS}/qr`)
        .set('Authorization', author.authorization)
        .send({ security_code: bySecret.checkinSecret })
        .expect(200);
      await request(server())
        .post(`${NS}/qr`)
        .set('Authorization', author.authorization)
        .send({ security_code: byCode.securityCode })
        .expect(200);
      const lists = await request(server())
        .get(`${NS}/checkin-lists`)
        .query({ post_id: event.id })
        .set('Authorization', author.authorization);
      const defaultList = (lists.body.checkin_lists as Array<{ id: number; is_default: boolean }>).find((list) => list.is_default)!;
      const history = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: defaultList.id })
        .set('Authorization', author.authorization)
        .expect(200);
      const attendeeIds = (history.body.checkins as Array<{ attendee_id: number; successful: boolean; user_id: number }>).map(
        (checkin) => checkin.attendee_id,
      );
      expect(attendeeIds).toEqual(expect.arrayContaining([bySecret.id, byCode.id]));
    });
  });

  // ---------------------------------------------------------------- lists

  describe('check-in lists', () => {
    it('creates a list with its fields and counts, and a Location', async () => {
      const response = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({
          post_id: event.id,
          name: 'VIP gate',
          ticket_ids: [vip.id],
          allow_multiple_entries: 'true',
          starts_at: '2027-05-01T08:00:00Z',
          ends_at: '2027-05-01 23:00:00',
        })
        .expect(201);
      expect(response.headers.location).toMatch(new RegExp(`/checkin-lists/${response.body.id}$`));
      expect(response.body).toEqual({
        id: expect.any(Number),
        post_id: event.id,
        event: { title: event.title, start_date: event.startLocal, end_date: event.endLocal, timezone: event.timezone },
        name: 'VIP gate',
        is_default: false,
        ticket_ids: [vip.id],
        include_pending: false,
        allow_multiple_entries: true,
        allow_entry_after_exit: true,
        allow_sales: false,
        starts_at: '2027-05-01T08:00:00.000Z',
        ends_at: '2027-05-01T23:00:00.000Z',
        position_count: 0,
        checkin_count: 0,
        inside_count: 0,
        created: expect.any(String),
        modified: expect.any(String),
      });
    });

    it('refuses bad input with 400 naming the field', async () => {
      const missing = await request(server()).post(`${NS}/checkin-lists`).set('Authorization', author.authorization).send({}).expect(400);
      expect(missing.body.code).toBe('rest_missing_callback_param');
      const unknownEvent = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: 999999, name: 'x' })
        .expect(400);
      expect(unknownEvent.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { post_id: expect.any(String) } } });
      const otherEvent = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
      const foreignTicket = await insertTicketRow(testApp.dataSource, otherEvent, { provider: 'tc' });
      const foreign = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, name: 'x', ticket_ids: [foreignTicket.id] })
        .expect(400);
      expect(foreign.body.data.params).toHaveProperty('ticket_ids');
      const badWindow = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, name: 'x', starts_at: 'soon' })
        .expect(400);
      expect(badWindow.body.data.params).toHaveProperty('starts_at');
      const reversed = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: event.id, name: 'x', starts_at: '2027-05-02T00:00:00Z', ends_at: '2027-05-01T00:00:00Z' })
        .expect(400);
      expect(reversed.body.data.params).toHaveProperty('ends_at');
    });

    it('lets only managers of the event write lists', async () => {
      await request(server()).post(`${NS}/checkin-lists`).send({ post_id: event.id, name: 'x' }).expect(401);
      for (const user of [authorB, contributor, subscriber, doorStaff]) {
        const refused = await request(server())
          .post(`${NS}/checkin-lists`)
          .set('Authorization', user.authorization)
          .send({ post_id: event.id, name: 'x' })
          .expect(403);
        expect(refused.body.code).toBe('rest_forbidden');
      }
      await createList({ name: 'by editor' }, editor);
      await createList({ name: 'by admin' }, admin);
      const list = await createList({});
      await request(server())
        .patch(`${NS}/checkin-lists/${list.id}`)
        .set('Authorization', authorB.authorization)
        .send({ name: 'y' })
        .expect(403);
      await request(server()).delete(`${NS}/checkin-lists/${list.id}`).set('Authorization', doorStaff.authorization).expect(403);
    });

    it('updates only the fields sent, and deletes a list without check-ins', async () => {
      const list = await createList({ include_pending: true, ticket_ids: [general.id] });
      const updated = await request(server())
        .patch(`${NS}/checkin-lists/${list.id}`)
        .set('Authorization', author.authorization)
        .send({ name: 'Renamed', allow_entry_after_exit: false, post_id: 12345 })
        .expect(200);
      expect(updated.body).toMatchObject({
        name: 'Renamed',
        post_id: event.id,
        include_pending: true,
        allow_entry_after_exit: false,
        ticket_ids: [general.id],
      });
      const cleared = await request(server())
        .patch(`${NS}/checkin-lists/${list.id}`)
        .set('Authorization', author.authorization)
        .send({ ticket_ids: [] })
        .expect(200);
      expect(cleared.body.ticket_ids).toEqual([]);
      const deleted = await request(server())
        .delete(`${NS}/checkin-lists/${list.id}`)
        .set('Authorization', author.authorization)
        .expect(200);
      expect(deleted.body.id).toBe(list.id);
      const gone = await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', author.authorization).expect(404);
      expect(gone.body.code).toBe('checkin-list-not-found');
    });

    it('keeps the default list and lists with check-ins (409)', async () => {
      const lists = await request(server())
        .get(`${NS}/checkin-lists`)
        .query({ post_id: event.id })
        .set('Authorization', author.authorization);
      const defaultList = (lists.body.checkin_lists as Array<{ id: number; is_default: boolean }>).find((list) => list.is_default)!;
      const refused = await request(server())
        .delete(`${NS}/checkin-lists/${defaultList.id}`)
        .set('Authorization', author.authorization)
        .expect(409);
      expect(refused.body.code).toBe('checkin-list-is-default');
      const list = await createList({});
      const holder = await attendee();
      await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(201);
      const kept = await request(server()).delete(`${NS}/checkin-lists/${list.id}`).set('Authorization', author.authorization).expect(409);
      expect(kept.body.code).toBe('checkin-list-has-checkins');
    });

    it('shows lists to managers, door staff and the list’s devices; not to others', async () => {
      const list = await createList({});
      const other = await createList({});
      const device = await pairDevice([list.id]);
      for (const user of [admin, editor, author, doorStaff]) {
        await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', user.authorization).expect(200);
      }
      await request(server()).get(`${NS}/checkin-lists/${list.id}`).expect(401);
      for (const user of [authorB, contributor, subscriber]) {
        await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', user.authorization).expect(403);
      }
      await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', device.authorization).expect(200);
      await request(server()).get(`${NS}/checkin-lists/${other.id}`).set('Authorization', device.authorization).expect(403);
      const mine = await request(server()).get(`${NS}/checkin-lists`).set('Authorization', device.authorization).expect(200);
      expect((mine.body.checkin_lists as Array<{ id: number }>).map((item) => item.id)).toEqual([list.id]);
      const authorsView = await request(server()).get(`${NS}/checkin-lists`).set('Authorization', authorB.authorization).expect(200);
      expect(authorsView.body.checkin_lists).toEqual([]);
      await request(server()).get(`${NS}/checkin-lists`).set('Authorization', subscriber.authorization).expect(403);
      await request(server()).get(`${NS}/checkin-lists`).query({ post_id: 'x' }).set('Authorization', author.authorization).expect(400);
    });

    it('counts positions, check-ins and people inside, per ticket', async () => {
      const countsEvent = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
      const a = await insertTicketRow(testApp.dataSource, countsEvent, { provider: 'tc', name: 'A' });
      const b = await insertTicketRow(testApp.dataSource, countsEvent, { provider: 'tc', name: 'B' });
      const holders = [
        await attendee(a),
        await attendee(a),
        await attendee(b),
        await attendee(b, { orderStatus: 'pending' }),
        await attendee(b, { orderStatus: 'cancelled' }),
      ];
      const list = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: countsEvent.id, name: 'All', allow_multiple_entries: true })
        .expect(201);
      expect(list.body.position_count).toBe(3);
      for (const holder of [holders[0], holders[1], holders[2]]) {
        await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.body.id] }).expect(201);
      }
      await redeem(author.authorization, { secret: holders[1].checkinSecret, list_ids: [list.body.id], type: 'exit' }).expect(201);
      const status = await request(server())
        .get(`${NS}/checkin-lists/${list.body.id}/status`)
        .set('Authorization', doorStaff.authorization)
        .expect(200);
      expect(status.body.list).toMatchObject({ position_count: 3, checkin_count: 3, inside_count: 2 });
      expect(status.body.tickets).toEqual([
        { ticket_id: a.id, title: 'A', position_count: 2, checkin_count: 2, inside_count: 1 },
        { ticket_id: b.id, title: 'B', position_count: 1, checkin_count: 1, inside_count: 1 },
      ]);
      await request(server()).get(`${NS}/checkin-lists/${list.body.id}/status`).set('Authorization', subscriber.authorization).expect(403);
      await request(server()).get(`${NS}/checkin-lists/999999/status`).set('Authorization', author.authorization).expect(404);
    });

    it('keeps the default list’s counts in step with the check_in flag', async () => {
      const flagEvent = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
      const flagTicket = await insertTicketRow(testApp.dataSource, flagEvent, { provider: 'tc' });
      const holder = await attendee(flagTicket);
      await request(server())
        .patch(`${NS}/attendees/${holder.id}`)
        .set('Authorization', author.authorization)
        .send({ check_in: true })
        .expect(200);
      const lists = await request(server())
        .get(`${NS}/checkin-lists`)
        .query({ post_id: flagEvent.id })
        .set('Authorization', author.authorization);
      expect(lists.body.checkin_lists).toEqual([
        expect.objectContaining({ is_default: true, checkin_count: 1, inside_count: 1, position_count: 1 }),
      ]);
      const defaultId = lists.body.checkin_lists[0].id as number;
      const again = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [defaultId] }).expect(409);
      expect(again.body.reason).toBe('already_redeemed');
      await request(server())
        .patch(`${NS}/attendees/${holder.id}`)
        .set('Authorization', author.authorization)
        .send({ check_in: false })
        .expect(200);
      const after = await request(server()).get(`${NS}/checkin-lists/${defaultId}`).set('Authorization', author.authorization).expect(200);
      expect(after.body).toMatchObject({ checkin_count: 0, inside_count: 0 });
      const redeemed = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [defaultId] }).expect(201);
      expect(redeemed.body.status).toBe('ok');
      const flagged = await request(server()).get(`${NS}/attendees/${holder.id}`).set('Authorization', author.authorization).expect(200);
      expect(flagged.body.checked_in).toBe(true);
      await request(server())
        .patch(`${NS}/attendees/${holder.id}`)
        .set('Authorization', author.authorization)
        .send({ check_in: true })
        .expect(409);
    });
  });

  // ---------------------------------------------------------------- devices

  describe('devices', () => {
    it('pairs a device once with its initialization token, stores only hashes', async () => {
      const list = await createList({});
      const created = await request(server())
        .post(`${NS}/devices`)
        .set('Authorization', author.authorization)
        .send({ name: 'Gate A', list_ids: [list.id] })
        .expect(201);
      expect(created.body).toMatchObject({
        name: 'Gate A',
        list_ids: [list.id],
        initialized: false,
        revoked: false,
        initialization_token: expect.stringMatching(/^ini_/),
      });
      const initialized = await request(server())
        .post(`${NS}/devices/initialize`)
        .send({ token: created.body.initialization_token, hardware: 'Pixel', software: 'door 1' })
        .expect(201);
      expect(initialized.body).toEqual({
        device_id: created.body.id,
        api_token: expect.stringMatching(/^dev_/),
        name: 'Gate A',
        list_ids: [list.id],
      });
      const again = await request(server()).post(`${NS}/devices/initialize`).send({ token: created.body.initialization_token }).expect(401);
      expect(again.body.code).toBe('device-token-invalid');
      const stored = await testApp.dataSource.getRepository(Device).findOneByOrFail({ id: created.body.id as number });
      expect(JSON.stringify(stored)).not.toContain(initialized.body.api_token);
      expect(JSON.stringify(stored)).not.toContain(created.body.initialization_token);
      const listed = await request(server()).get(`${NS}/devices`).set('Authorization', author.authorization).expect(200);
      expect(listed.body.devices).toContainEqual(
        expect.objectContaining({ id: created.body.id, initialized: true, hardware: 'Pixel', software: 'door 1' }),
      );
      expect(JSON.stringify(listed.body)).not.toContain('token');
      const adminView = await request(server()).get(`${NS}/devices`).set('Authorization', admin.authorization).expect(200);
      expect((adminView.body.devices as unknown[]).length).toBeGreaterThanOrEqual(1);
      const otherAuthor = await request(server()).get(`${NS}/devices`).set('Authorization', authorB.authorization).expect(200);
      expect(otherAuthor.body.devices).toEqual([]);
    });

    it('refuses expired, unknown and malformed initialization tokens', async () => {
      const list = await createList({});
      const created = await request(server())
        .post(`${NS}/devices`)
        .set('Authorization', author.authorization)
        .send({ name: 'Old', list_ids: [list.id] });
      await testApp.dataSource
        .getRepository(Device)
        .update({ id: created.body.id as number }, { initializationExpiresAt: new Date(Date.now() - 1000) });
      await request(server()).post(`${NS}/devices/initialize`).send({ token: created.body.initialization_token }).expect(401);
      await request(server()).post(`${NS}/devices/initialize`).send({ token: 'ini_nothing' }).expect(401);
      const missing = await request(server()).post(`${NS}/devices/initialize`).send({}).expect(400);
      expect(missing.body.code).toBe('rest_missing_callback_param');
    });

    it('lets only managers of the lists’ events register and revoke devices', async () => {
      const list = await createList({});
      await request(server())
        .post(`${NS}/devices`)
        .send({ name: 'x', list_ids: [list.id] })
        .expect(401);
      for (const user of [authorB, contributor, subscriber, doorStaff]) {
        await request(server())
          .post(`${NS}/devices`)
          .set('Authorization', user.authorization)
          .send({ name: 'x', list_ids: [list.id] })
          .expect(403);
      }
      const unknown = await request(server())
        .post(`${NS}/devices`)
        .set('Authorization', author.authorization)
        .send({ name: 'x', list_ids: [999999] })
        .expect(400);
      expect(unknown.body.data.params).toHaveProperty('list_ids');
      const device = await pairDevice([list.id]);
      await request(server()).post(`${NS}/devices/${device.id}/revoke`).set('Authorization', authorB.authorization).expect(403);
      await request(server()).post(`${NS}/devices/999999/revoke`).set('Authorization', author.authorization).expect(404);
      await request(server()).get(`${NS}/devices`).set('Authorization', subscriber.authorization).expect(403);
    });

    it('opens only the check-in routes of its own lists to a device, and nothing once revoked', async () => {
      const list = await createList({});
      const other = await createList({});
      const device = await pairDevice([list.id]);
      const holder = await attendee();
      await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [other.id] }).expect(403);
      await request(server())
        .get(`${NS}/checkin/search`)
        .query({ list: other.id, search: 'Holder' })
        .set('Authorization', device.authorization)
        .expect(403);
      await request(server()).get(`${NS}/checkin-lists/${other.id}/sync`).set('Authorization', device.authorization).expect(403);
      for (const path of [`${NS}/attendees`, `${NS}/attendees/${holder.id}`, `${NS}/checkins`, `${NS}/devices`, '/cal/events/v1/events']) {
        const refused = await request(server()).get(path).set('Authorization', device.authorization).expect(401);
        expect(refused.body.data.status).toBe(401);
      }
      await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', device.authorization)
        .send({ post_id: event.id, name: 'x' })
        .expect(401);
      const ok = await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(201);
      expect(ok.body.checkin).toMatchObject({ device_id: device.id, gate: `Gate ${list.id}`, user_id: null });
      const revoked = await request(server())
        .post(`${NS}/devices/${device.id}/revoke`)
        .set('Authorization', author.authorization)
        .expect(200);
      expect(revoked.body).toMatchObject({ revoked: true, revoked_at: expect.any(String) });
      const after = await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(401);
      expect(after.body.code).toBe('device-token-invalid');
      await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', device.authorization).expect(401);
      await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', 'Device dev_forged').expect(401);
    });
  });

  // ---------------------------------------------------------------- redeem

  describe('redeem', () => {
    it('admits a valid ticket with status ok, the attendee and the check-in', async () => {
      const list = await createList({});
      const holder = await attendee(general, { name: 'Ada Lovelace' });
      const response = await redeem(doorStaff.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'n-ok' }).expect(
        201,
      );
      expect(response.body).toEqual({
        status: 'ok',
        attendee: {
          id: holder.id,
          post_id: event.id,
          ticket_id: general.id,
          ticket_title: 'General',
          name: 'Ada Lovelace',
          order_id: holder.orderId,
          order_status: 'completed',
          checkin_secret: holder.checkinSecret,
          blocked: false,
          inside: true,
          entries: 1,
        },
        checkin: {
          id: expect.any(Number),
          list_id: list.id,
          attendee_id: holder.id,
          type: 'entry',
          datetime: ON_THE_DAY,
          created: expect.any(String),
          successful: true,
          forced: false,
          reason: null,
          device_id: null,
          gate: null,
          user_id: doorStaff.id,
          nonce: 'n-ok',
          annulled: false,
          annulled_at: null,
          annulled_device_id: null,
          annulled_user_id: null,
        },
      });
    });

    it('refuses anonymous callers and callers who neither manage the event nor work the door', async () => {
      const list = await createList({});
      const holder = await attendee();
      await request(server())
        .post(`${NS}/checkin/redeem`)
        .send({ secret: holder.checkinSecret, list_ids: [list.id] })
        .expect(401);
      for (const user of [authorB, contributor, subscriber]) {
        await redeem(user.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(403);
      }
      const missing = await redeem(author.authorization, { list_ids: [list.id] }).expect(400);
      expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['secret'] } });
      const badType = await redeem(author.authorization, { secret: 'x', list_ids: [list.id], type: 'sideways' }).expect(400);
      expect(badType.body.data.params).toHaveProperty('type');
      const unknownList = await redeem(author.authorization, { secret: 'x', list_ids: [999999] }).expect(400);
      expect(unknownList.body.data.params).toHaveProperty('list_ids');
      const badDate = await redeem(author.authorization, { secret: 'x', list_ids: [list.id], datetime: 'yesterday' }).expect(400);
      expect(badDate.body.data.params).toHaveProperty('datetime');
    });

    it('answers every reason in the envelope with status "error" and records it', async () => {
      const list = await createList({ ticket_ids: [general.id], starts_at: '2027-05-01T08:00:00Z', ends_at: '2027-05-01T20:00:00Z' });
      const twin = await createList({});
      const cases: Array<{ reason: string; status: number; secret: () => Promise<string>; body?: Record<string, unknown> }> = [
        { reason: 'invalid', status: 404, secret: () => Promise.resolve('NOT-A-SECRET') },
        { reason: 'unpaid', status: 409, secret: async () => (await attendee(general, { orderStatus: 'pending' })).checkinSecret! },
        { reason: 'canceled', status: 409, secret: async () => (await attendee(general, { orderStatus: 'cancelled' })).checkinSecret! },
        { reason: 'product', status: 409, secret: async () => (await attendee(vip, { name: 'Vera VIP' })).checkinSecret! },
        {
          reason: 'invalid_time',
          status: 409,
          secret: async () => (await attendee()).checkinSecret!,
          body: { datetime: '2027-05-01T21:00:00Z' },
        },
        {
          reason: 'blocked',
          status: 409,
          secret: async () => {
            const holder = await attendee();
            await request(server())
              .patch(`${NS}/checkin/attendees/${holder.id}`)
              .set('Authorization', author.authorization)
              .send({ blocked: true })
              .expect(200);
            return holder.checkinSecret!;
          },
        },
        {
          reason: 'revoked',
          status: 409,
          secret: async () => {
            const holder = await attendee();
            const reissued = await request(server())
              .patch(`${NS}/checkin/attendees/${holder.id}`)
              .set('Authorization', author.authorization)
              .send({ reissue_secret: true })
              .expect(200);
            expect(reissued.body.checkin_secret).not.toBe(holder.checkinSecret);
            await redeem(author.authorization, { secret: reissued.body.checkin_secret, list_ids: [twin.id] }).expect(201);
            return holder.checkinSecret!;
          },
        },
        {
          reason: 'ambiguous',
          status: 409,
          secret: async () => (await attendee()).checkinSecret!,
          body: { list_ids: [list.id, twin.id] },
        },
      ];
      for (const scenario of cases) {
        const secret = await scenario.secret();
        const response = await redeem(author.authorization, { secret, list_ids: [list.id], ...scenario.body });
        expect({ reason: scenario.reason, status: response.status }).toEqual({ reason: scenario.reason, status: scenario.status });
        expect(response.body).toMatchObject({
          code: `checkin-${scenario.reason.replace(/_/g, '-')}`,
          message: expect.any(String),
          status: 'error',
          reason: scenario.reason,
          data: { status: scenario.status, reason: scenario.reason },
        });
        // Who it is about, so that staff can act on it; nobody for an unknown code or an ambiguous gate.
        if (scenario.reason === 'invalid' || scenario.reason === 'ambiguous') {
          expect(response.body.data).not.toHaveProperty('attendee');
        } else {
          // The scan just recorded names the attendee it was about (for `revoked`, the old secret's).
          const recorded = await testApp.dataSource.getRepository(Checkin).findOneByOrFail({ id: await lastCheckinId() });
          const holder = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: recorded.attendeeId! });
          expect(response.body.data.attendee).toEqual({
            id: holder.id,
            name: holder.holderName,
            ticket_id: holder.ticketId,
            ticket_title: holder.ticketId === vip.id ? 'VIP' : 'General',
            order_id: holder.orderId,
          });
        }
      }
      const history = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, successful: false })
        .set('Authorization', author.authorization)
        .expect(200);
      expect((history.body.checkins as Array<{ reason: string }>).map((checkin) => checkin.reason).sort()).toEqual(
        ['ambiguous', 'blocked', 'canceled', 'invalid', 'invalid_time', 'product', 'revoked', 'unpaid'].sort(),
      );
    });

    it('admits pending orders on lists that include them, and a secret of another event is invalid', async () => {
      const list = await createList({ include_pending: true });
      const pending = await attendee(general, { orderStatus: 'pending' });
      await redeem(author.authorization, { secret: pending.checkinSecret, list_ids: [list.id] }).expect(201);
      const elsewhere = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
      const elsewhereTicket = await insertTicketRow(testApp.dataSource, elsewhere, { provider: 'tc' });
      const stranger = await attendee(elsewhereTicket);
      const refused = await redeem(author.authorization, { secret: stranger.checkinSecret, list_ids: [list.id] }).expect(404);
      expect(refused.body.reason).toBe('invalid');
    });

    it('refuses a second entry with when and where, allows it after an exit, and by the list’s flags', async () => {
      const list = await createList({});
      const device = await pairDevice([list.id]);
      const holder = await attendee();
      await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id], datetime: '2027-05-01T10:00:00Z' }).expect(
        201,
      );
      const second = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(409);
      expect(second.body).toMatchObject({
        reason: 'already_redeemed',
        data: {
          last: { datetime: '2027-05-01T10:00:00.000Z', list_id: list.id, gate: `Gate ${list.id}`, type: 'entry' },
          attendee: { id: holder.id, name: holder.holderName, ticket_id: general.id, ticket_title: 'General', order_id: holder.orderId },
        },
      });
      const exit = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id], type: 'exit' }).expect(201);
      expect(exit.body.attendee).toMatchObject({ inside: false, entries: 1 });
      expect(
        (await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', author.authorization)).body.inside_count,
      ).toBe(0);
      const back = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(201);
      expect(back.body.attendee).toMatchObject({ inside: true, entries: 2 });

      const strict = await createList({ allow_entry_after_exit: false });
      await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [strict.id] }).expect(201);
      await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [strict.id], type: 'exit' }).expect(201);
      expect((await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [strict.id] }).expect(409)).body.reason).toBe(
        'already_redeemed',
      );

      const open = await createList({ allow_multiple_entries: true });
      for (let entry = 1; entry <= 3; entry += 1) {
        const admitted = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [open.id] }).expect(201);
        expect(admitted.body.attendee.entries).toBe(entry);
      }
    });

    it('answers a retried nonce with the first answer and records one check-in', async () => {
      const list = await createList({});
      const holder = await attendee();
      const first = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'retry-1' }).expect(201);
      const retry = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'retry-1' }).expect(201);
      expect(retry.body).toEqual(first.body);
      const refusal = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'retry-2' }).expect(
        409,
      );
      const refusalAgain = await redeem(author.authorization, {
        secret: holder.checkinSecret,
        list_ids: [list.id],
        nonce: 'retry-2',
      }).expect(409);
      expect(refusalAgain.body).toEqual(refusal.body);
      expect(await testApp.dataSource.getRepository(Checkin).countBy({ listId: list.id })).toBe(2);
      // Another caller's nonce is theirs: the same text from someone else is a new scan.
      await redeem(editor.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'retry-1' }).expect(409);
    });

    it('refuses a nonce sent again with another request (409 nonce-reused) rather than answering for the first ticket', async () => {
      const list = await createList({});
      const other = await createList({ name: 'Other' });
      const device = await pairDevice([list.id, other.id]);
      const first = await attendee(general, { name: 'First Holder' });
      const second = await attendee(general, { name: 'Second Holder' });
      const scan = { secret: first.checkinSecret, list_ids: [list.id], nonce: 'bound-1' };
      const admitted = await redeem(device.authorization, scan).expect(201);
      const variants: Array<Record<string, unknown>> = [
        { secret: second.checkinSecret },
        { list_ids: [other.id] },
        { type: 'exit' },
        { datetime: '2027-05-01T10:45:00Z' },
        { force: true },
      ];
      for (const variant of variants) {
        const reused = await redeem(device.authorization, { ...scan, ...variant }).expect(409);
        expect(reused.body).toEqual({
          code: 'nonce-reused',
          message: expect.any(String),
          data: { status: 409, params: { nonce: expect.any(String) } },
        });
        expect(JSON.stringify(reused.body)).not.toContain('First Holder');
      }
      // The same request again is still a retry: the first answer, whatever order its JSON was in.
      const retry = await request(server())
        .post(`${NS}/checkin/redeem`)
        .set('Authorization', device.authorization)
        .send({ nonce: 'bound-1', list_ids: [list.id, list.id], datetime: '2027-05-01T12:30:00+02:00', secret: first.checkinSecret })
        .expect(201);
      expect(retry.body).toEqual(admitted.body);
      // A refusal's nonce is bound too, and so is a nonce first sent with a code nobody holds.
      await redeem(device.authorization, { secret: 'NOBODY-HOLDS-THIS', list_ids: [list.id], nonce: 'bound-2' }).expect(404);
      const afterInvalid = await redeem(device.authorization, {
        secret: second.checkinSecret,
        list_ids: [list.id],
        nonce: 'bound-2',
      }).expect(409);
      expect(afterInvalid.body.code).toBe('nonce-reused');
      await redeem(device.authorization, { secret: 'NOBODY-HOLDS-THIS', list_ids: [list.id], nonce: 'bound-2' }).expect(404);
      expect(await testApp.dataSource.getRepository(Checkin).countBy({ attendeeId: second.id })).toBe(0);
    });

    it('records offline uploads with force: earlier datetimes, and a second device’s scan flagged already_redeemed', async () => {
      const list = await createList({});
      const phoneA = await pairDevice([list.id]);
      const phoneB = await pairDevice([list.id]);
      const holder = await attendee();
      const a = await redeem(phoneA.authorization, {
        secret: holder.checkinSecret,
        list_ids: [list.id],
        force: true,
        nonce: 'offline-a',
        datetime: '2027-05-01T09:01:00Z',
      }).expect(201);
      expect(a.body.checkin).toMatchObject({ successful: true, forced: false, reason: null, datetime: '2027-05-01T09:01:00.000Z' });
      const b = await redeem(phoneB.authorization, {
        secret: holder.checkinSecret,
        list_ids: [list.id],
        force: true,
        nonce: 'offline-b',
        datetime: '2027-05-01T09:00:30Z',
      }).expect(201);
      expect(b.body).toMatchObject({
        status: 'ok',
        checkin: { successful: true, forced: true, reason: 'already_redeemed', device_id: phoneB.id },
      });
      const late = await redeem(phoneB.authorization, {
        secret: holder.checkinSecret,
        list_ids: [list.id],
        force: true,
        nonce: 'offline-late',
        datetime: '2027-05-03T09:00:00Z',
        type: 'exit',
      }).expect(201);
      expect(late.body.checkin).toMatchObject({ type: 'exit', forced: false });
      const replay = await redeem(phoneB.authorization, {
        secret: holder.checkinSecret,
        list_ids: [list.id],
        force: true,
        nonce: 'offline-b',
        datetime: '2027-05-01T09:00:30Z',
      }).expect(201);
      expect(replay.body).toEqual(b.body);
      const history = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(history.body.total).toBe(3);
      const byDevice = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, device: phoneB.id })
        .set('Authorization', author.authorization)
        .expect(200);
      expect((byDevice.body.checkins as Array<{ gate: string }>).map((checkin) => checkin.gate)).toEqual([
        `Gate ${list.id}`,
        `Gate ${list.id}`,
      ]);
      const invalid = await redeem(phoneA.authorization, { secret: 'UNKNOWN', list_ids: [list.id], force: true }).expect(404);
      expect(invalid.body.reason).toBe('invalid');
    });

    it('publishes attendee.checked_in and attendee.checked_out with the list through the outbox', async () => {
      const list = await createList({ name: 'Webhook gate' });
      const holder = await attendee();
      await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(201);
      await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id], type: 'exit' }).expect(201);
      const messages = await testApp.dataSource.getRepository(OutboxMessage).find({ order: { id: 'ASC' } });
      const mine = messages
        .filter((message) => message.type.startsWith('attendee.checked_'))
        .map((message) => ({ type: message.type, data: JSON.parse(message.payload) as Record<string, unknown> }))
        .filter((message) => message.data.attendee_id === holder.id);
      expect(mine).toEqual([
        { type: 'attendee.checked_in', data: expect.objectContaining({ list_id: list.id, list_name: 'Webhook gate', type: 'entry' }) },
        { type: 'attendee.checked_out', data: expect.objectContaining({ list_id: list.id, list_name: 'Webhook gate', type: 'exit' }) },
      ]);
    });

    (mariadb ? it : it.skip)('admits one ticket once per list when 50 scans race at two gates (MariaDB)', async () => {
      const gateA = await createList({ name: 'A' });
      const gateB = await createList({ name: 'B' });
      const holder = await attendee();
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_unused, index) =>
          redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [index % 2 === 0 ? gateA.id : gateB.id] }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(2);
      expect(statuses.filter((status) => status === 409)).toHaveLength(48);
      const successes = await testApp.dataSource.getRepository(Checkin).countBy({ attendeeId: holder.id, successful: true });
      expect(successes).toBe(2);
      for (const list of [gateA, gateB]) {
        const read = await request(server()).get(`${NS}/checkin-lists/${list.id}`).set('Authorization', author.authorization);
        expect(read.body).toMatchObject({ checkin_count: 1, inside_count: 1 });
      }
    });

    (mariadb ? it : it.skip)('creates one check-in for 20 parallel retries with one nonce (MariaDB)', async () => {
      const list = await createList({});
      const holder = await attendee();
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'same' }),
        ),
      );
      expect(new Set(responses.map((response) => response.status))).toEqual(new Set([201]));
      expect(new Set(responses.map((response) => (response.body as { checkin: { id: number } }).checkin.id)).size).toBe(1);
      expect(await testApp.dataSource.getRepository(Checkin).countBy({ listId: list.id })).toBe(1);
    });
  });

  // ---------------------------------------------------------------- search

  describe('search', () => {
    it('finds attendees of the list by name, email, order id and secret prefix; 20 at most', async () => {
      const searchEvent = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
      const searchTicket = await insertTicketRow(testApp.dataSource, searchEvent, { provider: 'tc' });
      const grace = await attendee(searchTicket, { name: 'Grace Hopper', email: 'grace@navy.example' });
      for (let index = 0; index < 25; index += 1) await attendee(searchTicket, { name: `Crowd member ${index}` });
      const list = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: searchEvent.id, name: 'Search' })
        .expect(201);
      const device = await pairDevice([list.body.id as number]);
      const find = async (text: string) =>
        (
          await request(server())
            .get(`${NS}/checkin/search`)
            .query({ list: list.body.id, search: text })
            .set('Authorization', device.authorization)
            .expect(200)
        ).body.results as Array<{ id: number }>;
      expect((await find('hopper')).map((result) => result.id)).toEqual([grace.id]);
      expect((await find('navy.example')).map((result) => result.id)).toEqual([grace.id]);
      expect((await find(String(grace.orderId).padStart(3, '0'))).map((result) => result.id)).toContain(grace.id);
      expect((await find(grace.checkinSecret!.slice(0, 8).toLowerCase())).map((result) => result.id)).toEqual([grace.id]);
      expect(await find('crowd')).toHaveLength(20);

      // An order number is found with any number of digits (orders 1–99 too), and only as that order.
      const shortOrder = await attendee(searchTicket, { name: 'Short Order' });
      const orders = testApp.dataSource.getRepository(Order);
      const taken = new Set((await orders.find({ select: { id: true }, where: { id: LessThan(100) } })).map((order) => order.id));
      const shortId = Array.from({ length: 99 }, (_unused, index) => index + 1).find((id) => !taken.has(id))!;
      await orders.insert({ ...(await orders.findOneByOrFail({ id: shortOrder.orderId })), id: shortId });
      await testApp.dataSource.getRepository(Attendee).update({ id: shortOrder.id }, { orderId: shortId });
      expect((await find(String(shortId))).map((result) => result.id)).toEqual([shortOrder.id]);
      expect(await find('0')).toEqual([]);

      // Holders of the list's tickets whatever their order's status (order_status says why a scan would be refused);
      // holders of tickets the list does not admit are not shown.
      const refunded = await attendee(searchTicket, { name: 'Refunded Rita', orderStatus: 'refunded' });
      expect(
        (await find('refunded rita')).map((result) => ({
          id: result.id,
          order_status: (result as { order_status?: string }).order_status,
        })),
      ).toEqual([{ id: refunded.id, order_status: 'refunded' }]);
      const otherTicket = await insertTicketRow(testApp.dataSource, searchEvent, { provider: 'tc', name: 'Backstage' });
      await attendee(otherTicket, { name: 'Backstage Bob' });
      const narrow = await request(server())
        .patch(`${NS}/checkin-lists/${list.body.id}`)
        .set('Authorization', author.authorization)
        .send({ ticket_ids: [searchTicket.id] })
        .expect(200);
      expect(narrow.body.ticket_ids).toEqual([searchTicket.id]);
      expect(await find('backstage bob')).toEqual([]);
      const short = await request(server())
        .get(`${NS}/checkin/search`)
        .query({ list: list.body.id, search: 'gr' })
        .set('Authorization', device.authorization)
        .expect(400);
      expect(short.body.data.params).toHaveProperty('search');
      await request(server()).get(`${NS}/checkin/search`).query({ list: list.body.id, search: 'grace' }).expect(401);
      await request(server())
        .get(`${NS}/checkin/search`)
        .query({ list: list.body.id, search: 'grace' })
        .set('Authorization', subscriber.authorization)
        .expect(403);
      await request(server())
        .get(`${NS}/checkin/search`)
        .query({ list: 999999, search: 'grace' })
        .set('Authorization', author.authorization)
        .expect(404);
    });
  });

  // ---------------------------------------------------------------- history

  describe('history', () => {
    it('is for managers only and filters by list, event, device and result', async () => {
      await request(server()).get(`${NS}/checkins`).expect(401);
      for (const user of [contributor, subscriber, doorStaff])
        await request(server()).get(`${NS}/checkins`).set('Authorization', user.authorization).expect(403);
      const mine = await request(server())
        .get(`${NS}/checkins`)
        .query({ post_id: event.id })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(mine.body.total).toBeGreaterThan(0);
      expect(mine.body.checkins[0]).toEqual(
        expect.objectContaining({
          datetime: expect.any(String),
          created: expect.any(String),
          type: expect.any(String),
          successful: expect.any(Boolean),
        }),
      );
      await request(server()).get(`${NS}/checkins`).query({ post_id: event.id }).set('Authorization', authorB.authorization).expect(403);
      const others = await request(server()).get(`${NS}/checkins`).set('Authorization', authorB.authorization).expect(200);
      expect(others.body.total).toBe(0);
      const all = await request(server()).get(`${NS}/checkins`).set('Authorization', author.authorization).expect(200);
      const everything = await request(server()).get(`${NS}/checkins`).set('Authorization', editor.authorization).expect(200);
      expect(everything.body.total).toBe(all.body.total);
      const refused = await request(server())
        .get(`${NS}/checkins`)
        .query({ successful: false })
        .set('Authorization', author.authorization)
        .expect(200);
      expect((refused.body.checkins as Array<{ successful: boolean }>).every((checkin) => !checkin.successful)).toBe(true);
      await request(server()).get(`${NS}/checkins`).query({ list: 999999 }).set('Authorization', author.authorization).expect(400);
      await request(server()).get(`${NS}/checkins`).query({ per_page: 500 }).set('Authorization', author.authorization).expect(400);
    });
  });

  // ---------------------------------------------------------------- sync

  describe('offline sync', () => {
    it('hands out encrypted records a device can open only with the scanned secret, with cursors and revocations', async () => {
      const syncEvent = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
      const syncTicket = await insertTicketRow(testApp.dataSource, syncEvent, { provider: 'tc', name: 'Day pass' });
      const holders = [
        await attendee(syncTicket, { name: 'Sync One' }),
        await attendee(syncTicket, { name: 'Sync Two' }),
        await attendee(syncTicket, { name: 'Sync Three', orderStatus: 'pending' }),
      ];
      const created = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: syncEvent.id, name: 'Offline', ticket_ids: [syncTicket.id] })
        .expect(201);
      const listId = created.body.id as number;
      const device = await pairDevice([listId]);
      const sync = (cursor?: string, limit?: number) =>
        request(server())
          .get(`${NS}/checkin-lists/${listId}/sync`)
          .query({ ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) })
          .set('Authorization', device.authorization)
          .expect(200);

      const firstPage = await sync(undefined, 2);
      expect(firstPage.body).toMatchObject({
        list: { id: listId, name: 'Offline' },
        more: true,
        tickets: [{ id: syncTicket.id, title: 'Day pass' }],
      });
      expect(firstPage.body.window).toEqual({ from: '2027-05-01T00:00:00.000Z', until: '2027-05-01T23:59:59.999Z' });
      expect(firstPage.body.attendees).toHaveLength(2);
      const secondPage = await sync(firstPage.body.cursor as string, 2);
      expect(secondPage.body.more).toBe(false);
      const records = [...firstPage.body.attendees, ...secondPage.body.attendees] as Array<{ index: string; data: string }>;
      expect(records).toHaveLength(3);
      const key = Buffer.from(firstPage.body.index_key as string, 'base64url').toString('hex');
      for (const holder of holders) {
        const index = syncIndex(key, holder.checkinSecret!);
        const record = records.find((candidate) => candidate.index === index)!;
        expect(record).toBeDefined();
        const opened = decryptRecord(holder.checkinSecret!, listId, record.data) as Record<string, unknown>;
        expect(opened).toMatchObject({
          id: holder.id,
          name: holder.holderName,
          ticket_title: 'Day pass',
          checkin_secret: holder.checkinSecret,
        });
        expect(opened.valid).toBe(holder.orderStatus === 'completed');
        expect(() => decryptRecord(holders.find((other) => other !== holder)!.checkinSecret!, listId, record.data)).toThrow();
      }
      const serialized = JSON.stringify([firstPage.body, secondPage.body]);
      for (const holder of holders) {
        expect(serialized).not.toContain(holder.holderName);
        expect(serialized).not.toContain(holder.checkinSecret);
      }

      // Nothing changed: the cursor gives nothing new (records of the last seconds may come again).
      const caughtUp = await sync(secondPage.body.cursor as string);
      const unchanged = (caughtUp.body.attendees as Array<{ index: string }>).map((record) => record.index);
      expect(unchanged.every((index) => records.some((record) => record.index === index))).toBe(true);

      // A scan, a refund and a ticket of another entrance show up in the next sync: the scan as a
      // changed record; the refund and the other ticket as records refused with the reason redeem
      // gives (the door names whom it refuses, offline as online); a replaced secret as a revoked index.
      const otherTicket = await insertTicketRow(testApp.dataSource, syncEvent, { provider: 'tc', name: 'Backstage' });
      const elsewhere = await attendee(otherTicket, { name: 'Sync Backstage' });
      await redeem(device.authorization, { secret: holders[0].checkinSecret, list_ids: [listId] }).expect(201);
      await request(server()).post(`${NS}/orders/${holders[1].orderId}/refund`).set('Authorization', admin.authorization).expect(200);
      const next = await sync(secondPage.body.cursor as string);
      const changed = (next.body.attendees as Array<{ index: string; data: string }>).find(
        (record) => record.index === syncIndex(key, holders[0].checkinSecret!),
      )!;
      expect(decryptRecord(holders[0].checkinSecret!, listId, changed.data)).toMatchObject({
        inside: true,
        entries: 1,
        last_entry: ON_THE_DAY,
      });
      const recordOf = (secret: string) =>
        (next.body.attendees as Array<{ index: string; data: string }>).find((record) => record.index === syncIndex(key, secret))!;
      expect(decryptRecord(holders[1].checkinSecret!, listId, recordOf(holders[1].checkinSecret!).data)).toMatchObject({
        name: 'Sync Two',
        ticket_title: 'Day pass',
        valid: false,
        refusal: 'canceled',
      });
      expect(decryptRecord(elsewhere.checkinSecret!, listId, recordOf(elsewhere.checkinSecret!).data)).toMatchObject({
        name: 'Sync Backstage',
        ticket_title: 'Backstage',
        valid: false,
        refusal: 'product',
      });
      await redeem(device.authorization, { secret: holders[1].checkinSecret, list_ids: [listId] }).expect(409, /"reason":"canceled"/);
      await redeem(device.authorization, { secret: elsewhere.checkinSecret, list_ids: [listId] }).expect(409, /"reason":"product"/);
      expect(next.body.revoked).not.toContain(syncIndex(key, holders[1].checkinSecret!));

      const invalidCursor = await request(server())
        .get(`${NS}/checkin-lists/${listId}/sync`)
        .query({ cursor: 'garbage' })
        .set('Authorization', device.authorization)
        .expect(400);
      expect(invalidCursor.body.data.params).toHaveProperty('cursor');
      await request(server()).get(`${NS}/checkin-lists/${listId}/sync`).expect(401);
      await request(server()).get(`${NS}/checkin-lists/${listId}/sync`).set('Authorization', subscriber.authorization).expect(403);
      await request(server()).get(`${NS}/checkin-lists/${listId}/sync`).set('Authorization', doorStaff.authorization).expect(200);
    });
  });

  // ---------------------------------------------------------------- annul

  describe('annul', () => {
    function annul(authorization: string | null, body: Record<string, unknown>) {
      const call = request(server()).post(`${NS}/checkin/annul`);
      if (authorization) call.set('Authorization', authorization);
      return call.send(body);
    }

    async function listCounts(listId: number): Promise<{ checkin_count: number; inside_count: number }> {
      return (await request(server()).get(`${NS}/checkin-lists/${listId}`).set('Authorization', author.authorization).expect(200)).body as {
        checkin_count: number;
        inside_count: number;
      };
    }

    it('lets the device that scanned annul it by its nonce: kept in the history as annulled, no longer inside, the ticket enters again', async () => {
      const list = await createList({ name: 'Annul gate' });
      const device = await pairDevice([list.id], author, 'Annul phone');
      const holder = await attendee(general, { name: 'Ann Ulled' });
      const scanned = await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'annul-1' }).expect(
        201,
      );
      expect(await listCounts(list.id)).toMatchObject({ checkin_count: 1, inside_count: 1 });

      const annulled = await annul(device.authorization, { nonce: 'annul-1' }).expect(200);
      expect(annulled.body).toEqual({
        status: 'ok',
        checkin: {
          ...scanned.body.checkin,
          annulled: true,
          annulled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          annulled_device_id: device.id,
          annulled_user_id: null,
        },
        attendee: { ...scanned.body.attendee, inside: false, entries: 0 },
      });
      expect(await listCounts(list.id)).toMatchObject({ checkin_count: 0, inside_count: 0 });

      const history = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, annulled: true })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(history.body.checkins).toEqual([annulled.body.checkin]);
      const notAnnulled = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, annulled: false })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(notAnnulled.body.total).toBe(0);

      // The ticket can enter again, and the retried scan's nonce still answers its first answer.
      const again = await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'annul-2' }).expect(201);
      expect(again.body.attendee).toMatchObject({ inside: true, entries: 1 });
      await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'annul-1' }).expect(201);
      expect(await listCounts(list.id)).toMatchObject({ checkin_count: 1, inside_count: 1 });

      // Annulling it twice is refused, and so is annulling an annulled scan by its id.
      const twice = await annul(device.authorization, { checkin_id: scanned.body.checkin.id }).expect(409);
      expect(twice.body).toMatchObject({ code: 'checkin-already-annulled', data: { status: 409 } });
    });

    it('hands the annulment to the list’s devices through the sync', async () => {
      const list = await createList({ name: 'Annul sync' });
      const device = await pairDevice([list.id]);
      const holder = await attendee();
      const first = await request(server())
        .get(`${NS}/checkin-lists/${list.id}/sync`)
        .set('Authorization', device.authorization)
        .expect(200);
      const key = Buffer.from(first.body.index_key as string, 'base64url').toString('hex');
      const index = syncIndex(key, holder.checkinSecret!);
      const scanned = await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(201);
      await annul(device.authorization, { checkin_id: scanned.body.checkin.id }).expect(200);
      const next = await request(server())
        .get(`${NS}/checkin-lists/${list.id}/sync`)
        .query({ cursor: first.body.cursor })
        .set('Authorization', device.authorization)
        .expect(200);
      const record = (next.body.attendees as Array<{ index: string; data: string }>).find((candidate) => candidate.index === index)!;
      expect(record).toBeDefined();
      expect(decryptRecord(holder.checkinSecret!, list.id, record.data)).toMatchObject({
        inside: false,
        entries: 0,
        last_entry: null,
        valid: true,
      });
      expect(next.body.list).toMatchObject({ checkin_count: 0, inside_count: 0 });
    });

    it('lets door staff and the event’s managers annul any scan of the list; refuses other devices, other authors and anonymous callers', async () => {
      const list = await createList({ name: 'Annul rights' });
      const phoneA = await pairDevice([list.id]);
      const phoneB = await pairDevice([list.id]);
      const scans: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        const holder = await attendee();
        scans.push(
          (await redeem(phoneA.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: `rights-${index}` }).expect(201))
            .body.checkin.id as number,
        );
      }
      await annul(null, { checkin_id: scans[0] }).expect(401);
      const otherDevice = await annul(phoneB.authorization, { checkin_id: scans[0] }).expect(403);
      expect(otherDevice.body).toMatchObject({ code: 'checkin-annul-forbidden', data: { status: 403 } });
      // Its own nonce of that text names nothing: nonces are per caller.
      expect((await annul(phoneB.authorization, { nonce: 'rights-0' }).expect(404)).body.code).toBe('checkin-not-found');
      for (const user of [authorB, contributor, subscriber]) {
        const refused = await annul(user.authorization, { checkin_id: scans[0] }).expect(403);
        expect(refused.body.code).toBe('checkin-annul-forbidden');
      }
      const elsewhere = await request(server())
        .post(`${NS}/checkin-lists`)
        .set('Authorization', author.authorization)
        .send({ post_id: (await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id })).id, name: 'Elsewhere' })
        .expect(201);
      const phoneElsewhere = await pairDevice([elsewhere.body.id as number]);
      expect((await annul(phoneElsewhere.authorization, { checkin_id: scans[0] }).expect(403)).body.code).toBe('checkin-annul-forbidden');
      const checkins = testApp.dataSource.getRepository(Checkin);
      expect((await checkins.findOneByOrFail({ id: scans[0] })).annulledAt).toBeNull();

      const byStaff = await annul(doorStaff.authorization, { checkin_id: scans[0] }).expect(200);
      expect(byStaff.body.checkin).toMatchObject({
        annulled: true,
        annulled_user_id: doorStaff.id,
        annulled_device_id: null,
        device_id: phoneA.id,
      });
      await annul(author.authorization, { checkin_id: scans[1] }).expect(200);

      // A revoked device can annul nothing, its own scans included.
      await request(server()).post(`${NS}/devices/${phoneA.id}/revoke`).set('Authorization', author.authorization).expect(200);
      const revoked = await annul(phoneA.authorization, { nonce: 'rights-2' }).expect(401);
      expect(revoked.body.code).toBe('device-token-invalid');
      expect((await checkins.findOneByOrFail({ id: scans[2] })).annulledAt).toBeNull();
    });

    it('refuses refused scans, the check_in flag’s records, unknown ids and late annulments; asks for exactly one of nonce and checkin_id', async () => {
      const list = await createList({ name: 'Annul refusals' });
      const device = await pairDevice([list.id]);
      const refused = await redeem(device.authorization, { secret: 'NOBODY', list_ids: [list.id], nonce: 'refused-1' }).expect(404);
      expect(refused.body.reason).toBe('invalid');
      const notAnnullable = await annul(device.authorization, { nonce: 'refused-1' }).expect(409);
      expect(notAnnullable.body).toMatchObject({ code: 'checkin-not-annullable', data: { status: 409 } });

      const flagged = await attendee();
      await request(server())
        .patch(`${NS}/attendees/${flagged.id}`)
        .set('Authorization', author.authorization)
        .send({ check_in: true })
        .expect(200);
      const flagRecord = await testApp.dataSource
        .getRepository(Checkin)
        .findOneOrFail({ where: { attendeeId: flagged.id }, order: { id: 'DESC' } });
      expect((await annul(author.authorization, { checkin_id: flagRecord.id }).expect(409)).body.code).toBe('checkin-not-annullable');

      expect((await annul(author.authorization, { checkin_id: 2_000_000_000 }).expect(404)).body).toMatchObject({
        code: 'checkin-not-found',
        data: { status: 404 },
      });
      for (const body of [{}, { nonce: 'x', checkin_id: 1 }]) {
        const bad = await annul(author.authorization, body).expect(400);
        expect(bad.body).toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { nonce: expect.any(String), checkin_id: expect.any(String) } },
        });
      }
      expect((await annul(author.authorization, { checkin_id: 'seven' }).expect(400)).body.data.params).toHaveProperty('checkin_id');
      expect((await annul(author.authorization, { nonce: 'two words' }).expect(400)).body.data.params).toHaveProperty('nonce');

      // Too late: the scan was received 16 minutes ago (its stored time moved back), CHECKIN_ANNUL_MINUTES is 15.
      const holder = await attendee();
      const scanned = await redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id], nonce: 'late-1' }).expect(
        201,
      );
      const checkins = testApp.dataSource.getRepository(Checkin);
      await checkins.update({ id: scanned.body.checkin.id }, { createdAt: new Date(Date.now() - 16 * 60_000) });
      const late = await annul(device.authorization, { nonce: 'late-1' }).expect(409);
      expect(late.body).toMatchObject({ code: 'checkin-annul-expired', data: { status: 409, annul_minutes: 15 } });
      await checkins.update({ id: scanned.body.checkin.id }, { createdAt: new Date(Date.now() - 14 * 60_000) });
      await annul(device.authorization, { nonce: 'late-1' }).expect(200);
    });

    it('annuls an exit (inside again) and an entry on the default list (checked_in cleared)', async () => {
      const list = await createList({ name: 'Annul exit' });
      const holder = await attendee();
      await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(201);
      const exit = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id], type: 'exit' }).expect(201);
      const undone = await annul(author.authorization, { checkin_id: exit.body.checkin.id }).expect(200);
      expect(undone.body.attendee).toMatchObject({ inside: true, entries: 1 });
      expect(await listCounts(list.id)).toMatchObject({ checkin_count: 1, inside_count: 1 });

      const lists = await request(server())
        .get(`${NS}/checkin-lists`)
        .query({ post_id: event.id })
        .set('Authorization', author.authorization);
      const defaultList = (lists.body.checkin_lists as Array<{ id: number; is_default: boolean }>).find(
        (candidate) => candidate.is_default,
      )!;
      const guest = await attendee();
      const entry = await redeem(author.authorization, { secret: guest.checkinSecret, list_ids: [defaultList.id] }).expect(201);
      const attendees = testApp.dataSource.getRepository(Attendee);
      expect((await attendees.findOneByOrFail({ id: guest.id })).checkedIn).toBe(true);
      await annul(author.authorization, { checkin_id: entry.body.checkin.id }).expect(200);
      expect(await attendees.findOneByOrFail({ id: guest.id })).toMatchObject({ checkedIn: false, checkedInAt: null });
      await redeem(author.authorization, { secret: guest.checkinSecret, list_ids: [defaultList.id] }).expect(201);
      expect((await attendees.findOneByOrFail({ id: guest.id })).checkedIn).toBe(true);
    });

    (mariadb ? it : it.skip)('annuls a scan once when 10 annulments race (MariaDB)', async () => {
      const list = await createList({ name: 'Annul race' });
      const holder = await attendee();
      const scanned = await redeem(author.authorization, { secret: holder.checkinSecret, list_ids: [list.id] }).expect(201);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => annul(author.authorization, { checkin_id: scanned.body.checkin.id })),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, ...Array.from({ length: 9 }, () => 409)]);
      expect(await listCounts(list.id)).toMatchObject({ checkin_count: 0, inside_count: 0 });
    });
  });

  // ---------------------------------------------------------------- gates

  describe('counts per gate', () => {
    it('counts entries, exits and people inside per gate in the list status, and filters the history by gate', async () => {
      const list = await createList({ name: 'Gates' });
      const north = await pairDevice([list.id], author, 'North');
      const south = await pairDevice([list.id], author, 'South');
      const [a, b, c, d, e] = [await attendee(), await attendee(), await attendee(), await attendee(), await attendee()];
      const scan = (device: { authorization: string }, holder: Attendee, type = 'entry') =>
        redeem(device.authorization, { secret: holder.checkinSecret, list_ids: [list.id], type }).expect(201);
      await scan(north, a);
      await scan(north, b);
      await scan(south, c);
      await scan(north, a, 'exit');
      await scan(south, a);
      await redeem(author.authorization, { secret: d.checkinSecret, list_ids: [list.id] }).expect(201);
      const annulled = await scan(north, e);
      await request(server())
        .post(`${NS}/checkin/annul`)
        .set('Authorization', north.authorization)
        .send({ checkin_id: annulled.body.checkin.id })
        .expect(200);
      await redeem(south.authorization, { secret: 'NOBODY', list_ids: [list.id] }).expect(404);

      const status = await request(server())
        .get(`${NS}/checkin-lists/${list.id}/status`)
        .set('Authorization', north.authorization)
        .expect(200);
      expect(status.body.gates).toEqual([
        { gate: 'North', entries: 2, exits: 1, inside: 1 },
        { gate: 'South', entries: 2, exits: 0, inside: 2 },
        { gate: null, entries: 1, exits: 0, inside: 1 },
      ]);
      expect(status.body.list).toMatchObject({ checkin_count: 4, inside_count: 4 });

      const byGate = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, gate: 'North' })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(byGate.body.total).toBe(4);
      expect((byGate.body.checkins as Array<{ gate: string }>).every((checkin) => checkin.gate === 'North')).toBe(true);
      const northAnnulled = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, gate: 'North', annulled: true })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(northAnnulled.body.total).toBe(1);
      const nowhere = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, gate: 'Nowhere' })
        .set('Authorization', author.authorization)
        .expect(200);
      expect(nowhere.body.total).toBe(0);
      const bad = await request(server())
        .get(`${NS}/checkins`)
        .query({ list: list.id, gate: 'x'.repeat(192), annulled: 'perhaps' })
        .set('Authorization', author.authorization)
        .expect(400);
      expect(Object.keys(bad.body.data.params as Record<string, string>).sort()).toEqual(['annulled', 'gate']);

      const empty = await createList({ name: 'No scans' });
      const quiet = await request(server())
        .get(`${NS}/checkin-lists/${empty.id}/status`)
        .set('Authorization', author.authorization)
        .expect(200);
      expect(quiet.body.gates).toEqual([]);
    });
  });

  // ---------------------------------------------------------------- the default list under concurrency

  describe('the default list, created on first use', () => {
    async function freshEvent(holders: number): Promise<{ event: Event; attendees: Attendee[] }> {
      const fresh = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id });
      const ticket = await insertTicketRow(testApp.dataSource, fresh, { provider: 'tc' });
      const attendees: Attendee[] = [];
      for (let index = 0; index < holders; index += 1) attendees.push(await attendee(ticket));
      // The migration gave events of its time a default list; an event of today has none until first use.
      await testApp.dataSource.getRepository(CheckinList).delete({ eventId: fresh.id });
      return { event: fresh, attendees };
    }

    async function expectOneDefaultList(eventId: number): Promise<void> {
      expect(await testApp.dataSource.getRepository(CheckinList).countBy({ defaultEventId: eventId })).toBe(1);
    }

    it('is created once by twenty parallel first check-ins through the check_in flag, none answering 500', async () => {
      const { event: fresh, attendees } = await freshEvent(20);
      const responses = await Promise.all(
        attendees.map((holder) =>
          request(server()).patch(`${NS}/attendees/${holder.id}`).set('Authorization', author.authorization).send({ check_in: true }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(attendees.map(() => 200));
      await expectOneDefaultList(fresh.id);
      const list = await testApp.dataSource.getRepository(CheckinList).findOneByOrFail({ defaultEventId: fresh.id });
      expect(await listCounts(list.id)).toMatchObject({ checkin_count: 20, inside_count: 20 });
    });

    it('is created once by twenty parallel first scans through POST /qr and the door’s attendee updates, none answering 500', async () => {
      const { event: fresh, attendees } = await freshEvent(20);
      const responses = await Promise.all(
        attendees.map((holder, index) =>
          index % 2 === 0
            ? request(server()).post(`${NS}/qr`).set('Authorization', author.authorization).send({ security_code: holder.checkinSecret })
            : request(server())
                .patch(`${NS}/checkin/attendees/${holder.id}`)
                .set('Authorization', author.authorization)
                .send({ blocked: false }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(attendees.map(() => 200));
      await expectOneDefaultList(fresh.id);
    });

    it('is created once when lists are created and read in parallel for a new event', async () => {
      const { event: fresh } = await freshEvent(0);
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_unused, index) =>
          index % 2 === 0
            ? request(server())
                .post(`${NS}/checkin-lists`)
                .set('Authorization', author.authorization)
                .send({ post_id: fresh.id, name: `Gate ${index}` })
            : request(server()).get(`${NS}/checkin-lists`).query({ post_id: fresh.id }).set('Authorization', author.authorization),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual([201, 200, 201, 200, 201, 200, 201, 200, 201, 200]);
      await expectOneDefaultList(fresh.id);
    });

    async function listCounts(listId: number): Promise<{ checkin_count: number; inside_count: number }> {
      return (await request(server()).get(`${NS}/checkin-lists/${listId}`).set('Authorization', author.authorization).expect(200)).body as {
        checkin_count: number;
        inside_count: number;
      };
    }
  });

  it('gives door staff nothing beyond the door: no attendee data, no writes elsewhere', async () => {
    const privateEvent = await insertEvent(testApp.dataSource, { startUtc: EVENT_START, authorId: author.id, showAttendeeList: false });
    const privateTicket = await insertTicketRow(testApp.dataSource, privateEvent, { provider: 'tc' });
    const holder = await attendee(privateTicket);
    await request(server()).get(`${NS}/attendees/${holder.id}`).set('Authorization', doorStaff.authorization).expect(401);
    const listed = await request(server()).get(`${NS}/attendees`).set('Authorization', doorStaff.authorization).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(holder.checkinSecret);
    await request(server())
      .post('/cal/events/v1/events')
      .set('Authorization', doorStaff.authorization)
      .send({ title: 'x', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00' })
      .expect(403);
    await request(server())
      .patch(`${NS}/attendees/${holder.id}`)
      .set('Authorization', doorStaff.authorization)
      .send({ check_in: true })
      .expect(403);
    await request(server())
      .post(`${NS}/devices`)
      .set('Authorization', doorStaff.authorization)
      .send({ name: 'x', list_ids: [1] })
      .expect(403);
  });

  it('gives every event a default list, also for events created before the door existed', async () => {
    const lists = await testApp.dataSource.getRepository(CheckinList).findBy({ eventId: event.id });
    expect(lists.filter((list) => list.defaultEventId === event.id)).toHaveLength(1);
  });

  it('migrates down and up again, backfilling the secrets of attendees written in between', async () => {
    const existing = await attendee();
    const runner = testApp.dataSource.createQueryRunner();
    try {
      const migration = new CheckinDoor1765000000000();
      // Later migrations that change its tables go first and come back after it, newest first, so that
      // the database stays whole for the specs that run after this one on the same server (MariaDB).
      const walkInSales = new WalkInSales1765140000000();
      const annulments = new CheckinAnnulments1765130000000();
      await walkInSales.down(runner);
      await annulments.down(runner);
      await migration.down(runner);
      await runner.query(
        "INSERT INTO attendees (order_id, ticket_id, event_id, provider, status, order_status, holder_name, holder_email, security_code, price_paid_minor) VALUES (?, ?, ?, 'tc', 'publish', 'refunded', 'Between', 'between@example.org', 'between-code', 1000)",
        [existing.orderId, general.id, event.id],
      );
      await migration.up(runner);
      await annulments.up(runner);
      await walkInSales.up(runner);
    } finally {
      await runner.release();
    }
    const between = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ securityCode: 'between-code' });
    expect(between.checkinSecret).toMatch(/^[0-9A-F]{40}$/);
    expect(between.checkinRevokedAt).toBeInstanceOf(Date);
    const kept = await testApp.dataSource.getRepository(Attendee).findOneByOrFail({ id: existing.id });
    expect(kept.checkinSecret).toMatch(/^[0-9A-F]{40}$/);
    const fresh = await attendee();
    expect(fresh.checkinSecret).toMatch(/^[0-9A-F]{40}$/);
    expect(await testApp.dataSource.getRepository(CheckinList).countBy({ defaultEventId: event.id })).toBe(1);
  });
});
