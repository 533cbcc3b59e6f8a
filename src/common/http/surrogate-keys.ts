/**
 * Surrogate keys: the names a cache in front of the service (Varnish with xkey, Fastly, Cloudflare)
 * files each public answer under, so that a write can purge exactly the answers that show what it
 * changed. One vocabulary, used by the answers (Surrogate-Key header, PublicRead routes) and by the
 * purges (PurgeKeyCollector), so the two always agree:
 *
 * - `event-12`, `venue-4`, `organizer-5`, `category-7`, `tag-3`, `ticket-9`: one object, on every
 *   answer that shows it (an event's page carries its venue's, organizers', terms' keys too);
 * - `events-list`, `venues-list`, … : every list of that kind (a new or moved object changes them);
 * - `events` / `tickets`: every answer of the events namespace / every answer that shows ticket data,
 *   for writes whose rows cannot be named one by one (a bulk update, the checkout's capacity take).
 */

/** What a public route shows, for its keys. */
export type PublicResource = 'event' | 'venue' | 'organizer' | 'category' | 'tag' | 'ticket' | 'index';

/** The key of every answer of a domain: a write that cannot name its rows purges it. */
export type DomainKey = 'events' | 'tickets';

const LIST_PROPERTY: Record<Exclude<PublicResource, 'index'>, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
  ticket: 'tickets',
};

export function objectKey(resource: Exclude<PublicResource, 'index'>, id: number | string): string {
  return `${resource}-${id}`;
}

export function listKey(resource: Exclude<PublicResource, 'index'>): string {
  return `${LIST_PROPERTY[resource]}-list`;
}

export function domainKeyOf(resource: PublicResource): DomainKey {
  return resource === 'ticket' ? 'tickets' : 'events';
}

/** A header line must stay well inside what proxies accept (8 KB is common): past this, the domain key stands for all. */
export const MAX_SURROGATE_KEY_HEADER_CHARS = 4000;

type Item = Record<string, unknown>;

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idOf(value: unknown): number | string | null {
  if (!isItem(value)) return null;
  const id = value.id;
  return typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)) ? id : null;
}

/** The keys of one object as the documented responses show it (its own and what it embeds). */
function itemKeys(resource: Exclude<PublicResource, 'index'>, item: Item, keys: Set<string>): void {
  const id = idOf(item);
  if (id !== null) keys.add(objectKey(resource, id));
  if (resource === 'event') {
    for (const [property, embedded] of [
      ['venue', 'venue'],
      ['organizer', 'organizer'],
      ['categories', 'category'],
      ['tags', 'tag'],
    ] as const) {
      const value = item[property];
      for (const entry of Array.isArray(value) ? value : [value]) {
        const embeddedId = idOf(entry);
        if (embeddedId !== null) keys.add(objectKey(embedded, embeddedId));
      }
    }
    // The JSON-LD offers of a ticketed event show its tickets' availability.
    if (item.ticketed === true) keys.add('tickets');
  }
  if (resource === 'ticket') {
    const postId = item.post_id;
    if (typeof postId === 'number') keys.add(objectKey('event', postId));
  }
}

/**
 * The surrogate keys of a public answer: its domain key, the list key for a list, and the keys of
 * every object it shows. A list is an object holding an array under the resource's plural.
 */
export function surrogateKeysOf(resource: PublicResource, body: unknown): string[] {
  const keys = new Set<string>([domainKeyOf(resource)]);
  if (resource !== 'index' && isItem(body)) {
    const items = body[LIST_PROPERTY[resource]];
    if (Array.isArray(items)) {
      keys.add(listKey(resource));
      for (const item of items) if (isItem(item)) itemKeys(resource, item, keys);
    } else {
      itemKeys(resource, body, keys);
    }
  } else if (resource !== 'index' && Array.isArray(body)) {
    keys.add(listKey(resource));
    for (const item of body) if (isItem(item)) itemKeys(resource, item, keys);
  }
  return [...keys];
}

/** The Surrogate-Key header's value: space-separated, cut back to the domain key when too long. */
export function surrogateKeyHeader(keys: string[], resource: PublicResource): string {
  const header = keys.join(' ');
  if (header.length <= MAX_SURROGATE_KEY_HEADER_CHARS) return header;
  return resource === 'index' ? domainKeyOf(resource) : `${domainKeyOf(resource)} ${listKey(resource)}`;
}
