import { MAX_SURROGATE_KEY_HEADER_CHARS, surrogateKeyHeader, surrogateKeysOf } from './surrogate-keys';
import { publicCacheControl } from './http-caching';
import { clientErrorAnswer } from './client-errors';

describe('surrogateKeysOf', () => {
  it('names an event, its venue, organizers and terms, and its domain', () => {
    const event = {
      id: 12,
      venue: { id: 4 },
      organizer: [{ id: 5 }, { id: 6 }],
      categories: [{ id: 7 }],
      tags: [{ id: 3 }],
      ticketed: false,
    };
    expect(surrogateKeysOf('event', event).sort()).toEqual([
      'category-7',
      'event-12',
      'events',
      'organizer-5',
      'organizer-6',
      'tag-3',
      'venue-4',
    ]);
  });

  it('adds the tickets key to a ticketed event (its offers show what is left)', () => {
    expect(surrogateKeysOf('event', { id: 1, venue: [], organizer: [], categories: [], tags: [], ticketed: true })).toContain('tickets');
  });

  it('names a list by its kind and every object it shows', () => {
    expect(surrogateKeysOf('venue', { venues: [{ id: 1 }, { id: 2 }], total: 2 }).sort()).toEqual([
      'events',
      'venue-1',
      'venue-2',
      'venues-list',
    ]);
    expect(surrogateKeysOf('category', { categories: [{ id: 9 }] }).sort()).toEqual(['categories-list', 'category-9', 'events']);
    expect(surrogateKeysOf('ticket', { tickets: [{ id: 3, post_id: 8 }] }).sort()).toEqual([
      'event-8',
      'ticket-3',
      'tickets',
      'tickets-list',
    ]);
  });

  it('gives an index only its domain key, and ignores ids that are not ids', () => {
    expect(surrogateKeysOf('index', { routes: {} })).toEqual(['events']);
    expect(surrogateKeysOf('event', { id: 'x y', venue: { id: null } })).toEqual(['events']);
  });

  it('cuts a header past the limit back to the domain and list keys', () => {
    const keys = Array.from({ length: 1000 }, (_value, index) => `event-${index}`);
    expect(keys.join(' ').length).toBeGreaterThan(MAX_SURROGATE_KEY_HEADER_CHARS);
    expect(surrogateKeyHeader(keys, 'event')).toBe('events events-list');
    expect(surrogateKeyHeader(['events', 'event-1'], 'event')).toBe('events event-1');
  });
});

describe('publicCacheControl', () => {
  it('revalidates every time by default, and keeps for max-age with stale-while-revalidate when set', () => {
    expect(publicCacheControl({ maxAgeSeconds: 0, staleWhileRevalidateSeconds: 0, purgeUrl: null })).toBe('public, no-cache');
    expect(publicCacheControl({ maxAgeSeconds: 60, staleWhileRevalidateSeconds: 0, purgeUrl: null })).toBe('public, max-age=60');
    expect(publicCacheControl({ maxAgeSeconds: 60, staleWhileRevalidateSeconds: 30, purgeUrl: null })).toBe(
      'public, max-age=60, stale-while-revalidate=30',
    );
  });
});

describe('clientErrorAnswer', () => {
  const overflow = (packet: string) =>
    Object.assign(new Error('overflow'), { code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(packet) });

  it('answers a long request line 414 and long headers 431', () => {
    expect(clientErrorAnswer(overflow(`GET /${'a'.repeat(9000)}`))?.status).toBe(414);
    expect(clientErrorAnswer(overflow(`GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n`))?.status).toBe(414);
    expect(clientErrorAnswer(overflow(`GET / HTTP/1.1\r\nX-Big: ${'b'.repeat(9000)}`))?.status).toBe(431);
  });

  it('answers malformed requests 400, slow ones 408, and leaves reset connections alone', () => {
    expect(clientErrorAnswer(Object.assign(new Error('bad'), { code: 'HPE_INVALID_METHOD' }))?.status).toBe(400);
    expect(clientErrorAnswer(Object.assign(new Error('slow'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))?.status).toBe(408);
    expect(clientErrorAnswer(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBeNull();
  });
});
