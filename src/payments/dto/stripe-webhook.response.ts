import { ApiProperty, ApiSchema } from '@nestjs/swagger';

export const WEBHOOK_OUTCOMES = [
  'completed',
  'already_completed',
  'refund_scheduled',
  'failure_recorded',
  'amount_mismatch',
  'refunded',
  'partially_refunded',
  'duplicate',
  'ignored',
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** What the service did with one Stripe event; Stripe only reads the 2xx. */
@ApiSchema({ name: 'StripeWebhookReceipt' })
export class StripeWebhookResponse {
  @ApiProperty() received: boolean;
  @ApiProperty({ description: 'The Stripe event id' }) event_id: string;
  @ApiProperty({ description: 'The Stripe event type' }) type: string;
  @ApiProperty({
    enum: WEBHOOK_OUTCOMES,
    description:
      'duplicate: this event id was processed before; ignored: an event type or PaymentIntent the service does not handle; refund_scheduled: paid after the hold lapsed with the tickets gone, refunded through Stripe; amount_mismatch: Stripe took another amount or currency than the order says, so the order is not completed (a manager refunds it in Stripe)',
  })
  outcome: WebhookOutcome;
}
