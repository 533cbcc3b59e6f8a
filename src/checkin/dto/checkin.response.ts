import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { REDEEM_REASONS, SCAN_TYPES } from '../redeem-rules';

/** The list's event as the door names it: title and days, in the event's own wall-clock time. */
@ApiSchema({ name: 'CheckinListEvent' })
export class CheckinListEvent {
  @ApiProperty() title: string;
  @ApiProperty({ description: "Wall-clock start in the event's time zone (`YYYY-MM-DD HH:MM:SS`)", example: '2027-05-01 20:00:00' })
  start_date: string;
  @ApiProperty({ description: "Wall-clock end in the event's time zone", example: '2027-05-01 23:00:00' }) end_date: string;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone: string;
}

/** A check-in list with its counts. Times are ISO 8601 UTC. */
@ApiSchema({ name: 'CheckinList' })
export class CheckinListResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The event' }) post_id: number;
  @ApiProperty({ type: CheckinListEvent, description: "Read-only: the event's title and days (what the door page's list chooser shows)" })
  event: CheckinListEvent;
  @ApiProperty() name: string;
  @ApiProperty({ description: "The event's default list (used by check_in and POST /qr)" }) is_default: boolean;
  @ApiProperty({ type: [Number], description: '[] admits every ticket of the event' }) ticket_ids: number[];
  @ApiProperty() include_pending: boolean;
  @ApiProperty() allow_multiple_entries: boolean;
  @ApiProperty() allow_entry_after_exit: boolean;
  @ApiProperty({ description: 'Walk-in sales at the door allowed (POST /checkin/sell)' }) allow_sales: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) starts_at: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) ends_at: string | null;
  @ApiProperty({ description: 'Read-only: attendees the list admits' }) position_count: number;
  @ApiProperty({ description: 'Read-only: attendees that entered at least once' }) checkin_count: number;
  @ApiProperty({ description: 'Read-only: attendees inside (entered, not exited since)' }) inside_count: number;
  @ApiProperty({ format: 'date-time' }) created: string;
  @ApiProperty({ format: 'date-time' }) modified: string;
}

@ApiSchema({ name: 'CheckinListPage' })
export class CheckinListPage {
  @ApiProperty({ type: [CheckinListResponse] }) checkin_lists: CheckinListResponse[];
  @ApiProperty() total: number;
}

@ApiSchema({ name: 'CheckinTicketStatus' })
export class TicketStatus {
  @ApiProperty() ticket_id: number;
  @ApiProperty() title: string;
  @ApiProperty() position_count: number;
  @ApiProperty() checkin_count: number;
  @ApiProperty() inside_count: number;
}

@ApiSchema({ name: 'CheckinGateStatus' })
export class GateCountsResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The gate (the scanning device's name); null: scans of no device (users, the check_in flag)",
  })
  gate: string | null;
  @ApiProperty({ description: 'Successful entry scans through the gate, annulled ones left out' }) entries: number;
  @ApiProperty({ description: 'Successful exit scans through the gate, annulled ones left out' }) exits: number;
  @ApiProperty({ description: 'Attendees inside now whose last entry was through the gate' }) inside: number;
}

@ApiSchema({ name: 'CheckinListStatus' })
export class ListStatusResponse {
  @ApiProperty({ type: CheckinListResponse }) list: CheckinListResponse;
  @ApiProperty({ type: [TicketStatus] }) tickets: TicketStatus[];
  @ApiProperty({ type: [GateCountsResponse], description: 'Per gate: entries, exits and people inside' }) gates: GateCountsResponse[];
}

@ApiSchema({ name: 'Device' })
export class DeviceResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: [Number] }) list_ids: number[];
  @ApiProperty() initialized: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) initialized_at: string | null;
  @ApiProperty({ type: String, nullable: true }) hardware: string | null;
  @ApiProperty({ type: String, nullable: true }) software: string | null;
  @ApiProperty() revoked: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) revoked_at: string | null;
  @ApiProperty({ format: 'date-time' }) created: string;
}

@ApiSchema({ name: 'DeviceCreated' })
export class DeviceCreatedResponse extends DeviceResponse {
  @ApiProperty({ description: 'Shown once; valid for 24 hours, usable once' }) initialization_token: string;
  @ApiProperty({ format: 'date-time' }) initialization_expires: string;
}

@ApiSchema({ name: 'DeviceList' })
export class DeviceListResponse {
  @ApiProperty({ type: [DeviceResponse] }) devices: DeviceResponse[];
}

@ApiSchema({ name: 'DeviceInitialized' })
export class DeviceInitializedResponse {
  @ApiProperty() device_id: number;
  @ApiProperty({ description: 'Shown once: send as `Authorization: Device <api_token>`' }) api_token: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [Number] }) list_ids: number[];
}

/** What the door sees of an attendee. */
@ApiSchema({ name: 'DoorAttendee' })
export class DoorAttendeeResponse {
  @ApiProperty() id: number;
  @ApiProperty() post_id: number;
  @ApiProperty() ticket_id: number;
  @ApiProperty() ticket_title: string;
  @ApiProperty() name: string;
  @ApiProperty() order_id: number;
  @ApiProperty() order_status: string;
  @ApiProperty({ description: 'What the QR code holds' }) checkin_secret: string;
  @ApiProperty() blocked: boolean;
  @ApiProperty({ description: 'Inside on the list in question' }) inside: boolean;
  @ApiProperty({ description: 'Entries on the list in question' }) entries: number;
}

@ApiSchema({ name: 'Checkin' })
export class CheckinResponse {
  @ApiProperty() id: number;
  @ApiProperty() list_id: number;
  @ApiProperty({ type: Number, nullable: true }) attendee_id: number | null;
  @ApiProperty({ enum: SCAN_TYPES }) type: string;
  @ApiProperty({ format: 'date-time', description: 'When it was scanned' }) datetime: string;
  @ApiProperty({ format: 'date-time', description: 'When the service received it' }) created: string;
  @ApiProperty() successful: boolean;
  @ApiProperty({ description: 'Recorded on the device’s word (offline upload)' }) forced: boolean;
  @ApiProperty({ enum: REDEEM_REASONS, nullable: true, type: String }) reason: string | null;
  @ApiProperty({ type: Number, nullable: true }) device_id: number | null;
  @ApiProperty({ type: String, nullable: true, description: "The device's name" }) gate: string | null;
  @ApiProperty({ type: Number, nullable: true }) user_id: number | null;
  @ApiProperty({ type: String, nullable: true }) nonce: string | null;
  @ApiProperty({ description: 'Annulled (POST /checkin/annul): it no longer counts' }) annulled: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) annulled_at: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The device that annulled it' }) annulled_device_id: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The user who annulled it' }) annulled_user_id: number | null;
}

/** Who a refused scan is about (`data.attendee` of the refusal). */
@ApiSchema({ name: 'CheckinRefusedAttendee' })
export class RefusedAttendeeResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() ticket_id: number;
  @ApiProperty() ticket_title: string;
  @ApiProperty() order_id: number;
}

@ApiSchema({ name: 'CheckinRedeemed' })
export class RedeemResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ type: DoorAttendeeResponse }) attendee: DoorAttendeeResponse;
  @ApiProperty({ type: CheckinResponse }) checkin: CheckinResponse;
}

@ApiSchema({ name: 'CheckinAnnulled' })
export class AnnulResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ type: CheckinResponse, description: 'The annulled check-in, as GET /checkins shows it' }) checkin: CheckinResponse;
  @ApiProperty({ type: DoorAttendeeResponse, description: 'The attendee, with inside/entries on the list after the annulment' })
  attendee: DoorAttendeeResponse;
}

@ApiSchema({ name: 'CheckinSearchResult' })
export class SearchResponse {
  @ApiProperty({ type: [DoorAttendeeResponse], description: 'At most 20' }) results: DoorAttendeeResponse[];
}

@ApiSchema({ name: 'CheckinHistory' })
export class HistoryPage {
  @ApiProperty({ type: [CheckinResponse] }) checkins: CheckinResponse[];
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
}

@ApiSchema({ name: 'CheckinSyncTicket' })
export class SyncTicket {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
}

@ApiSchema({ name: 'CheckinSyncWindow' })
export class SyncWindow {
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) from: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) until: string | null;
}

@ApiSchema({ name: 'CheckinSyncRecord' })
export class SyncRecord {
  @ApiProperty({ description: 'base64url(HMAC-SHA-256(index_key, secret))' }) index: string;
  @ApiProperty({ description: 'base64url(iv ‖ AES-256-GCM ciphertext ‖ tag) under HKDF-SHA-256(secret)' }) data: string;
}

@ApiSchema({ name: 'CheckinSync' })
export class SyncResponse {
  @ApiProperty({ type: CheckinListResponse }) list: CheckinListResponse;
  @ApiProperty({ type: SyncWindow }) window: SyncWindow;
  @ApiProperty({ type: [SyncTicket] }) tickets: SyncTicket[];
  @ApiProperty({ description: 'base64url of the 32-byte HMAC key of the index' }) index_key: string;
  @ApiProperty({ type: [SyncRecord] }) attendees: SyncRecord[];
  @ApiProperty({ type: [String], description: 'Indexes to drop: cancelled, refunded or replaced secrets' }) revoked: string[];
  @ApiProperty({ description: 'Send back as cursor next time' }) cursor: string;
  @ApiProperty({ description: 'True: call again at once with the new cursor' }) more: boolean;
}
