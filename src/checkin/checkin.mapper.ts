import type { Attendee } from '../attendees/attendee.entity';
import type { CheckinList } from './checkin-list.entity';
import type { DoorEvent } from './checkin.repository';
import type { GateCounts, ListCounts } from './door-counts';
import type { CheckinPosition } from './checkin-position.entity';
import type { Checkin } from './checkin.entity';
import type { Device } from './device.entity';
import { parseIdList } from './id-list';
import type {
  CheckinListResponse,
  CheckinResponse,
  DeviceResponse,
  DoorAttendeeResponse,
  GateCountsResponse,
  RefusedAttendeeResponse,
} from './dto/checkin.response';

/** Times of the door API: ISO 8601 UTC with milliseconds. */
export function isoTime(instant: Date): string;
export function isoTime(instant: Date | null): string | null;
export function isoTime(instant: Date | null): string | null {
  return instant ? new Date(instant).toISOString() : null;
}

export function toCheckinListResponse(list: CheckinList, counts: ListCounts, event: DoorEvent): CheckinListResponse {
  return {
    id: list.id,
    post_id: list.eventId,
    event: { title: event.title, start_date: event.startLocal, end_date: event.endLocal, timezone: event.timezone },
    name: list.name,
    is_default: list.defaultEventId !== null,
    ticket_ids: parseIdList(list.ticketIds),
    include_pending: list.includePending,
    allow_multiple_entries: list.allowMultipleEntries,
    allow_entry_after_exit: list.allowEntryAfterExit,
    allow_sales: list.allowSales,
    starts_at: isoTime(list.startsAt),
    ends_at: isoTime(list.endsAt),
    position_count: counts.position,
    checkin_count: counts.checkin,
    inside_count: counts.inside,
    created: isoTime(list.createdAt),
    modified: isoTime(list.updatedAt),
  };
}

export function toDeviceResponse(device: Device): DeviceResponse {
  return {
    id: device.id,
    name: device.name,
    list_ids: parseIdList(device.listIds),
    initialized: device.initializedAt !== null,
    initialized_at: isoTime(device.initializedAt),
    hardware: device.hardware,
    software: device.software,
    revoked: device.revokedAt !== null,
    revoked_at: isoTime(device.revokedAt),
    created: isoTime(device.createdAt),
  };
}

export function toDoorAttendee(
  attendee: Attendee,
  ticketTitle: string,
  position: Pick<CheckinPosition, 'entries' | 'inside'> | undefined,
): DoorAttendeeResponse {
  return {
    id: attendee.id,
    post_id: attendee.eventId,
    ticket_id: attendee.ticketId,
    ticket_title: ticketTitle,
    name: attendee.holderName,
    order_id: attendee.orderId,
    order_status: attendee.orderStatus,
    checkin_secret: attendee.checkinSecret ?? '',
    blocked: attendee.checkinBlocked,
    inside: position?.inside ?? false,
    entries: position?.entries ?? 0,
  };
}

/** Who a refusal is about (`data.attendee` of a refused scan): enough for staff to act on it. */
export function toRefusedAttendee(
  attendee: Pick<Attendee, 'id' | 'holderName' | 'ticketId' | 'orderId'>,
  ticketTitle: string,
): RefusedAttendeeResponse {
  return {
    id: attendee.id,
    name: attendee.holderName,
    ticket_id: attendee.ticketId,
    ticket_title: ticketTitle,
    order_id: attendee.orderId,
  };
}

/** The gates of a list's status, named ones in name order, then scans of no gate (the check_in flag, users). */
export function toGateCounts(gates: GateCounts[]): GateCountsResponse[] {
  return [...gates]
    .sort((a, b) => (a.gate === null ? 1 : b.gate === null ? -1 : a.gate < b.gate ? -1 : a.gate > b.gate ? 1 : 0))
    .map((counts) => ({ gate: counts.gate, entries: counts.entries, exits: counts.exits, inside: counts.inside }));
}

export function toCheckinResponse(checkin: Checkin, gate: string | null): CheckinResponse {
  return {
    id: checkin.id,
    list_id: checkin.listId,
    attendee_id: checkin.attendeeId,
    type: checkin.type,
    datetime: isoTime(checkin.scannedAt),
    created: isoTime(checkin.createdAt),
    successful: checkin.successful,
    forced: checkin.forced,
    reason: checkin.reason,
    device_id: checkin.deviceId,
    gate,
    user_id: checkin.userId,
    nonce: checkin.nonce,
    annulled: checkin.annulledAt !== null && checkin.annulledAt !== undefined,
    annulled_at: isoTime(checkin.annulledAt ?? null),
    annulled_device_id: checkin.annulledDeviceId ?? null,
    annulled_user_id: checkin.annulledUserId ?? null,
  };
}
