import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ToBoolean, ToInteger, ToIntList, Trimmed } from '../../common/http/transforms';
import { SCAN_TYPES, ScanType } from '../redeem-rules';

const MAX_ID = 2_147_483_647;

/** Body of POST /checkin/redeem. */
@ApiSchema({ name: 'CheckinRedeem' })
export class RedeemDto {
  @ApiProperty({ description: "The text of the attendee's QR code (checkin_secret)", maxLength: 64 })
  @IsDefined()
  @Trimmed()
  @IsString({ message: 'secret must be a string' })
  @IsNotEmpty({ message: 'secret must not be empty' })
  @MaxLength(64, { message: 'secret is not a check-in secret' })
  secret: string;

  @ApiProperty({ description: 'The lists the gate scans for (a device: its own)', type: [Number] })
  @IsDefined()
  @ToIntList()
  @IsArray({ message: 'list_ids must be a list of check-in list ids' })
  @ArrayMinSize(1, { message: 'list_ids must name at least one list' })
  @ArrayMaxSize(20, { message: 'list_ids holds at most 20 ids' })
  @IsInt({ each: true, message: 'list_ids must be a list of check-in list ids' })
  @Min(1, { each: true, message: 'list_ids must be a list of check-in list ids' })
  @Max(MAX_ID, { each: true, message: 'list_ids must be a list of check-in list ids' })
  list_ids: number[];

  @ApiPropertyOptional({ enum: SCAN_TYPES, default: 'entry' })
  @IsOptional()
  @IsIn(SCAN_TYPES, { message: 'type must be entry or exit' })
  type?: ScanType;

  @ApiPropertyOptional({ description: 'When it was scanned (ISO 8601 with offset); default now' })
  @IsOptional()
  @IsString({ message: 'datetime must be a date' })
  datetime?: string;

  @ApiPropertyOptional({ description: 'Makes retries safe: the same nonce again answers the first result', maxLength: 64 })
  @IsOptional()
  @IsString({ message: 'nonce must be a string' })
  @Matches(/^[\x21-\x7e]{1,64}$/, { message: 'nonce must be 1 to 64 printable ASCII characters' })
  nonce?: string;

  @ApiPropertyOptional({ description: 'Record the scan whatever the rules say (offline uploads)', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'force must be a boolean' })
  force?: boolean;
}

/** Body of POST /checkin/annul: the scan, by the nonce it was sent with (the caller's own) or by its id; exactly one. */
@ApiSchema({ name: 'CheckinAnnul' })
export class AnnulDto {
  @ApiPropertyOptional({ description: 'The nonce the caller sent the scan with', maxLength: 64 })
  @IsOptional()
  @IsString({ message: 'nonce must be a string' })
  @Matches(/^[\x21-\x7e]{1,64}$/, { message: 'nonce must be 1 to 64 printable ASCII characters' })
  nonce?: string;

  @ApiPropertyOptional({ description: 'The check-in id (`checkin.id` of the redeem answer, or of GET /checkins)', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'checkin_id must be a check-in id' })
  @Min(1, { message: 'checkin_id must be a check-in id' })
  @Max(MAX_ID, { message: 'checkin_id must be a check-in id' })
  checkin_id?: number;
}

/** Query of GET /checkin/search. */
@ApiSchema({ name: 'CheckinSearchQuery' })
export class SearchQuery {
  @ApiProperty({ description: 'The check-in list', type: 'integer' })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'list must be a check-in list id' })
  @Min(1, { message: 'list must be a check-in list id' })
  @Max(MAX_ID, { message: 'list must be a check-in list id' })
  list: number;

  @ApiProperty({
    description: 'Name, email, order id or the start of a secret; at least 3 characters, except an order number (any digits)',
    minLength: 1,
    maxLength: 100,
  })
  @IsDefined()
  @Trimmed()
  @IsString({ message: 'search must be a string' })
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search: string;
}

/** Query of GET /checkins. */
@ApiSchema({ name: 'CheckinHistoryQuery' })
export class HistoryQuery {
  @ApiPropertyOptional({ description: 'Only this list', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'list must be a check-in list id' })
  @Min(1, { message: 'list must be a check-in list id' })
  @Max(MAX_ID, { message: 'list must be a check-in list id' })
  list?: number;

  @ApiPropertyOptional({ description: 'Only this event', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id?: number;

  @ApiPropertyOptional({ description: 'Only scans of this device', type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'device must be a device id' })
  @Min(1, { message: 'device must be a device id' })
  @Max(MAX_ID, { message: 'device must be a device id' })
  device?: number;

  @ApiPropertyOptional({ description: 'Only successful (true) or refused (false) scans', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'successful must be a boolean' })
  successful?: boolean;

  @ApiPropertyOptional({ description: 'Only annulled (true) or not annulled (false) scans', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'annulled must be a boolean' })
  annulled?: boolean;

  @ApiPropertyOptional({ description: "Only scans through this gate (the scanning device's name)", maxLength: 191 })
  @IsOptional()
  @Trimmed()
  @IsString({ message: 'gate must be a gate name' })
  @IsNotEmpty({ message: 'gate must be a gate name' })
  @MaxLength(191, { message: 'gate must be a gate name' })
  gate?: string;

  @ApiPropertyOptional({ type: 'integer', default: 1, minimum: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'page must be an integer' })
  page?: number;

  @ApiPropertyOptional({ type: 'integer', default: 25, minimum: 1, maximum: 100 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'per_page must be an integer' })
  per_page?: number;
}

/** Query of GET /checkin-lists/{id}/sync. */
@ApiSchema({ name: 'CheckinSyncQuery' })
export class SyncQuery {
  @ApiPropertyOptional({ description: 'The cursor of the previous sync; none for a full download' })
  @IsOptional()
  @IsString({ message: 'cursor must be a cursor of an earlier sync' })
  @MaxLength(100, { message: 'cursor must be a cursor of an earlier sync' })
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', default: 1000, minimum: 1, maximum: 5000 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'limit must be an integer from 1 to 5000' })
  @Min(1, { message: 'limit must be an integer from 1 to 5000' })
  @Max(5000, { message: 'limit must be an integer from 1 to 5000' })
  limit?: number;
}

/** Body of PATCH /checkin/attendees/{id}. */
@ApiSchema({ name: 'DoorAttendeeUpdate' })
export class UpdateDoorAttendeeDto {
  @ApiPropertyOptional({ description: 'Block (true) or unblock (false) the attendee at the door', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'blocked must be a boolean' })
  blocked?: boolean;

  @ApiPropertyOptional({ description: 'true replaces the check-in secret; the old one then answers revoked', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'reissue_secret must be a boolean' })
  reissue_secret?: boolean;
}
