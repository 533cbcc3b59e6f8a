import { Injectable } from '@nestjs/common';
import type { CheckinList } from './checkin-list.entity';
import { CheckinRepository, DoorEvent } from './checkin.repository';

/** How long a list and its event's facts are reused by redeem before they are read again. */
export const DOOR_LIST_TTL_MS = 2000;
/** More lists than this in the cache and it starts over (a door scans a handful). */
const MAX_ENTRIES = 500;

export interface DoorList {
  list: CheckinList;
  event: DoorEvent;
}

interface Entry extends DoorList {
  expires: number;
}

/**
 * The check-in lists (and their events' door facts) that redeem reads for every scan, kept for
 * DOOR_LIST_TTL_MS so that a busy door reads them about once per TTL instead of once per scan.
 * A list changed or deleted through this process is forgotten at once (CheckinListsService calls
 * `forget`); another instance's change, or an event's changed days or author, shows within the TTL.
 * Who may scan is not cached: a device's token, lists and revocation are read on every request.
 * Entries are shared: callers must not change them.
 */
@Injectable()
export class DoorListCache {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly repository: CheckinRepository) {}

  /** The lists of these ids that exist, in the order asked, each with its event. */
  async get(ids: number[]): Promise<DoorList[]> {
    const now = performance.now();
    const missing = ids.filter((id) => !((this.entries.get(id)?.expires ?? 0) > now));
    if (missing.length > 0) {
      const lists = await this.repository.findLists(missing);
      const events = new Map((await this.repository.events(lists.map((list) => list.eventId))).map((event) => [event.id, event]));
      if (this.entries.size + lists.length > MAX_ENTRIES) this.entries.clear();
      for (const id of missing) this.entries.delete(id);
      for (const list of lists) {
        const event = events.get(list.eventId);
        if (event) this.entries.set(list.id, { list, event, expires: now + DOOR_LIST_TTL_MS });
      }
    }
    return ids.map((id) => this.entries.get(id)).filter((entry): entry is Entry => entry !== undefined);
  }

  /** Forgets a list that changed or was deleted. */
  forget(id: number): void {
    this.entries.delete(id);
  }
}
