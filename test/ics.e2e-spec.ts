import * as nodeIcal from 'node-ical';
import request from 'supertest';
import { ICS_FEED_MAX_EVENTS } from '../src/ics/events-ics.service';
import { insertEvents, postEvent } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

// The site zone differs from every event's zone, so that each date can only be right when it is
// written in its own event's zone.
process.env.SITE_TIMEZONE = 'America/New_York';

const API = '/cal/events/v1';

/** node-ical, an independent parser, reads the text; events come back by UID. */
function parseEvents(text: string): Map<string, nodeIcal.VEvent> {
  const components = nodeIcal.sync.parseICS(text);
  const events = new Map<string, nodeIcal.VEvent>();
  for (const component of Object.values(components)) {
    if (component.type === 'VEVENT') events.set(component.uid, component);
  }
  return events;
}

/** Property values with parameters come back as `{params, val}`. */
function valueOf(property: unknown): unknown {
  return typeof property === 'object' && property !== null && 'val' in property ? property.val : property;
}

/** DATE values are parsed as local midnight; their calendar day is what counts. */
function calendarDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The unfolded lines of an iCalendar text. */
function unfoldedLines(text: string): string[] {
  return text.replace(/\r\n[ \t]/g, '').split('\r\n');
}

describe('iCalendar (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  const ids: Record<string, number> = {};
  const jsonOf: Record<string, Record<string, any>> = {};

  const http = () => request(testApp.server);

  async function createEvent(key: string, body: Record<string, unknown>): Promise<void> {
    jsonOf[key] = await postEvent(testApp, editor, body);
    ids[key] = jsonOf[key].id;
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    const venue = await http()
      .post(`${API}/venues`)
      .set('Authorization', editor.authorization)
      .send({
        venue: 'Harbour Hall',
        address: '1 Pier Road',
        city: 'Hong Kong',
        country: 'China',
        zip: '999077',
        geo_lat: 22.2855,
        geo_lng: 114.1577,
      })
      .expect(201);
    const organizer = await http()
      .post(`${API}/organizers`)
      .set('Authorization', editor.authorization)
      .send({ organizer: 'Lantern Society', email: 'hello@lantern.example.org' })
      .expect(201);
    await createEvent('hongKong', {
      title: 'Harbour Night; lanterns, fireworks',
      description: '<p>Doors at 7.<br />Bring a friend &amp; a coat.</p><p>Rain or shine.</p>',
      start_date: '2027-03-10 19:30:00',
      end_date: '2027-03-10 22:00:00',
      timezone: 'Asia/Hong_Kong',
      venue: venue.body.id,
      organizer: [organizer.body.id],
      categories: ['Concerts', 'Outdoor'],
      status: 'publish',
    });
    await createEvent('allDay', {
      title: 'Book fair',
      all_day: true,
      start_date: '2027-02-01',
      end_date: '2027-02-03',
      timezone: 'Europe/Paris',
      status: 'publish',
    });
    await createEvent('paris', {
      title: 'Bastille Day concert',
      start_date: '2027-07-14 21:00:00',
      end_date: '2027-07-14 23:00:00',
      timezone: 'Europe/Paris',
      status: 'publish',
    });
    await createEvent('manualOffset', {
      title: 'Offset talk',
      start_date: '2027-04-02 09:00:00',
      end_date: '2027-04-02 10:00:00',
      timezone: 'UTC+2',
      status: 'publish',
    });
    await createEvent('draft', {
      title: 'Secret rehearsal',
      start_date: '2027-03-11 10:00:00',
      end_date: '2027-03-11 11:00:00',
      timezone: 'UTC',
      status: 'draft',
    });
    await createEvent('unlisted', {
      title: 'Unlisted meetup',
      start_date: '2027-03-12 10:00:00',
      end_date: '2027-03-12 11:00:00',
      timezone: 'UTC',
      status: 'publish',
      hide_from_listings: true,
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const uid = (key: string) => `${ids[key]}@127.0.0.1`;

  describe('feed', () => {
    let text: string;
    let parsed: Map<string, nodeIcal.VEvent>;

    beforeAll(async () => {
      const response = await http().get(`${API}/events/ics?start_date=2027-01-01`).expect(200);
      expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
      text = response.text;
      parsed = parseEvents(text);
    });

    it('holds the published listed events with stable UIDs, drafts and unlisted ones left out', () => {
      expect([...parsed.keys()].sort()).toEqual([uid('hongKong'), uid('allDay'), uid('paris'), uid('manualOffset')].sort());
      expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
      expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    });

    it('defines every TZID it uses in a VTIMEZONE, after the calendar properties and before the events', () => {
      const lines = unfoldedLines(text);
      const used = new Set(lines.flatMap((line) => /;TZID=([^:;]+)/.exec(line)?.[1] ?? []));
      const defined = lines.filter((line) => line.startsWith('TZID:')).map((line) => line.slice('TZID:'.length));
      expect([...used].sort()).toEqual(['Asia/Hong_Kong', 'Europe/Paris']);
      expect(defined.sort()).toEqual([...used].sort());
      const firstZone = lines.indexOf('BEGIN:VTIMEZONE');
      expect(firstZone).toBeGreaterThan(lines.findIndex((line) => line.startsWith('X-PUBLISHED-TTL:')));
      expect(lines.lastIndexOf('END:VTIMEZONE')).toBeLessThan(lines.indexOf('BEGIN:VEVENT'));
    });

    it('writes a Hong Kong event in its zone with a VTIMEZONE, at the right instants', () => {
      const event = parsed.get(uid('hongKong'))!;
      expect(event.summary).toBe('Harbour Night; lanterns, fireworks');
      expect(event.datetype).toBe('date-time');
      expect(event.start.toISOString()).toBe('2027-03-10T11:30:00.000Z');
      expect(event.end.toISOString()).toBe('2027-03-10T14:00:00.000Z');
      expect(event.start.tz).toBe('Asia/Hong_Kong');
      const lines = unfoldedLines(text);
      expect(lines).toContain('DTSTART;TZID=Asia/Hong_Kong:20270310T193000');
      const zone = lines.slice(lines.indexOf('TZID:Asia/Hong_Kong') - 1);
      expect(zone.slice(0, zone.indexOf('END:VTIMEZONE') + 1)).toEqual(
        expect.arrayContaining(['BEGIN:VTIMEZONE', 'TZOFFSETFROM:+0800', 'TZOFFSETTO:+0800', 'END:VTIMEZONE']),
      );
    });

    it('gives the venue as location (name and address) with GEO, the organizer, the URL and the categories', () => {
      const event = parsed.get(uid('hongKong'))!;
      expect(event.location).toBe('Harbour Hall\n1 Pier Road, Hong Kong, 999077, China');
      expect(event.geo).toEqual({ lat: 22.2855, lon: 114.1577 });
      expect(event.organizer).toEqual({ params: { CN: 'Lantern Society' }, val: 'mailto:hello@lantern.example.org' });
      // Each supertest request runs on another port: compare what follows the origin.
      expect(new URL(String(valueOf(event.url))).pathname).toBe(new URL(jsonOf.hongKong.url).pathname);
      expect((event as unknown as { categories: string[] }).categories).toEqual(['Concerts', 'Outdoor']);
    });

    it('gives the description as plain text', () => {
      expect(parsed.get(uid('hongKong'))!.description).toBe('Doors at 7.\nBring a friend & a coat.\n\nRain or shine.');
    });

    it('writes an all-day event as DATE values ending the day after its last day', () => {
      const event = parsed.get(uid('allDay'))!;
      expect(event.datetype).toBe('date');
      expect((event.start as Date & { dateOnly?: boolean }).dateOnly).toBe(true);
      expect(calendarDay(event.start)).toBe('2027-02-01');
      expect(calendarDay(event.end)).toBe('2027-02-04');
      const lines = unfoldedLines(text);
      expect(lines).toEqual(expect.arrayContaining(['DTSTART;VALUE=DATE:20270201', 'DTEND;VALUE=DATE:20270204']));
    });

    it('keeps a summer Paris event at its daylight saving time offset', () => {
      const event = parsed.get(uid('paris'))!;
      expect(event.start.toISOString()).toBe('2027-07-14T19:00:00.000Z');
      expect(event.end.toISOString()).toBe('2027-07-14T21:00:00.000Z');
      const lines = unfoldedLines(text);
      expect(lines).toContain('DTSTART;TZID=Europe/Paris:20270714T210000');
      expect(lines).toEqual(expect.arrayContaining(['TZID:Europe/Paris', 'DTSTART:20270328T020000', 'TZOFFSETTO:+0200']));
    });

    it('writes an event in a manual offset zone in UTC', () => {
      const event = parsed.get(uid('manualOffset'))!;
      expect(event.start.toISOString()).toBe('2027-04-02T07:00:00.000Z');
      expect(unfoldedLines(text)).toContain('DTSTART:20270402T070000Z');
    });

    it('says how many events matched in X-TEC-Total', async () => {
      const response = await http().get(`${API}/events/ics?start_date=2027-01-01`).expect(200);
      expect(response.headers['x-tec-total']).toBe('4');
    });

    it('answers a repeated request for an unchanged feed with 304', async () => {
      // One Host for both requests: the calendar's URL, and so the body, depends on it.
      const first = await http().get(`${API}/events/ics?start_date=2027-01-01`).set('Host', 'cal.example.org').expect(200);
      expect(first.headers.etag).toBeDefined();
      await http()
        .get(`${API}/events/ics?start_date=2027-01-01`)
        .set('Host', 'cal.example.org')
        .set('If-None-Match', first.headers.etag)
        .expect(304);
    });
  });

  describe('feed filters and visibility', () => {
    async function feedUids(query: string, authorization?: string): Promise<string[]> {
      const call = http().get(`${API}/events/ics?${query}`);
      if (authorization) call.set('Authorization', authorization);
      const response = await call.expect(200);
      return [...parseEvents(response.text).keys()].sort();
    }

    it('applies the list filters', async () => {
      expect(await feedUids('start_date=2027-01-01&categories=outdoor')).toEqual([uid('hongKong')]);
      expect(await feedUids('start_date=2027-07-01')).toEqual([uid('paris')]);
      expect(await feedUids('start_date=2027-01-01&search=bastille')).toEqual([uid('paris')]);
      expect(await feedUids('include=' + ids.allDay)).toEqual([uid('allDay')]);
    });

    it('shows drafts to an editor only', async () => {
      expect(await feedUids('start_date=2027-01-01', editor.authorization)).toContain(uid('draft'));
      expect(await feedUids('start_date=2027-01-01')).not.toContain(uid('draft'));
    });

    it('refuses what the list refuses, in the error envelope', async () => {
      const response = await http().get(`${API}/events/ics?venue=999999`).expect(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { venue: expect.any(String) } } });
      await http().get(`${API}/events/ics?status=draft`).expect(400);
    });

    it('ignores page and per_page: a feed is not paged', async () => {
      expect(await feedUids('start_date=2027-01-01&per_page=1&page=3')).toHaveLength(4);
    });
  });

  describe('single event', () => {
    it('serves one event as an attachment named after its slug', async () => {
      const response = await http().get(`${API}/events/${ids.hongKong}/ics`).expect(200);
      expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${jsonOf.hongKong.slug}.ics"`);
      const parsed = parseEvents(response.text);
      expect([...parsed.keys()]).toEqual([uid('hongKong')]);
      expect(parsed.get(uid('hongKong'))!.start.toISOString()).toBe('2027-03-10T11:30:00.000Z');
    });

    it('serves an unlisted event, as the single JSON read does', async () => {
      const parsed = parseEvents((await http().get(`${API}/events/${ids.unlisted}/ics`).expect(200)).text);
      expect(parsed.get(uid('unlisted'))!.summary).toBe('Unlisted meetup');
    });

    it('takes LAST-MODIFIED and SEQUENCE from the modification time', async () => {
      const updated = await http()
        .patch(`${API}/events/${ids.paris}`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Bastille Day concert (moved)' })
        .expect(200);
      const response = await http().get(`${API}/events/${ids.paris}/ics`).expect(200);
      const event = parseEvents(response.text).get(uid('paris'))!;
      const modified = new Date(`${updated.body.modified_utc.replace(' ', 'T')}Z`);
      expect(event.summary).toBe('Bastille Day concert (moved)');
      expect(Math.floor(event.lastmodified.getTime() / 1000)).toBe(modified.getTime() / 1000);
      expect(Number(event.sequence)).toBe(Math.floor((modified.getTime() - Date.UTC(2020, 0, 1)) / 1000));
    });

    it('keeps drafts from anonymous callers and shows them to editors', async () => {
      const response = await http().get(`${API}/events/${ids.draft}/ics`).expect(403);
      expect(response.body).toMatchObject({ code: 'event-not-accessible', data: { status: 403 } });
      const asEditor = await http().get(`${API}/events/${ids.draft}/ics`).set('Authorization', editor.authorization).expect(200);
      expect(parseEvents(asEditor.text).get(uid('draft'))!.status).toBe('TENTATIVE');
    });

    it('returns 404 rest-event-not-found for an unknown id and rest_no_route for a non-numeric one', async () => {
      const response = await http().get(`${API}/events/999999/ics`).expect(404);
      expect(response.body).toEqual({
        code: 'rest-event-not-found',
        message: 'Event with ID 999999 does not exist.',
        data: { status: 404 },
      });
      expect((await http().get(`${API}/events/abc/ics`).expect(404)).body.code).toBe('rest_no_route');
    });
  });

  describe('text values escaped as RFC 5545 says (CR, LF, semicolon, comma, backslash)', () => {
    /** Every character a TEXT value must escape, and lines that would be an injected event if they were not. */
    const nasty = (label: string) => `${label}; a, b \\ c\r\nBEGIN:VEVENT\rUID:evil-${label}\nSUMMARY:injected\r\nEND:VEVENT`;
    /** What a reader gets back: one kind of line break. */
    const asRead = (value: string) => value.replace(/\r\n|\r/g, '\n');
    let title: string;
    let venueName: string;
    let venueAddress: Record<string, string>;
    let organizerName: string;
    let categoryName: string;
    let description: string;

    beforeAll(async () => {
      title = nasty('Title');
      venueName = nasty('Venue');
      venueAddress = { address: nasty('Address'), city: nasty('City'), zip: nasty('Zip'), country: nasty('Country') };
      organizerName = `${nasty('Organizer')} "quoted"`;
      categoryName = nasty('Category');
      description = nasty('Description');
      const venue = await http()
        .post(`${API}/venues`)
        .set('Authorization', editor.authorization)
        .send({ venue: venueName, ...venueAddress })
        .expect(201);
      const organizer = await http()
        .post(`${API}/organizers`)
        .set('Authorization', editor.authorization)
        .send({ organizer: organizerName, email: 'nasty@example.org' })
        .expect(201);
      const category = await http()
        .post(`${API}/categories`)
        .set('Authorization', editor.authorization)
        .send({ name: categoryName })
        .expect(201);
      await createEvent('nasty', {
        title,
        description,
        start_date: '2027-05-05 10:00:00',
        end_date: '2027-05-05 11:00:00',
        timezone: 'UTC',
        venue: venue.body.id,
        organizer: [organizer.body.id],
        categories: [category.body.id],
        status: 'publish',
      });
    });

    function expectRoundTrip(text: string, expectedEvents: number): void {
      const lines = unfoldedLines(text);
      expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(expectedEvents);
      expect(lines.some((line) => line.startsWith('UID:evil'))).toBe(false);
      const event = parseEvents(text).get(uid('nasty'))!;
      expect(event).toBeDefined();
      expect(event.summary).toBe(asRead(title));
      expect(event.description).toBe(asRead(description));
      const address = [venueAddress.address, venueAddress.city, venueAddress.zip, venueAddress.country].map(asRead).join(', ');
      expect(event.location).toBe(`${asRead(venueName)}\n${address}`);
      // node-ical splits CATEGORIES at every comma, escaped or not: the line itself is checked.
      expect(lines).toContain(`CATEGORIES:${escapedText(categoryName)}`);
      // A quoted parameter can hold neither a line break nor a double quote, in any form.
      // node-ical splits parameters at every semicolon, quoted or not: the line itself is checked
      // (ical-generator doubles backslashes in parameters).
      const commonName = organizerName
        .replace(/\r\n|\r|\n/g, ' ')
        .replace(/"/g, "'")
        .replace(/\\/g, '\\\\');
      expect(lines).toContain(`ORGANIZER;CN="${commonName}":mailto:nasty@example.org`);
      for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    }

    it('writes one event per event in the single-event file, every value read back as sent, the calendar name escaped', async () => {
      const response = await http().get(`${API}/events/${ids.nasty}/ics`).expect(200);
      expectRoundTrip(response.text, 1);
      const calendarName = unfoldedLines(response.text).filter((line) => line.startsWith('NAME:') || line.startsWith('X-WR-CALNAME:'));
      expect(calendarName).toEqual([`NAME:${escapedText(title)}`, `X-WR-CALNAME:${escapedText(title)}`]);
    });

    it('does the same in the feed', async () => {
      const response = await http().get(`${API}/events/ics?start_date=2027-05-05&end_date=2027-05-05`).expect(200);
      expectRoundTrip(response.text, 1);
    });

    function escapedText(value: string): string {
      return value.replace(/[\\;,]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n');
    }
  });

  it('documents both routes in the events namespace’s OpenAPI document', async () => {
    const doc = (await http().get(`${API}/doc`).expect(200)).body;
    for (const path of ['/events/ics', '/events/{id}/ics']) {
      expect(doc.paths[path].get.responses['200'].content).toHaveProperty('text/calendar');
    }
    expect(doc.paths['/events/ics'].get.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['start_date', 'end_date', 'categories', 'venue', 'search']),
    );
    expect(doc.paths['/events/ics'].get.parameters.map((parameter: { name: string }) => parameter.name)).not.toContain('per_page');
  });

  describe('size cap', () => {
    beforeAll(async () => {
      // Rows straight into the table: through the API this would take far longer than the test.
      const rows = Array.from({ length: ICS_FEED_MAX_EVENTS + 3 }, (_unused, index) => {
        const start = new Date(Date.UTC(2029, 0, 1, 12, index));
        return {
          title: `Bulk ${index}`,
          slug: `bulk-${index}`,
          authorId: editor.id,
          startUtc: start,
          endUtc: new Date(start.getTime() + 30 * 60_000),
        };
      });
      await insertEvents(testApp.dataSource, rows);
    });

    it(`holds at most ${ICS_FEED_MAX_EVENTS} events, the earliest, and counts them all`, async () => {
      const response = await http().get(`${API}/events/ics?start_date=2029-01-01&end_date=2029-12-31`).expect(200);
      expect(response.headers['x-tec-total']).toBe(String(ICS_FEED_MAX_EVENTS + 3));
      const summaries = [...parseEvents(response.text).values()].map((event) => event.summary);
      expect(summaries).toHaveLength(ICS_FEED_MAX_EVENTS);
      expect(summaries).toContain('Bulk 0');
      expect(summaries).not.toContain(`Bulk ${ICS_FEED_MAX_EVENTS}`);
    });
  });
});
