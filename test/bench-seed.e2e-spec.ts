import request from 'supertest';
import { BENCH_ADMIN_AUTHORIZATION, BENCH_ADMIN_LOGIN } from '../bench/credentials';
import { seedBenchmarkData, SeedSummary } from '../bench/seed';
import { createTestApp, TestApp } from './helpers/test-app';

const SEED = 7;
const FIRST_EVENTS = 2000;
const TOPPED_UP_EVENTS = 3000;

interface EventBody {
  id: number;
  status: string;
  utc_start_date: string;
  venue: { id: number; city: string } | unknown[];
  organizer: Array<{ id: number }>;
  categories: Array<{ id: number }>;
  tags: Array<{ id: number }>;
}

describe('Benchmark seed (e2e): bench/seed.ts through the running app', () => {
  let testApp: TestApp;
  let first: SeedSummary;

  const http = () => request(testApp.server);
  const scalar = async (sql: string): Promise<number> => {
    const [row] = await testApp.dataSource.query<Array<Record<string, unknown>>>(sql);
    return Number(Object.values(row)[0]);
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    first = await seedBenchmarkData(testApp.dataSource, { events: FIRST_EVENTS, seed: SEED });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('creates the shared rows once and the requested number of events', async () => {
    expect(first.eventsBefore).toBe(0);
    expect(first.eventsAdded).toBe(FIRST_EVENTS);
    expect(first.rows.events.total).toBe(FIRST_EVENTS);
    expect(first.rows.venues.total).toBe(2000);
    expect(first.rows.organizers.total).toBe(500);
    expect(first.rows.event_categories.total).toBe(50);
    expect(first.rows.event_tags.total).toBe(300);
    expect(await scalar('SELECT COUNT(*) FROM event_categories WHERE parent_id IS NULL')).toBe(10);
    expect(await scalar("SELECT COUNT(*) FROM users WHERE role = 'subscriber' AND login LIKE 'bench-buyer-%'")).toBe(5000);
    // The bootstrap administrator of the test environment is still its own user.
    expect(await scalar("SELECT COUNT(*) FROM users WHERE login = 'admin'")).toBe(1);
    expect(first.ids.adminUserId).not.toBe(await scalar("SELECT id FROM users WHERE login = 'admin'"));
  });

  it('lists published upcoming events with venue, organizers, categories and tags embedded', async () => {
    const response = await http().get('/cal/events/v1/events?per_page=100').expect(200);
    const events = response.body.events as EventBody[];
    expect(events.length).toBe(100);
    const startOfToday = new Date();
    startOfToday.setUTCHours(0, 0, 0, 0);
    for (const event of events) {
      expect(event.status).toBe('publish');
      expect(Date.parse(`${event.utc_start_date.replace(' ', 'T')}Z`)).toBeGreaterThanOrEqual(startOfToday.getTime());
      expect(event.organizer.length).toBeGreaterThanOrEqual(1);
      expect(event.organizer.length).toBeLessThanOrEqual(3);
    }
    const withVenue = events.filter((event) => !Array.isArray(event.venue));
    expect(withVenue.length).toBeGreaterThan(80);
    expect((withVenue[0].venue as { city: string }).city).toEqual(expect.any(String));
    expect(events.some((event) => event.categories.length > 0)).toBe(true);
    expect(events.some((event) => event.tags.length > 0)).toBe(true);

    const listed = await scalar(
      `SELECT COUNT(*) FROM events WHERE status = 'publish' AND hide_from_listings = 0 AND start_utc >= '${startOfToday.toISOString().slice(0, 10)} 00:00:00'`,
    );
    // The default window also ends 24 months ahead, so it holds most but not all upcoming events.
    expect(Number(response.headers['x-tec-total'])).toBeGreaterThan(listed * 0.6);
    expect(Number(response.headers['x-tec-total'])).toBeLessThanOrEqual(listed);
  });

  it('never shows drafts to anonymous callers', async () => {
    const drafts = await testApp.dataSource.query<Array<{ id: number }>>("SELECT id FROM events WHERE status = 'draft' ORDER BY id");
    expect(drafts.length).toBeGreaterThan(0);
    const include = drafts
      .slice(0, 50)
      .map((draft) => draft.id)
      .join(',');
    const response = await http().get(`/cal/events/v1/events?include=${include}`).expect(200);
    expect(response.body.events).toEqual([]);
    await http().get(`/cal/events/v1/events/${drafts[0].id}`).expect(403);
    const page = await http().get('/cal/events/v1/events?per_page=100&page=2').expect(200);
    expect((page.body.events as EventBody[]).every((event) => event.status === 'publish')).toBe(true);
  });

  it('lists the tickets of a ticketed event', async () => {
    const [event] = await testApp.dataSource.query<Array<{ id: number; tickets: number }>>(
      `SELECT e.id, COUNT(t.id) AS tickets FROM events e JOIN tickets t ON t.event_id = e.id
       WHERE e.status = 'publish' GROUP BY e.id HAVING COUNT(t.id) >= 2 ORDER BY e.id LIMIT 1`,
    );
    const response = await http().get(`/cal/tickets/v1/tickets?include_post=${event.id}`).expect(200);
    expect(response.body.tickets).toHaveLength(Number(event.tickets));
    for (const ticket of response.body.tickets as Array<{ post_id: number; provider: string }>) {
      expect(ticket.post_id).toBe(Number(event.id));
      expect(['rsvp', 'tc']).toContain(ticket.provider);
    }
  });

  it('lets the bench administrator list every attendee with its application password', async () => {
    const response = await http().get('/cal/tickets/v1/attendees?per_page=50').set('Authorization', BENCH_ADMIN_AUTHORIZATION).expect(200);
    expect(Number(response.headers['x-et-total'])).toBe(await scalar('SELECT COUNT(*) FROM attendees'));
    expect(response.body.attendees.length).toBe(50);
    expect(response.body.attendees[0].security_code).toMatch(/^[0-9a-f]{32}$/);
    expect(first.credentials[0].login).toBe(BENCH_ADMIN_LOGIN);
  });

  it('stores each term’s count of published events, as the events service keeps it', async () => {
    for (const [terms, links, column] of [
      ['event_categories', 'event_category_links', 'category_id'],
      ['event_tags', 'event_tag_links', 'tag_id'],
    ]) {
      const counted = `(SELECT COUNT(*) FROM ${links} l INNER JOIN events e ON e.id = l.event_id WHERE l.${column} = t.id AND e.status = 'publish')`;
      expect(await scalar(`SELECT COUNT(*) FROM ${terms} t WHERE t.published_event_count <> ${counted}`)).toBe(0);
      expect(await scalar(`SELECT SUM(published_event_count) FROM ${terms}`)).toBeGreaterThan(0);
    }
  });

  it('gives the intended shares and consistent ticket counts', async () => {
    const events = await scalar('SELECT COUNT(*) FROM events');
    const share = async (where: string) => (await scalar(`SELECT COUNT(*) FROM events WHERE ${where}`)) / events;
    expect(await share('all_day = 1')).toBeGreaterThan(0.01);
    expect(await share('all_day = 1')).toBeLessThan(0.035);
    expect(await share("status = 'draft'")).toBeGreaterThan(0.035);
    expect(await share("status = 'draft'")).toBeLessThan(0.065);
    expect(await share('id IN (SELECT event_id FROM tickets)')).toBeGreaterThan(0.17);
    expect(await share('id IN (SELECT event_id FROM tickets)')).toBeLessThan(0.23);
    expect(await share('hide_from_listings = 1')).toBeLessThan(0.025);
    expect(await share('id IN (SELECT event_id FROM event_organizer_links WHERE position > 0)')).toBeGreaterThan(0.25);
    expect(await share('id IN (SELECT event_id FROM event_organizer_links WHERE position > 0)')).toBeLessThan(0.35);
    expect(await share('id NOT IN (SELECT event_id FROM event_venue_links)')).toBeLessThan(0.06);

    // Sold counts are the attendees holding a place (completed orders, RSVP "yes"), pools the sum of their tickets.
    expect(
      await scalar(
        `SELECT COUNT(*) FROM ticket_capacity_counters t WHERE t.sold <> (SELECT COUNT(*) FROM attendees a WHERE a.ticket_id = t.ticket_id AND a.order_status IN ('completed', 'yes'))`,
      ),
    ).toBe(0);
    expect(
      await scalar(
        `SELECT COUNT(*) FROM ticket_pools p WHERE p.sold <> (SELECT COALESCE(SUM(c.sold), 0) FROM tickets t INNER JOIN ticket_capacity_counters c ON c.ticket_id = t.id WHERE t.event_id = p.event_id AND t.capacity_mode IN ('capped', 'global'))`,
      ),
    ).toBe(0);
    expect(
      await scalar(
        "SELECT COUNT(*) FROM attendees a JOIN orders o ON o.id = a.order_id WHERE o.provider = 'tc' AND a.order_status <> o.status",
      ),
    ).toBe(0);
    expect(await scalar('SELECT COUNT(*) FROM attendees')).toBe(await scalar('SELECT COUNT(DISTINCT security_code) FROM attendees'));
  });

  it('tops up 2 000 → 3 000 with exactly 1 000 new events and no new shared rows', async () => {
    const venueSlugs = await scalar('SELECT COUNT(DISTINCT slug) FROM venues');
    const attendeesBefore = await scalar('SELECT COUNT(*) FROM attendees');
    const second = await seedBenchmarkData(testApp.dataSource, { events: TOPPED_UP_EVENTS, seed: SEED });
    expect(second.eventsBefore).toBe(FIRST_EVENTS);
    expect(second.eventsAdded).toBe(TOPPED_UP_EVENTS - FIRST_EVENTS);
    expect(await scalar('SELECT COUNT(*) FROM events')).toBe(TOPPED_UP_EVENTS);
    expect(await scalar('SELECT COUNT(DISTINCT slug) FROM events')).toBe(TOPPED_UP_EVENTS);
    for (const table of ['users', 'application_passwords', 'venues', 'organizers', 'event_categories', 'event_tags']) {
      expect([table, second.rows[table].added]).toEqual([table, 0]);
    }
    expect(await scalar('SELECT COUNT(*) FROM venues')).toBe(2000);
    expect(await scalar('SELECT COUNT(DISTINCT slug) FROM venues')).toBe(venueSlugs);
    expect(second.ids).toEqual(first.ids);
    expect(second.addedEventIds).toEqual({ first: first.addedEventIds!.last + 1, last: first.addedEventIds!.last + 1000 });
    expect(await scalar('SELECT COUNT(*) FROM attendees')).toBe(attendeesBefore + second.rows.attendees.added);

    // Asking for fewer events than there are adds nothing.
    const third = await seedBenchmarkData(testApp.dataSource, { events: FIRST_EVENTS, seed: SEED });
    expect(third.eventsAdded).toBe(0);
    expect(await scalar('SELECT COUNT(*) FROM events')).toBe(TOPPED_UP_EVENTS);

    // New events are listed like the first ones: linked venue ids are among the shared venues.
    expect(
      await scalar(
        `SELECT COUNT(*) FROM event_venue_links WHERE event_id > ${first.addedEventIds!.last} AND venue_id NOT BETWEEN ${first.ids.venueIds.first} AND ${first.ids.venueIds.last}`,
      ),
    ).toBe(0);
  });
});
