import request from 'supertest';
import { insertEvent } from './helpers/fixtures';
import { noncesOf, TicketNonces } from './helpers/ticket-fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const EVENTS_API = '/cal/events/v1';
const TICKETS = '/cal/tickets/v1/tickets';

/** The usual XSS payloads: tags, event handlers, javascript: URLs, nested and broken tags, entity-encoded tags. */
const PAYLOADS = [
  '<script>alert(1)</script>Gig',
  'VIP <img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">link</a>',
  '<<img src=x>img src=x onerror=alert(2)>',
  'VIP &lt;img src=x onerror=alert(3)&gt;',
  '<svg/onload=alert(4)>x',
  '"><script>alert(5)</script>',
  '<b onmouseover="alert(6)">bold</b> & <i>co</i>',
  '<scr<script>ipt>alert(7)</script>',
];

/** WordPress's `$allowedtags`: all a title may keep. */
const TITLE_TAGS = new Set(['a', 'abbr', 'acronym', 'b', 'blockquote', 'cite', 'code', 'del', 'em', 'i', 'q', 's', 'strike', 'strong']);

/** Plain text: no markup at all, so not one `<` a browser could read as the start of a tag. */
function expectPlainText(value: unknown, where: string): void {
  expect({ where, type: typeof value }).toEqual({ where, type: 'string' });
  expect({ where, value }).toEqual({ where, value: expect.not.stringMatching(/</) });
}

/** A title: only tags of the inline set, with no event handler and no script URL. */
function expectTitle(value: unknown, where: string): void {
  expect(typeof value).toBe('string');
  for (const [tag, name] of (value as string).matchAll(/<\/?([a-zA-Z0-9-]*)[^>]*>?/g)) {
    expect({ where, tag, allowed: TITLE_TAGS.has(name.toLowerCase()) }).toEqual({ where, tag, allowed: true });
    expect({ where, tag }).toEqual({ where, tag: expect.not.stringMatching(/\son\w+\s*=|javascript:/i) });
  }
  // No `<` outside a tag of the set.
  expect({
    where,
    stray: (value as string).replace(/<\/?([a-zA-Z]+)(\s[^<>]*)?>/g, (tag, name: string) =>
      TITLE_TAGS.has(name.toLowerCase()) ? '' : tag,
    ),
  }).toEqual({
    where,
    stray: expect.not.stringMatching(/</),
  });
}

describe('Text fields are sanitised on input (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let nonces: TicketNonces;
  const http = () => request(testApp.server);

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    nonces = await noncesOf(testApp, editor);
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Creates with `field` set to the payload, checks the answer and an anonymous read, then the same for an update. */
  async function checkField(options: {
    path: string;
    base: Record<string, unknown> | ((index: number) => Record<string, unknown>);
    field: string;
    check: (value: unknown, where: string) => void;
    read?: (body: Record<string, any>) => unknown;
    readPath?: (id: number) => string;
  }): Promise<void> {
    const read = options.read ?? ((body: Record<string, any>) => body[options.field]);
    for (const [index, payload] of PAYLOADS.entries()) {
      const where = `${options.path} ${options.field} ${payload}`;
      const created = await http()
        .post(options.path)
        .set('Authorization', editor.authorization)
        .send({ ...(typeof options.base === 'function' ? options.base(index) : options.base), [options.field]: `${payload} ${index}` });
      expect({ where, status: created.status }).toEqual({ where, status: 201 });
      options.check(read(created.body), `create ${where}`);
      const id = created.body.id as number;
      const readPath = options.readPath ? options.readPath(id) : `${options.path}/${id}`;
      options.check(read((await http().get(readPath).expect(200)).body), `read ${where}`);
      const updated = await http()
        .patch(`${options.path}/${id}`)
        .set('Authorization', editor.authorization)
        .send({ [options.field]: `${payload} updated ${index}` });
      expect({ where, status: updated.status }).toEqual({ where, status: 200 });
      options.check(read(updated.body), `update ${where}`);
    }
  }

  const EVENT = { start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00', status: 'publish', title: 'Safe title' };

  it('keeps only inline markup in event titles, on create and update', async () => {
    await checkField({ path: `${EVENTS_API}/events`, base: EVENT, field: 'title', check: expectTitle });
  });

  it('keeps the inline set in a title as markup and shows what it removed nowhere', async () => {
    const response = await http()
      .post(`${EVENTS_API}/events`)
      .set('Authorization', editor.authorization)
      .send({
        ...EVENT,
        title: '<strong>Jazz</strong> & <em>blues</em> <a href="https://example.org" onclick="x()">here</a><script>alert(1)</script> a < b',
      })
      .expect(201);
    expect(response.body.title).toBe('<strong>Jazz</strong> & <em>blues</em> <a href="https://example.org">here</a> a &lt; b');
  });

  it('keeps no markup in an event cost', async () => {
    await checkField({ path: `${EVENTS_API}/events`, base: EVENT, field: 'cost', check: expectPlainText });
  });

  it('keeps only inline markup in venue and organizer names', async () => {
    await checkField({ path: `${EVENTS_API}/venues`, base: { status: 'publish' }, field: 'venue', check: expectTitle });
    await checkField({ path: `${EVENTS_API}/organizers`, base: { status: 'publish' }, field: 'organizer', check: expectTitle });
  });

  it.each(['address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip', 'phone'])(
    'keeps no markup in the venue field %s',
    async (field) => {
      await checkField({
        path: `${EVENTS_API}/venues`,
        base: { venue: `Hall for ${field}`, status: 'publish' },
        field,
        check: expectPlainText,
      });
    },
  );

  it('keeps no markup in an organizer phone', async () => {
    await checkField({
      path: `${EVENTS_API}/organizers`,
      base: { organizer: 'Phone owner', status: 'publish' },
      field: 'phone',
      check: expectPlainText,
    });
  });

  it('keeps no markup in venue fields given inside an event body', async () => {
    const response = await http()
      .post(`${EVENTS_API}/events`)
      .set('Authorization', editor.authorization)
      .send({
        ...EVENT,
        venue: { venue: PAYLOADS[1], city: PAYLOADS[3], address: PAYLOADS[4] },
        organizer: { organizer: PAYLOADS[0], phone: PAYLOADS[2] },
      })
      .expect(201);
    expectTitle(response.body.venue.venue, 'inline venue');
    expectPlainText(response.body.venue.city, 'inline city');
    expectPlainText(response.body.venue.address, 'inline address');
    expectTitle(response.body.organizer[0].organizer, 'inline organizer');
    expectPlainText(response.body.organizer[0].phone, 'inline phone');
  });

  it('keeps no markup in category and tag names, and only inline markup in their descriptions', async () => {
    for (const taxonomy of ['categories', 'tags']) {
      await checkField({ path: `${EVENTS_API}/${taxonomy}`, base: {}, field: 'name', check: expectPlainText });
      await checkField({
        path: `${EVENTS_API}/${taxonomy}`,
        base: (index) => ({ name: `Described ${taxonomy} ${index}` }),
        field: 'description',
        check: expectTitle,
      });
    }
  });

  it('keeps no markup in names of terms an event body creates', async () => {
    const response = await http()
      .post(`${EVENTS_API}/events`)
      .set('Authorization', editor.authorization)
      .send({ ...EVENT, categories: [PAYLOADS[1]], tags: [PAYLOADS[4]] })
      .expect(201);
    expectPlainText(response.body.categories[0].name, 'category by name');
    expectPlainText(response.body.tags[0].name, 'tag by name');
  });

  describe('tickets', () => {
    let eventId: number;

    beforeAll(async () => {
      eventId = (await insertEvent(testApp.dataSource, { authorId: editor.id })).id;
    });

    /** Where a ticket field shows: `name` as `title`; `sku` only in a manager's single read. */
    const shownAs: Record<string, string> = { name: 'title', description: 'description', sku: 'sku' };
    const readAsManager = async (id: number) =>
      (await http().get(`${TICKETS}/${id}`).set('Authorization', editor.authorization).expect(200)).body;

    it.each(['name', 'description', 'sku'])('keeps no markup in the ticket field %s, on create and update', async (field) => {
      const key = shownAs[field];
      for (const [index, payload] of PAYLOADS.entries()) {
        const created = await http()
          .post(TICKETS)
          .set('Authorization', editor.authorization)
          .send({
            add_ticket_nonce: nonces.add_ticket_nonce,
            provider: 'tc',
            name: 'General',
            post_id: eventId,
            price: '10',
            ticket: { mode: 'own', capacity: 5 },
            [field]: `${payload} ${index}`,
          })
          .expect(201);
        if (key !== 'sku') expectPlainText(created.body[key], `create ${field} ${payload}`);
        expectPlainText((await readAsManager(created.body.id))[key], `read ${field} ${payload}`);
        const updated = await http()
          .patch(`${TICKETS}/${created.body.id}`)
          .set('Authorization', editor.authorization)
          .send({ edit_ticket_nonce: nonces.edit_ticket_nonce, post_id: eventId, [field]: `${payload} again ${index}` })
          .expect(200);
        if (key !== 'sku') expectPlainText(updated.body[key], `update ${field} ${payload}`);
        expectPlainText((await readAsManager(created.body.id))[key], `read after update ${field} ${payload}`);
      }
    });

    it('never decodes an entity-encoded tag into markup, and keeps ampersands as typed', async () => {
      const created = await http()
        .post(TICKETS)
        .set('Authorization', editor.authorization)
        .send({
          add_ticket_nonce: nonces.add_ticket_nonce,
          provider: 'tc',
          name: 'VIP &lt;img src=x onerror=alert(1)&gt; Rock & Roll',
          post_id: eventId,
          price: '10',
          ticket: { mode: 'own', capacity: 5 },
        })
        .expect(201);
      expect(created.body.title).toBe('VIP &lt;img src=x onerror=alert(1)&gt; Rock & Roll');
    });
  });
});
