import type { WrittenRow } from '../../common/domain-events/domain-event';
import { objectKey } from '../../common/http/surrogate-keys';

function idKey(prefix: Parameters<typeof objectKey>[0], value: unknown): string | null {
  return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? objectKey(prefix, value) : null;
}

/** Events whose terms' counts the purge must also cover: their term keys are read at commit. */
export interface PurgeKeys {
  keys: Set<string>;
  eventIds: Set<number>;
}

/**
 * The surrogate keys a committed write to a row makes stale (see common/http/surrogate-keys.ts for
 * the vocabulary). A row the write does not name (a bulk update) makes its whole domain stale.
 */
export function addPurgeKeys(row: WrittenRow, into: PurgeKeys): void {
  const add = (...keys: Array<string | null>) => {
    for (const key of keys) if (key) into.keys.add(key);
  };
  const own = (prefix: Parameters<typeof objectKey>[0], domain: 'events' | 'tickets') => {
    const key = idKey(prefix, row.column('id'));
    if (!key) add(domain);
    return key;
  };
  switch (row.table) {
    case 'events': {
      const key = own('event', 'events');
      add(key, 'events-list');
      // Publishing, trashing or moving an event changes the counts its categories and tags show.
      if (key) into.eventIds.add(Number(row.column('id')));
      return;
    }
    case 'event_venue_links':
    case 'event_organizer_links':
    case 'event_category_links':
    case 'event_tag_links': {
      const eventKey = idKey('event', row.column('event_id'));
      if (!eventKey) return add('events');
      const [kind, column, list] = {
        event_venue_links: ['venue', 'venue_id', 'venues-list'],
        event_organizer_links: ['organizer', 'organizer_id', 'organizers-list'],
        event_category_links: ['category', 'category_id', 'categories-list'],
        event_tag_links: ['tag', 'tag_id', 'tags-list'],
      }[row.table] as ['venue' | 'organizer' | 'category' | 'tag', string, string];
      return add(eventKey, 'events-list', idKey(kind, row.column(column)), list);
    }
    case 'venues':
      return add(own('venue', 'events'), 'venues-list', 'events-list');
    case 'organizers':
      return add(own('organizer', 'events'), 'organizers-list', 'events-list');
    case 'event_categories':
      return add(own('category', 'events'), 'categories-list', 'events-list');
    case 'event_tags':
      return add(own('tag', 'events'), 'tags-list', 'events-list');
    case 'event_series':
    case 'event_series_occurrences':
      return add('events');
    case 'tickets':
      return add(own('ticket', 'tickets'), 'tickets-list', idKey('event', row.column('event_id')));
    case 'ticket_capacity_counters':
    case 'ticket_pools':
      // What is left to sell shows on ticket lists and on ticketed events' offers (their `tickets` key).
      return add('tickets');
    default:
      return;
  }
}
