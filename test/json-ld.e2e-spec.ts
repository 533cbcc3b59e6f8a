import request from 'supertest';
import { TicketPool } from '../src/tickets/ticket-pool.entity';
import { postEvent } from './helpers/fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertPool, insertTicket } from './helpers/ticketing-fixtures';

// Events are created in other zones than the site's, so an offset can only be right when it is
// the event's own.
process.env.SITE_TIMEZONE = 'America/New_York';

const API = '/cal/events/v1';
const SCHEMA_CONTEXT = /^https?:\/\/schema\.org\/?$/;
/** ISO 8601 date and time with an explicit offset (or Z), as schema.org's DateTime wants. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const EVENT_STATUSES = ['EventScheduled', 'EventCancelled', 'EventMovedOnline', 'EventPostponed', 'EventRescheduled'].map(
  (name) => `https://schema.org/${name}`,
);
const ATTENDANCE_MODES = ['OfflineEventAttendanceMode', 'OnlineEventAttendanceMode', 'MixedEventAttendanceMode'].map(
  (name) => `https://schema.org/${name}`,
);
const IN_STOCK = 'https://schema.org/InStock';
const SOLD_OUT = 'https://schema.org/SoldOut';

type JsonLd = Record<string, any>;

/** The instant of a `YYYY-MM-DD HH:MM:SS` UTC field of a response. */
function utcInstant(wallClock: string): number {
  return Date.parse(`${wallClock.replace(' ', 'T')}Z`);
}

/** A schema.org DateTime with an offset, naming the instant given. */
function expectDateTime(value: unknown, instant: number): void {
  expect(value).toMatch(ISO_WITH_OFFSET);
  expect(Date.parse(value as string)).toBe(instant);
}

/** What every event's JSON-LD must be, whatever the event. */
function expectSchemaOrgEvent(jsonLd: JsonLd, event: Record<string, any>): void {
  expect(jsonLd['@context']).toMatch(SCHEMA_CONTEXT);
  expect(jsonLd['@type']).toBe('Event');
  expect(jsonLd.name).toBe(event.title);
  expect(jsonLd.url).toBe(event.url);
  expect(jsonLd.description).not.toMatch(/<[a-z/]/i);
  expectDateTime(jsonLd.startDate, utcInstant(event.utc_start_date));
  expectDateTime(jsonLd.endDate, utcInstant(event.utc_end_date));
  expect(EVENT_STATUSES).toContain(jsonLd.eventStatus);
  expect(ATTENDANCE_MODES).toContain(jsonLd.eventAttendanceMode);
  // A performer is a Person or an Organization, not the name of a type.
  if (jsonLd.performer !== undefined)
    expect(jsonLd.performer).toMatchObject({ '@type': expect.stringMatching(/^(Person|Organization|PerformingGroup)$/) });
  const offers: JsonLd[] = jsonLd.offers === undefined ? [] : Array.isArray(jsonLd.offers) ? jsonLd.offers : [jsonLd.offers];
  for (const offer of offers) {
    expect(offer['@type']).toBe('Offer');
    expect(offer.price).toMatch(/^\d+(\.\d+)?$/);
    expect(offer.priceCurrency).toMatch(/^[A-Z]{3}$/);
    expect([IN_STOCK, SOLD_OUT]).toContain(offer.availability);
    expect(offer.url).toBe(event.url);
    if (offer.validFrom !== undefined) expect(offer.validFrom).toMatch(ISO_WITH_OFFSET);
    if (offer.validThrough !== undefined) expect(offer.validThrough).toMatch(ISO_WITH_OFFSET);
  }
}

function expectSchemaOrgPlace(place: JsonLd, venue: Record<string, any>): void {
  expect(place['@type']).toBe('Place');
  expect(place.name).toBe(venue.venue);
  expect(place.address).toEqual({
    '@type': 'PostalAddress',
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: venue.stateprovince,
    postalCode: venue.zip,
    addressCountry: venue.country,
  });
  expect(place.geo).toEqual({ '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng });
  expect(typeof place.geo.latitude).toBe('number');
}

describe('JSON-LD (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let venue: Record<string, any>;
  let organizer: Record<string, any>;

  const http = () => request(testApp.server);

  async function createEvent(body: Record<string, unknown>): Promise<Record<string, any>> {
    return postEvent(testApp, editor, { status: 'publish', ...body });
  }

  async function readEvent(id: number): Promise<Record<string, any>> {
    return (await http().get(`${API}/events/${id}`).expect(200)).body;
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    venue = (
      await http()
        .post(`${API}/venues`)
        .set('Authorization', editor.authorization)
        .send({
          venue: 'Star Ferry Pier',
          address: '1 Edinburgh Place',
          city: 'Hong Kong',
          stateprovince: 'Central',
          zip: '999077',
          country: 'China',
          geo_lat: 22.2871,
          geo_lng: 114.1615,
        })
        .expect(201)
    ).body;
    organizer = (
      await http()
        .post(`${API}/organizers`)
        .set('Authorization', editor.authorization)
        .send({
          organizer: 'Harbour Arts',
          email: 'tickets@harbour.example.org',
          website: 'https://harbour.example.org',
          phone: '+852 5555 0100',
        })
        .expect(201)
    ).body;
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('events', () => {
    it('describes an event in Hong Kong with +08:00 dates, its venue as location and its organizer', async () => {
      const created = await createEvent({
        title: 'Harbour lights',
        description: '<p>Fireworks <strong>over</strong> the harbour.</p>',
        start_date: '2027-03-10 19:30:00',
        end_date: '2027-03-10 22:00:00',
        timezone: 'Asia/Hong_Kong',
        venue: venue.id,
        organizer: [organizer.id],
        cost: '10',
      });
      const event = await readEvent(created.id);
      const jsonLd = event.json_ld as JsonLd;
      expectSchemaOrgEvent(jsonLd, event);
      expect(jsonLd.startDate).toBe('2027-03-10T19:30:00+08:00');
      expect(jsonLd.endDate).toBe('2027-03-10T22:00:00+08:00');
      expect(jsonLd.description).toBe('Fireworks over the harbour.');
      expectSchemaOrgPlace(jsonLd.location, venue);
      expect(jsonLd.organizer).toMatchObject({
        '@type': expect.stringMatching(/^(Person|Organization)$/),
        name: 'Harbour Arts',
        email: 'tickets@harbour.example.org',
        url: 'https://harbour.example.org',
      });
    });

    it('gives the offset in force at the event: daylight saving time in summer, standard time in winter', async () => {
      const summer = await readEvent(
        (
          await createEvent({
            title: 'Summer in Paris',
            start_date: '2027-07-14 21:00:00',
            end_date: '2027-07-14 23:00:00',
            timezone: 'Europe/Paris',
          })
        ).id,
      );
      expectSchemaOrgEvent(summer.json_ld, summer);
      expect(summer.json_ld.startDate).toBe('2027-07-14T21:00:00+02:00');
      const winter = await readEvent(
        (
          await createEvent({
            title: 'Winter in Paris',
            start_date: '2027-01-14 21:00:00',
            end_date: '2027-01-14 23:00:00',
            timezone: 'Europe/Paris',
          })
        ).id,
      );
      expect(winter.json_ld.startDate).toBe('2027-01-14T21:00:00+01:00');
    });

    it('gives an all-day event the instants of its first and last day', async () => {
      const event = await readEvent(
        (await createEvent({ title: 'Fair', all_day: true, start_date: '2027-02-01', end_date: '2027-02-02', timezone: 'Europe/Paris' }))
          .id,
      );
      expectSchemaOrgEvent(event.json_ld, event);
      expect(event.json_ld.startDate).toBe('2027-02-01T00:00:00+01:00');
      expect(event.json_ld.endDate).toBe('2027-02-02T23:59:59+01:00');
    });

    it('makes one offer per price of the cost when the event has no tickets', async () => {
      const event = await readEvent(
        (await createEvent({ title: 'Costed', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 12:00:00', cost: '10 - 20' })).id,
      );
      expectSchemaOrgEvent(event.json_ld, event);
      expect(event.json_ld.offers).toEqual([
        expect.objectContaining({ price: '10', priceCurrency: 'USD', availability: IN_STOCK }),
        expect.objectContaining({ price: '20', priceCurrency: 'USD', availability: IN_STOCK }),
      ]);
    });

    it('leaves offers out of a free event without tickets or cost', async () => {
      const event = await readEvent(
        (await createEvent({ title: 'No cost', start_date: '2027-05-02 10:00:00', end_date: '2027-05-02 12:00:00' })).id,
      );
      expectSchemaOrgEvent(event.json_ld, event);
      expect(event.json_ld).not.toHaveProperty('offers');
    });

    it('makes one offer per published ticket, with its price, stock and sale window', async () => {
      const created = await createEvent({
        title: 'Ticketed gala',
        start_date: '2027-06-01 19:00:00',
        end_date: '2027-06-01 23:00:00',
        timezone: 'Asia/Hong_Kong',
        cost: '99',
      });
      const dataSource = testApp.dataSource;
      const saleStart = new Date('2027-01-01T01:00:00Z');
      const saleEnd = new Date('2027-05-31T15:59:00Z');
      await insertTicket(dataSource, {
        eventId: created.id,
        name: 'Stalls',
        price: '25.00',
        capacity: 10,
        sold: 2,
        saleStartUtc: saleStart,
        saleEndUtc: saleEnd,
      });
      await insertTicket(dataSource, { eventId: created.id, name: 'Balcony', price: '12.50', capacity: 5, sold: 3, pending: 2 });
      await insertTicket(dataSource, {
        eventId: created.id,
        provider: 'rsvp',
        name: 'Guest list',
        price: '0.00',
        capacityMode: 'unlimited',
        capacity: null,
      });
      await insertTicket(dataSource, { eventId: created.id, name: 'Shared', price: '40.00', capacityMode: 'global', capacity: null });
      await insertTicket(dataSource, { eventId: created.id, name: 'Not yet', price: '5.00', status: 'draft' });
      await insertPool(dataSource, created.id, 4);
      await dataSource.getRepository(TicketPool).update({ eventId: created.id }, { sold: 4 });

      const event = await readEvent(created.id);
      expectSchemaOrgEvent(event.json_ld, event);
      expect(event.json_ld.offers).toEqual([
        {
          '@type': 'Offer',
          url: event.url,
          price: '25',
          category: 'primary',
          availability: IN_STOCK,
          priceCurrency: 'USD',
          validFrom: '2027-01-01T09:00:00+08:00',
          validThrough: '2027-05-31T23:59:00+08:00',
        },
        // Units held by pending orders are not for sale.
        expect.objectContaining({ price: '12.50', availability: SOLD_OUT }),
        expect.objectContaining({ price: '0', availability: IN_STOCK }),
        // A global ticket is sold out when the event's shared capacity is.
        expect.objectContaining({ price: '40', availability: SOLD_OUT }),
      ]);
      // Without a sale start, an offer is valid from the ticket's publication; without an end, no end is given.
      expect(Date.parse(event.json_ld.offers[1].validFrom)).toBe(Date.parse('2026-01-01T00:00:00Z'));
      expect(event.json_ld.offers[1]).not.toHaveProperty('validThrough');
    });

    it('keeps json_ld to single reads', async () => {
      const response = await http().get(`${API}/events?start_date=2027-01-01`).expect(200);
      expect(response.body.events.length).toBeGreaterThan(0);
      for (const event of response.body.events) expect(event).not.toHaveProperty('json_ld');
    });
  });

  describe('venues and organizers', () => {
    it('describes a venue as a Place with a PostalAddress and coordinates', async () => {
      const response = await http().get(`${API}/venues/${venue.id}`).expect(200);
      expectSchemaOrgPlace(response.body.json_ld, venue);
    });

    it('describes an organizer as a Person with name, email, telephone and website', async () => {
      const response = await http().get(`${API}/organizers/${organizer.id}`).expect(200);
      expect(response.body.json_ld).toMatchObject({
        '@type': 'Person',
        name: 'Harbour Arts',
        email: 'tickets@harbour.example.org',
        telephone: '+852 5555 0100',
        url: 'https://harbour.example.org',
        sameAs: 'https://harbour.example.org',
      });
    });

    it('embeds the same Place and Person in the event’s venue and organizer objects', async () => {
      const event = await readEvent(
        (
          await createEvent({
            title: 'Embedded',
            start_date: '2027-08-01 10:00:00',
            end_date: '2027-08-01 11:00:00',
            venue: venue.id,
            organizer: [organizer.id],
          })
        ).id,
      );
      expect(event.venue.json_ld).toEqual(event.json_ld.location);
      expect(event.organizer[0].json_ld).toEqual(event.json_ld.organizer);
    });
  });
});
