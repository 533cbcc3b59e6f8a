import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToBoolean, ToInteger, ToIntList, Trimmed } from '../../common/http/transforms';

const MAX_ID = 2_147_483_647;

/** Body of POST /checkin-lists. */
@ApiSchema({ name: 'CheckinListCreate' })
export class CreateCheckinListDto {
  @ApiProperty({ description: 'The event the list is for', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id: number;

  @ApiProperty({ description: 'Shown to door staff, e.g. "Main gate"', maxLength: 191 })
  @IsDefined()
  @Trimmed()
  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(191, { message: 'name must be at most 191 characters' })
  name: string;

  @ApiPropertyOptional({ description: 'Tickets of the event the list admits; [] (default) admits every ticket', type: [Number] })
  @IsOptional()
  @ToIntList()
  @IsArray({ message: 'ticket_ids must be a list of ticket ids' })
  @ArrayMaxSize(200, { message: 'ticket_ids holds at most 200 ids' })
  @IsInt({ each: true, message: 'ticket_ids must be a list of ticket ids' })
  @Min(1, { each: true, message: 'ticket_ids must be a list of ticket ids' })
  @Max(MAX_ID, { each: true, message: 'ticket_ids must be a list of ticket ids' })
  ticket_ids?: number[];

  @ApiPropertyOptional({ description: 'Admit attendees of pending (unpaid) orders; default false', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'include_pending must be a boolean' })
  include_pending?: boolean;

  @ApiPropertyOptional({ description: 'Every entry scan succeeds; default false', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'allow_multiple_entries must be a boolean' })
  allow_multiple_entries?: boolean;

  @ApiPropertyOptional({ description: 'After an exit scan the attendee may enter again; default true', type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'allow_entry_after_exit must be a boolean' })
  allow_entry_after_exit?: boolean;

  @ApiPropertyOptional({
    description: "The list's devices and door staff may sell tickets at the door (POST /checkin/sell); default false",
    type: Boolean,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'allow_sales must be a boolean' })
  allow_sales?: boolean;

  @ApiPropertyOptional({
    description: 'Start of the window: ISO 8601 with offset, or YYYY-MM-DD HH:MM:SS in the site time zone; null or "" clears it',
    type: String,
    nullable: true,
  })
  @IsOptional()
  @IsString({ message: 'starts_at must be a date' })
  starts_at?: string | null;

  @ApiPropertyOptional({ description: 'End of the window, as starts_at', type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'ends_at must be a date' })
  ends_at?: string | null;
}

/** Body of PATCH /checkin-lists/{id}: fields left out keep their values; the event cannot change. */
@ApiSchema({ name: 'CheckinListUpdate' })
export class UpdateCheckinListDto extends PartialType(OmitType(CreateCheckinListDto, ['post_id'] as const)) {}

/** Query of GET /checkin-lists. */
@ApiSchema({ name: 'CheckinListQuery' })
export class ListCheckinListsQuery {
  @ApiPropertyOptional({ description: "Only this event's lists", type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'post_id must be an event id' })
  @Min(1, { message: 'post_id must be an event id' })
  @Max(MAX_ID, { message: 'post_id must be an event id' })
  post_id?: number;
}
