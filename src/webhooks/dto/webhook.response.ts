import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EVENT_TYPES } from '../../outbox/event-types';

@ApiSchema({ name: 'Webhook' })
export class WebhookResponse {
  @ApiProperty() id: number;
  @ApiProperty() url: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [String], enum: EVENT_TYPES, nullable: true, description: 'null: every event type' }) event_types: string[] | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the service disabled it (the endpoint answered 410), or null' })
  disabled_reason: string | null;
  @ApiProperty({ description: 'ISO 8601, UTC' }) created: string;
  @ApiProperty({ description: 'ISO 8601, UTC' }) modified: string;
}

@ApiSchema({ name: 'CreatedWebhook' })
export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({
    description: 'The signing secret, `whsec_<base64>`: shown in this response only',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

@ApiSchema({ name: 'WebhookList' })
export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] }) webhooks: WebhookResponse[];
}

@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The `webhook-id` header: the same for every attempt and redelivery of one message' }) message_id: string;
  @ApiProperty({ enum: EVENT_TYPES }) event_type: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ nullable: true, type: Number, description: 'HTTP status of the last answer' }) response_status: number | null;
  @ApiProperty({ nullable: true, type: String }) last_error: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Pending deliveries: when the next attempt is due (ISO 8601)' }) next_attempt:
    string | null;
  @ApiProperty({ description: 'ISO 8601, UTC' }) created: string;
  @ApiProperty({ nullable: true, type: String }) delivered: string | null;
  @ApiProperty({ description: 'The body sent: {type, timestamp, data}', type: 'object', additionalProperties: true }) payload: Record<
    string,
    unknown
  >;
}

@ApiSchema({ name: 'WebhookDeliveryList' })
export class WebhookDeliveryListResponse {
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [WebhookDeliveryResponse] }) deliveries: WebhookDeliveryResponse[];
}
