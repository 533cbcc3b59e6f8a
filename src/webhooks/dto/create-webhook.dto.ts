import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { EVENT_TYPES } from '../../outbox/event-types';

/** Body of POST /webhooks. */
@ApiSchema({ name: 'WebhookCreate' })
export class CreateWebhookDto {
  @ApiProperty({
    description: 'Where deliveries are POSTed: http or https, public addresses only (unless WEBHOOK_ALLOW_PRIVATE)',
    example: 'https://hooks.example.org/cal',
  })
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters long' })
  url: string;

  @ApiPropertyOptional({
    description: 'The event types sent; absent or null: every type',
    type: [String],
    enum: EVENT_TYPES,
    nullable: true,
  })
  @IsOptional()
  @IsArray({ message: 'event_types must be an array of event types' })
  @ArrayMaxSize(EVENT_TYPES.length, { message: 'event_types lists too many types' })
  @ArrayUnique({ message: 'event_types must not repeat a type' })
  @IsIn(EVENT_TYPES, { each: true, message: `event_types must hold event types: ${EVENT_TYPES.join(', ')}` })
  event_types?: string[] | null;

  @ApiPropertyOptional({ description: 'A note for administrators', maxLength: 255 })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(255, { message: 'description must be at most 255 characters long' })
  description?: string;

  @ApiPropertyOptional({ description: 'Whether deliveries are sent (default true); enabling clears a 410 disable', default: true })
  @IsOptional()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}

/** Body of PATCH/PUT /webhooks/{id}: any of the create fields. */
@ApiSchema({ name: 'WebhookUpdate' })
export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {}
