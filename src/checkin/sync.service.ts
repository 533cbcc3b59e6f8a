import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { invalidParam } from '../common/errors/api-error';
import { CheckinListsService } from './checkin-lists.service';
import { isoTime, toCheckinListResponse, toDoorAttendee } from './checkin.mapper';
import { NO_COUNTS } from './door-counts';
import { CheckinRepository } from './checkin.repository';
import { encryptRecord, syncIndex, syncKeyForDevice } from './checkin-secrets';
import { SyncResponse } from './dto/checkin.response';
import { SyncQuery } from './dto/door.dto';
import { listRules } from './redeem.service';
import { attendeeRefusal, listRefusal, RedeemReason } from './redeem-rules';
import { TransactionHost } from '../common/database/transaction-host';
import type { DoorCaller } from './door-route';

/**
 * Rows whose transaction commits late can carry an `updated_at` a little before rows already handed
 * out: a caught-up cursor stays this far behind the clock, so the next sync looks at them again.
 */
export const SYNC_SETTLE_MS = 10_000;
export const SYNC_DEFAULT_LIMIT = 1000;

export interface SyncCursor {
  time: Date;
  id: number;
}

const CURSOR_PATTERN = /^v1\.(\d{1,15})\.(\d{1,10})$/;

export function encodeCursor(cursor: SyncCursor): string {
  return Buffer.from(`v1.${cursor.time.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor of an earlier sync, or the start; 400 naming `cursor` for anything else. */
export function decodeCursor(raw: string | undefined): SyncCursor {
  if (raw === undefined || raw === '') return { time: new Date(0), id: 0 };
  const match = CURSOR_PATTERN.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!match) throw invalidParam('cursor', 'cursor must be a cursor of an earlier sync');
  return { time: new Date(Number(match[1])), id: Number(match[2]) };
}

/**
 * Where the next sync starts: after the last row of a full page; once caught up, no later than
 * SYNC_SETTLE_MS before now (rows of that span come again), and never before where this one started.
 */
export function nextCursor(start: SyncCursor, last: SyncCursor | null, pageFull: boolean, now: Date): SyncCursor {
  if (pageFull && last) return last;
  const settled = new Date(now.getTime() - SYNC_SETTLE_MS);
  let next: SyncCursor = last && last.time <= settled ? last : { time: settled, id: 0 };
  if (!last && start.time > settled) next = start;
  if (next.time < start.time || (next.time.getTime() === start.time.getTime() && next.id < start.id)) next = start;
  return next;
}

/** GET /checkin-lists/{id}/sync: what a device needs to decide alone (docs/checkin.md, "Offline sync"). */
@Injectable()
export class SyncService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: CheckinRepository,
    private readonly lists: CheckinListsService,
  ) {}

  async sync(listId: number, query: SyncQuery, caller: DoorCaller): Promise<SyncResponse> {
    const start = decodeCursor(query.cursor);
    const limit = query.limit ?? SYNC_DEFAULT_LIMIT;
    const now = this.clock.now();
    const { list, event } = await this.lists.readable(listId, caller);
    const rules = listRules(list, event);
    // Every attendee of the event, also those the list refuses (another entrance's ticket, a
    // cancelled order): the door then names who it refuses offline, in the words it uses online.
    const attendees = await this.repository.changedAttendees(list.eventId, start, limit);
    const positions = await this.repository.positionsOfAttendees(
      list.id,
      attendees.map((attendee) => attendee.id),
    );
    const tickets = await this.repository.tickets(list.eventId);
    const titles = new Map(tickets.map((ticket) => [ticket.id, ticket.name]));

    const records: SyncResponse['attendees'] = [];
    const revoked: string[] = [];
    for (const attendee of attendees) {
      if (!attendee.checkinSecret) continue;
      const index = syncIndex(list.syncKey, attendee.checkinSecret);
      const facts = { ticketId: attendee.ticketId, orderStatus: attendee.orderStatus, blocked: attendee.checkinBlocked, revoked: false };
      const refusal: RedeemReason | null = attendeeRefusal(facts) ?? listRefusal(facts, rules, 'exit', now);
      if (attendee.checkinRevokedAt && refusal !== 'canceled') {
        revoked.push(index);
        continue;
      }
      const position = positions.get(attendee.id);
      const record = {
        ...toDoorAttendee(attendee, titles.get(attendee.ticketId) ?? '', position),
        last_entry: isoTime(position?.lastEntryAt ?? null),
        valid: refusal === null,
        refusal,
      };
      records.push({ index, data: encryptRecord(attendee.checkinSecret, list.id, record) });
    }
    const replaced = await this.repository.revokedSecretsSince(list.eventId, new Date(start.time.getTime() - SYNC_SETTLE_MS));
    for (const secret of replaced) revoked.push(syncIndex(list.syncKey, secret.secret));

    const last = attendees.length ? { time: attendees[attendees.length - 1].updatedAt, id: attendees[attendees.length - 1].id } : null;
    const pageFull = attendees.length === limit;
    const counts = (await this.repository.counts([list])).get(list.id) ?? NO_COUNTS;
    return {
      list: toCheckinListResponse(list, counts, event),
      window: { from: isoTime(rules.window.from), until: isoTime(rules.window.until) },
      tickets: tickets
        .filter((ticket) => rules.ticketIds.length === 0 || rules.ticketIds.includes(ticket.id))
        .map((ticket) => ({ id: ticket.id, title: ticket.name })),
      index_key: syncKeyForDevice(list.syncKey),
      attendees: records,
      revoked,
      cursor: encodeCursor(nextCursor(start, last, pageFull, now)),
      more: pageFull,
    };
  }
}
