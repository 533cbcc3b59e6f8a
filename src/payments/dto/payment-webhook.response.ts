import { ApiProperty, ApiSchema } from '@nestjs/swagger';

export const WEBHOOK_OUTCOMES = [
  'completed',
  'already_completed',
  'refund_scheduled',
  'failure_recorded',
  'amount_mismatch',
  'refunded',
  'partially_refunded',
  'canceled',
  'duplicate',
  'ignored',
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** What the service did with one provider event; the provider only reads the 2xx. */
@ApiSchema({ name: 'PaymentWebhookReceipt' })
export class PaymentWebhookResponse {
  @ApiProperty() received: boolean;
  @ApiProperty({ description: "The provider's event id" }) event_id: string;
  @ApiProperty({ description: "The provider's event type" }) type: string;
  @ApiProperty({
    enum: WEBHOOK_OUTCOMES,
    description:
      'duplicate: this event id was processed before; ignored: an event type or payment the service does not handle; refund_scheduled: paid after the hold lapsed with the tickets gone, refunded through the provider; amount_mismatch: the provider took another amount or currency than the order says, so the order is not completed (a manager refunds it at the provider); canceled: the provider cancelled the open payment',
  })
  outcome: WebhookOutcome;
}
