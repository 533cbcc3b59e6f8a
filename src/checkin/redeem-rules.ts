import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { holdsValidTicket } from '../orders/order-status';

/**
 * The rules of a scan at the door, as pure functions: which reason refuses it, on which list. The
 * reasons follow pretix's redeem contract (docs/checkin.md, "Redeem").
 */

export const REDEEM_REASONS = [
  'invalid',
  'unpaid',
  'canceled',
  'already_redeemed',
  'product',
  'invalid_time',
  'revoked',
  'ambiguous',
  'blocked',
] as const;
export type RedeemReason = (typeof REDEEM_REASONS)[number];

export const SCAN_TYPES = ['entry', 'exit'] as const;
export type ScanType = (typeof SCAN_TYPES)[number];

const CANCELED_ORDER_STATUSES: readonly string[] = ['cancelled', 'refunded', 'expired'];

/** An order leaving the valid statuses revokes its attendees' check-in secrets. */
export function revokesCheckinSecret(orderStatus: string): boolean {
  return CANCELED_ORDER_STATUSES.includes(orderStatus);
}

export interface ScanWindow {
  from: Date | null;
  until: Date | null;
}

export interface ListRules {
  id: number;
  ticketIds: number[];
  includePending: boolean;
  allowMultipleEntries: boolean;
  allowEntryAfterExit: boolean;
  window: ScanWindow;
}

export interface PositionState {
  entries: number;
  exits: number;
  inside: boolean;
}

export interface AttendeeFacts {
  ticketId: number;
  orderStatus: string;
  blocked: boolean;
  revoked: boolean;
}

/**
 * The list's window: its own `starts_at`/`ends_at` when it has either; otherwise the event's days,
 * from 00:00 of its first day to the end of its last day in the event's time zone.
 */
export function scanWindow(
  list: { startsAt: Date | null; endsAt: Date | null },
  event: { startLocal: string; endLocal: string; timezone: string },
): ScanWindow {
  if (list.startsAt || list.endsAt) return { from: list.startsAt, until: list.endsAt };
  const zone = DateTime.local().setZone(event.timezone).isValid ? event.timezone : 'UTC';
  const first = DateTime.fromFormat(event.startLocal.slice(0, 10), 'yyyy-MM-dd', { zone });
  const last = DateTime.fromFormat(event.endLocal.slice(0, 10), 'yyyy-MM-dd', { zone });
  if (!first.isValid || !last.isValid) return { from: null, until: null };
  return { from: first.startOf('day').toJSDate(), until: last.endOf('day').toJSDate() };
}

/** What refuses the attendee on every list: the order, the secret, a block. */
export function attendeeRefusal(attendee: AttendeeFacts): RedeemReason | null {
  if (CANCELED_ORDER_STATUSES.includes(attendee.orderStatus) || attendee.orderStatus === 'no') return 'canceled';
  if (attendee.revoked) return 'revoked';
  if (attendee.blocked) return 'blocked';
  return null;
}

/** What refuses the attendee on one list: the ticket, an unpaid order, the time (entries only). */
export function listRefusal(attendee: AttendeeFacts, list: ListRules, type: ScanType, at: Date): RedeemReason | null {
  if (list.ticketIds.length > 0 && !list.ticketIds.includes(attendee.ticketId)) return 'product';
  if (!holdsValidTicket(attendee.orderStatus) && !(attendee.orderStatus === 'pending' && list.includePending)) return 'unpaid';
  if (type === 'entry' && ((list.window.from && at < list.window.from) || (list.window.until && at > list.window.until))) {
    return 'invalid_time';
  }
  return null;
}

/** Whether another entry is allowed after what the attendee did on the list so far. */
export function entryRefusal(list: ListRules, state: PositionState | undefined): RedeemReason | null {
  if (!state || state.entries === 0) return null;
  if (list.allowMultipleEntries) return null;
  if (!state.inside && state.exits > 0 && list.allowEntryAfterExit) return null;
  return 'already_redeemed';
}

export interface Decision {
  /** The list the scan is on (for a refusal: the list that refused it). */
  list: ListRules;
  reason: RedeemReason | null;
}

/**
 * The decision for a scan of `attendee` at a gate scanning `lists` (all of the attendee's event):
 * refusals of the attendee first, then of each list (a list that does not admit the ticket is the
 * weakest reason), then `ambiguous` when several lists admit it, then the entry rules.
 */
export function decideScan(
  attendee: AttendeeFacts,
  lists: ListRules[],
  states: ReadonlyMap<number, PositionState>,
  type: ScanType,
  at: Date,
): Decision {
  const refusal = attendeeRefusal(attendee);
  if (refusal) return { list: lists[0], reason: refusal };
  const reasons = lists.map((list) => listRefusal(attendee, list, type, at));
  const admitting = lists.filter((_list, index) => reasons[index] === null);
  if (admitting.length === 0) {
    const strongest = reasons.findIndex((reason) => reason !== 'product');
    const index = strongest === -1 ? 0 : strongest;
    return { list: lists[index], reason: reasons[index] };
  }
  if (admitting.length > 1) return { list: admitting[0], reason: 'ambiguous' };
  const list = admitting[0];
  return { list, reason: type === 'entry' ? entryRefusal(list, states.get(list.id)) : null };
}

/** The state after a recorded (successful or forced) scan. */
export function applyScan(state: PositionState | undefined, type: ScanType): PositionState {
  const current = state ?? { entries: 0, exits: 0, inside: false };
  return type === 'entry'
    ? { entries: current.entries + 1, exits: current.exits, inside: true }
    : { entries: current.entries, exits: current.exits + 1, inside: false };
}

/**
 * Whether a refusal names the attendee (`data.attendee`: who, and which ticket) so that staff can act
 * on it ("VIP? Gate B"): every refusal that found one. `invalid` found nobody; `ambiguous` is about
 * the gate's lists, not the person, and names nobody either.
 */
export function refusalNamesAttendee(reason: RedeemReason): boolean {
  return reason !== 'invalid' && reason !== 'ambiguous';
}

/** What a scan's request asked, as far as its nonce binds it. */
export interface ScanRequest {
  secret: string;
  listIds: number[];
  type: ScanType;
  /** The scan time sent, or null when none was (the service's clock then). */
  at: Date | null;
  force: boolean;
}

/**
 * The digest a nonce is bound to: SHA-256 (hex) of the request in one canonical form (lists sorted
 * and deduplicated, defaults filled in, the time as an instant), so that a retry of the same scan
 * matches however its JSON was written, and the same nonce with another secret, list, type, time or
 * force does not.
 */
export function scanRequestDigest(request: ScanRequest): string {
  const canonical = JSON.stringify([
    request.secret,
    [...new Set(request.listIds)].sort((a, b) => a - b),
    request.type,
    request.at ? request.at.toISOString() : null,
    request.force,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** Why an annulment is refused (POST /checkin/annul); the error codes are `checkin-annul-forbidden` etc. */
export type AnnulRefusal = 'forbidden' | 'not_annullable' | 'already_annulled' | 'expired';

export interface AnnulledScan {
  successful: boolean;
  /** Made at the door (redeem); the `check_in` flag's records are undone with the flag instead. */
  redeemed: boolean;
  annulledAt: Date | null;
  deviceId: number | null;
  /** When the service received it: an offline upload can be annulled for a while after it arrives. */
  createdAt: Date;
}

export interface AnnulCaller {
  /** The device asking, or null for a signed-in user. */
  deviceId: number | null;
  /** Whether the caller may use the scan's list (a device: its own list; a user: a manager of the event, or door staff). */
  mayUseList: boolean;
}

/**
 * Whether `caller` may annul `scan` at `now`: only a caller of the list, a device only its own scans;
 * only a successful scan made at the door, once, within `minutes` of its arrival. Who may comes
 * first, so that a caller who may not learns nothing about the scan.
 */
export function annulRefusal(scan: AnnulledScan, caller: AnnulCaller, now: Date, minutes: number): AnnulRefusal | null {
  if (!caller.mayUseList) return 'forbidden';
  if (caller.deviceId !== null && scan.deviceId !== caller.deviceId) return 'forbidden';
  if (!scan.successful || !scan.redeemed) return 'not_annullable';
  if (scan.annulledAt !== null) return 'already_annulled';
  if (now.getTime() - scan.createdAt.getTime() > minutes * 60_000) return 'expired';
  return null;
}

/**
 * The state after a scan is annulled: one entry (or exit) fewer; inside as the latest scan that
 * still counts left it (`latest`: the type of the attendee's newest successful, not annulled scan on
 * the list other than this one, or null).
 */
export function annulScan(state: PositionState, type: ScanType, latest: ScanType | null): PositionState {
  const entries = type === 'entry' ? Math.max(0, state.entries - 1) : state.entries;
  const exits = type === 'exit' ? Math.max(0, state.exits - 1) : state.exits;
  return { entries, exits, inside: entries > 0 && latest === 'entry' };
}
