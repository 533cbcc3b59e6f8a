import { Writable } from 'node:stream';
import request from 'supertest';
import { LOG_DESTINATION } from '../src/common/security/log-redaction';
import { canonicalJson, signPayload } from '../src/orders/webhook-signature';
import { CART_COOKIE } from '../src/cart/cart-identity';
import { ADMIN, basicAuth, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';

// Logs at info, where every request is written with its headers and URL; the webhook can sign.
process.env.LOG_LEVEL = 'info';
const WEBHOOK_SECRET = 'webhook-secret-for-the-secrets-test';
process.env.PAYMENT_WEBHOOK_SECRET = WEBHOOK_SECRET;

const TICKETS = '/cal/tickets/v1';

/**
 * Everything the service logs while people log in, fail to, buy, pay and check in, captured from
 * the app's own logger (pino), then searched for every secret that went through it.
 */
describe('Secrets stay out of the logs (e2e)', () => {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  let testApp: TestApp;
  let editor: TestUser;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    testApp = await createTestApp({ overrides: [{ provide: LOG_DESTINATION, useValue: capture }] });
    editor = await createUser(testApp, 'editor');
    secrets.set('application password', editor.password);
    secrets.set('application password without spaces', editor.password.replace(/ /g, ''));
    secrets.set('application password as sent (base64)', editor.authorization.slice('Basic '.length));
    secrets.set('administrator password', ADMIN.password);
    secrets.set('administrator credentials as sent (base64)', basicAuth(ADMIN.login, ADMIN.password).slice('Basic '.length));
    secrets.set('webhook secret', WEBHOOK_SECRET);
    secrets.set('nonce secret', process.env.NONCE_SECRET as string);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);

  it('logs every request, at info', async () => {
    await http().get('/cal/events/v1').expect(200);
    expect(lines.some((line) => /"msg":"request completed"/.test(line))).toBe(true);
  });

  it('writes no password, nonce, cart token, security code or webhook signature while they are used', async () => {
    // Logins: an application password with and without its spaces, the administrator's own password, wrong ones.
    const nonces = (await http().get(`${TICKETS}/nonces`).set('Authorization', editor.authorization).expect(200)).body as Record<
      string,
      string
    >;
    for (const [action, nonce] of Object.entries(nonces)) secrets.set(action, nonce);
    await http()
      .get(`${TICKETS}/nonces`)
      .set('Authorization', basicAuth(editor.login, editor.password.replace(/ /g, '')))
      .expect(200);
    await http().get(`${TICKETS}/nonces`).set('Authorization', basicAuth(ADMIN.login, ADMIN.password)).expect(200);
    await http()
      .get(`${TICKETS}/nonces`)
      .set('Authorization', basicAuth(editor.login, `${editor.password}x`))
      .expect(401);
    await http()
      .get(`${TICKETS}/nonces`)
      .set('Authorization', basicAuth(ADMIN.login, `${ADMIN.password}-wrong`))
      .expect(401);

    // Ticket writes with nonces in the body, and in the query string as some clients send them.
    const event = await insertEvent(testApp.dataSource, { authorId: editor.id });
    const created = await http()
      .post(`${TICKETS}/tickets?add_ticket_nonce=${nonces.add_ticket_nonce}`)
      .set('Authorization', editor.authorization)
      .send({
        add_ticket_nonce: nonces.add_ticket_nonce,
        post_id: event.id,
        provider: 'tc',
        name: 'Seat',
        price: '12',
        ticket: { mode: 'own', capacity: 10 },
      })
      .expect(201);
    const ticketId = created.body.id as number;
    await http()
      .patch(`${TICKETS}/tickets/${ticketId}`)
      .set('Authorization', editor.authorization)
      .send({ edit_ticket_nonce: nonces.edit_ticket_nonce, post_id: event.id, description: 'Front rows' })
      .expect(200);
    await http()
      .patch(`${TICKETS}/tickets/${ticketId}`)
      .set('Authorization', editor.authorization)
      .send({ edit_ticket_nonce: nonces.remove_ticket_nonce, post_id: event.id })
      .expect(403);

    // An anonymous buyer: the cart token comes back in a header and a cookie, and goes out in both.
    const cart = await http()
      .post(`${TICKETS}/cart`)
      .send({ provider: 'tc', tickets: [{ ticket_id: ticketId, quantity: 2 }] })
      .expect(200);
    const token = cart.headers['x-cart-token'];
    expect(token).toBeTruthy();
    secrets.set('cart token', token);
    await http().get(`${TICKETS}/cart`).set('Cookie', `${CART_COOKIE}=${token}`).expect(200);
    await http().get(`${TICKETS}/cart?cart_token=${token}`).set('X-Cart-Token', token).expect(200);
    const order = await http()
      .post(`${TICKETS}/cart/checkout`)
      .set('X-Cart-Token', token)
      .set('Idempotency-Key', 'secrets-test-checkout')
      .send({ provider: 'tc', purchaser: { name: 'Ada Lovelace', email: 'ada@example.org' } })
      .expect(201);
    expect(order.body.status).toBe('pending');

    // The payment webhook: a bad signature, then a good one.
    const body = { order_id: order.body.id };
    const wrongSignature = signPayload('not-the-webhook-secret-at-all', canonicalJson(body));
    secrets.set('refused webhook signature', wrongSignature);
    await http().post(`${TICKETS}/orders/${order.body.id}/complete`).set('X-Signature', wrongSignature).send(body).expect(403);
    const signature = signPayload(WEBHOOK_SECRET, canonicalJson(body));
    secrets.set('webhook signature', signature);
    await http().post(`${TICKETS}/orders/${order.body.id}/complete`).set('X-Signature', `sha256=${signature}`).send(body).expect(200);

    // Check-in: by id, by QR security code, a wrong code, and a search by code in the attendee list.
    const attendees = (await http().get(`${TICKETS}/attendees?post_id=${event.id}`).set('Authorization', editor.authorization).expect(200))
      .body.attendees as Array<{
      id: number;
      security_code: string;
    }>;
    expect(attendees).toHaveLength(2);
    attendees.forEach((attendee, index) => secrets.set(`security code ${index + 1}`, attendee.security_code));
    await http().get(`${TICKETS}/attendees?search=${attendees[0].security_code}`).set('Authorization', editor.authorization).expect(200);
    await http()
      .post(`${TICKETS}/attendees/${attendees[0].id}`)
      .set('Authorization', editor.authorization)
      .send({ check_in: true })
      .expect(200);
    await http()
      .post(`${TICKETS}/qr`)
      .set('Authorization', editor.authorization)
      .send({ security_code: attendees[1].security_code })
      .expect(200);
    await http()
      .post(`${TICKETS}/qr`)
      .set('Authorization', editor.authorization)
      .send({ security_code: attendees[1].security_code })
      .expect(409);
    await http()
      .post(`${TICKETS}/qr?security_code=${attendees[1].security_code}`)
      .set('Authorization', editor.authorization)
      .send({})
      .expect(400);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    const leaked = [...secrets.entries()].filter(([, value]) => value.length >= 8 && log.includes(value)).map(([name]) => name);
    expect(leaked).toEqual([]);
    // What was used appears by name only: the headers are there, their values are not.
    const redactedHeaders = ['authorization', 'cookie', 'x-cart-token', 'x-signature'].filter((name) =>
      log.includes(`"${name}":"[redacted]"`),
    );
    expect(redactedHeaders).toEqual(['authorization', 'cookie', 'x-cart-token', 'x-signature']);
  });
});
