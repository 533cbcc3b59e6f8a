import { join } from 'node:path';
import request from 'supertest';
import { runCli } from '../src/cli';
import { Attendee } from '../src/attendees/attendee.entity';
import { Event } from '../src/events/event.entity';
import { Order } from '../src/orders/order.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { Venue } from '../src/venues/venue.entity';
import { basicAuth, createTestApp, TestApp } from './helpers/test-app';

// The CLI opens its own connection, so on SQLite both must share a file rather than memory.
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'cli-demo.sqlite')}`;
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    return { code: await runCli(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('Command line tool: seed:demo (e2e)', () => {
  let testApp: TestApp;
  let summary: Record<string, any>;
  let demo: string;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.server);
  const count = (entity: Parameters<TestApp['dataSource']['getRepository']>[0]) => testApp.dataSource.getRepository(entity).count();

  it('lists every command in --help, seed:demo included', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const command of ['user:create', 'user:list', 'app-password:create', 'app-password:revoke', 'seed:demo']) expect(help.stdout).toContain(command);
  });

  it('loads the demo calendar into an empty database and prints one JSON line with the counts and a working login', async () => {
    const result = await cli('seed:demo');
    expect([result.code, result.stderr]).toEqual([0, '']);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    summary = JSON.parse(lines[0]);
    expect(summary).toEqual({
      login: 'demo',
      application_password: expect.stringMatching(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/),
      venues: 10,
      organizers: 4,
      categories: 6,
      tags: 6,
      events: 50,
      tickets: 12,
      orders: 5,
      attendees: 9,
      checked_in: 1,
      events_url: 'http://localhost:3000/cal/events/v1/events',
    });
    demo = basicAuth('demo', summary.application_password as string);
    await http().get('/cal/tickets/v1/nonces').set('Authorization', demo).expect(200);
  });

  it('shows 50 published upcoming events over the coming months, with venues, organizers and terms, to anyone', async () => {
    const list = await http().get('/cal/events/v1/events').query({ per_page: 50 }).expect(200);
    expect(list.body.total).toBe(50);
    const events = list.body.events as Array<Record<string, any>>;
    const starts = events.map((event) => Date.parse(`${(event.utc_start_date as string).replace(' ', 'T')}Z`));
    expect(starts[0]).toBeGreaterThan(Date.now());
    expect(starts[49] - starts[0]).toBeGreaterThan(150 * 86_400_000);
    expect(new Set(events.map((event) => event.venue.id)).size).toBe(10);
    expect(new Set(events.map((event) => event.timezone)).size).toBe(10);
    expect(events.some((event) => event.all_day)).toBe(true);
    expect(events.every((event) => event.organizer.length === 1 && event.categories.length === 1 && event.tags.length >= 1)).toBe(true);
    const venues = await http().get('/cal/events/v1/venues').expect(200);
    expect(venues.body.total).toBe(10);
    const categories = await http().get('/cal/events/v1/categories').expect(200);
    expect(categories.body.categories.find((category: Record<string, any>) => category.name === 'Jazz').parent).toBeGreaterThan(0);
  });

  it('has tickets of each provider and capacity mode, and attendees from completed checkouts, one checked in', async () => {
    const tickets = await http().get('/cal/tickets/v1/tickets').query({ per_page: 50 }).set('Authorization', demo).expect(200);
    const kinds = new Set((tickets.body.tickets as Array<Record<string, any>>).map((ticket) => `${ticket.provider as string}:${ticket.capacity_details.global_stock_mode as string}`));
    expect([...kinds].sort()).toEqual(['rsvp:capped', 'rsvp:own', 'rsvp:unlimited', 'tc:capped', 'tc:global', 'tc:own', 'tc:unlimited']);

    const attendees = await http().get('/cal/tickets/v1/attendees').query({ per_page: 50 }).set('Authorization', demo).expect(200);
    expect(attendees.body.total).toBe(9);
    expect((attendees.body.attendees as Array<Record<string, any>>).filter((attendee) => attendee.checked_in)).toHaveLength(1);
    expect(await testApp.dataSource.getRepository(Order).countBy({ status: 'completed' })).toBe(5);
    const sold = await testApp.dataSource.getRepository(Ticket).sum('sold');
    expect(sold).toBe(9);
  });

  it('refuses a second run on a calendar that holds data, says why, and changes nothing', async () => {
    const before = await Promise.all([count(Event), count(Venue), count(Ticket), count(Attendee)]);
    const again = await cli('seed:demo');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe('error: the database already holds 50 events, 10 venues, 4 organizers, 12 tickets; seed:demo only fills an empty calendar (use a new DATABASE_URL or DATA_DIR)\n');
    expect(await Promise.all([count(Event), count(Venue), count(Ticket), count(Attendee)])).toEqual(before);
  });
});
