import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PAYMENT_STATUSES, type PaymentStatus } from '../payment.entity';

/** How an order is paid through a provider (docs/payments.md); absent on orders paid by hand. */
@ApiSchema({ name: 'OrderPayment' })
export class OrderPaymentResponse {
  @ApiProperty({ enum: ['stripe'] }) provider: string;

  @ApiProperty({
    enum: PAYMENT_STATUSES,
    description:
      'requires_payment: confirm it with client_secret; unavailable: the provider could not be reached (retry the checkout with its Idempotency-Key); failed: declined, the buyer may try again while the hold lasts; succeeded, partially_refunded, refunded; canceled: the intent was cancelled (the order ended unpaid, or a manager completed it by hand)',
  })
  status: PaymentStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Stripe.js confirms the PaymentIntent with it (stripe.confirmPayment); only while the payment is open',
  })
  client_secret: string | null;

  @ApiProperty({ description: 'The key Stripe.js is initialised with (STRIPE_PUBLISHABLE_KEY)' }) publishable_key: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'While the order is pending: when its hold on the tickets lapses (site time zone, YYYY-MM-DD HH:MM:SS)',
  })
  expires_at: string | null;

  @ApiProperty({ example: '50.00', description: 'What the payment is for, exact decimal' }) amount: string;
  @ApiProperty({ example: '0.00', description: 'Refunded so far, exact decimal' }) amount_refunded: string;

  @ApiPropertyOptional({ description: 'Why the last attempt failed, or why the provider could not be reached' })
  failure_message?: string;
}
