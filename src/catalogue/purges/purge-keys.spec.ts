import { addPurgeKeys, PurgeKeys } from './purge-keys';

function keysOf(table: string, columns: Record<string, unknown>): PurgeKeys {
  const into: PurgeKeys = { keys: new Set(), eventIds: new Set() };
  addPurgeKeys({ table, column: (name) => columns[name] }, into);
  return into;
}

describe('addPurgeKeys', () => {
  it('purges an event, the events lists, and remembers it for its terms', () => {
    const purge = keysOf('events', { id: 12 });
    expect([...purge.keys].sort()).toEqual(['event-12', 'events-list']);
    expect([...purge.eventIds]).toEqual([12]);
  });

  it('purges the whole domain for a write that does not name its rows', () => {
    expect([...keysOf('events', {}).keys].sort()).toEqual(['events', 'events-list']);
    expect([...keysOf('venues', {}).keys]).toContain('events');
    expect([...keysOf('tickets', {}).keys].sort()).toEqual(['tickets', 'tickets-list']);
  });

  it('purges both sides of a link', () => {
    expect([...keysOf('event_category_links', { event_id: 3, category_id: 7 }).keys].sort()).toEqual([
      'categories-list',
      'category-7',
      'event-3',
      'events-list',
    ]);
    expect([...keysOf('event_venue_links', { event_id: 3, venue_id: 4 }).keys].sort()).toEqual([
      'event-3',
      'events-list',
      'venue-4',
      'venues-list',
    ]);
  });

  it('purges the lists that embed a venue, organizer or term', () => {
    expect([...keysOf('venues', { id: 4 }).keys].sort()).toEqual(['events-list', 'venue-4', 'venues-list']);
    expect([...keysOf('organizers', { id: 5 }).keys].sort()).toEqual(['events-list', 'organizer-5', 'organizers-list']);
    expect([...keysOf('event_tags', { id: 2 }).keys].sort()).toEqual(['events-list', 'tag-2', 'tags-list']);
  });

  it('purges a ticket with its event, and every ticket answer when stock moves', () => {
    expect([...keysOf('tickets', { id: 9, event_id: 12 }).keys].sort()).toEqual(['event-12', 'ticket-9', 'tickets-list']);
    expect([...keysOf('ticket_capacity_counters', { ticket_id: 9 }).keys]).toEqual(['tickets']);
  });

  it('ignores tables no public answer shows', () => {
    for (const table of ['carts', 'cart_items', 'users', 'outbox_messages', 'idempotency_keys'])
      expect(keysOf(table, { id: 1 }).keys.size).toBe(0);
  });
});
