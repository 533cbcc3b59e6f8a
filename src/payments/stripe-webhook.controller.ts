import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { StripeWebhookResponse } from './dto/stripe-webhook.response';
import { StripeWebhookService } from './stripe-webhook.service';

/** The path below the API root that keeps its body raw (see stripeWebhookRawBody). */
export const STRIPE_WEBHOOK_PATH = 'tickets/v1/payments/stripe/webhook';

@ApiTags('tickets')
@Controller(STRIPE_WEBHOOK_PATH)
export class StripeWebhookController {
  constructor(private readonly webhooks: StripeWebhookService) {}

  @Post()
  @HttpCode(200)
  @ApiHeader({
    name: 'Stripe-Signature',
    required: true,
    description:
      'Stripe signs every delivery with STRIPE_WEBHOOK_SECRET over the exact body; older than STRIPE_WEBHOOK_TOLERANCE_SECONDS is refused',
  })
  @ApiOperation({
    summary:
      'Stripe webhook: payment_intent.succeeded completes the order, payment_intent.payment_failed is recorded, charge.refunded marks (partially) refunded',
    description:
      'Each event id is processed once (a second delivery answers outcome duplicate). A payment that succeeds after the hold lapsed completes the order if its tickets can still be taken, else it is refunded through Stripe and the buyer told. Other event types are acknowledged and ignored.',
  })
  @ApiBody({
    description: 'The Stripe event exactly as Stripe sends it (the signature covers the raw bytes)',
    schema: { type: 'object', properties: { id: { type: 'string' }, type: { type: 'string' }, data: { type: 'object' } } },
  })
  @ApiOkResponse({ type: StripeWebhookResponse })
  @ApiBadRequestResponse({
    description:
      'invalid-stripe-signature (missing, forged, signed with another secret, or a timestamp outside the tolerance); payment-provider-not-configured',
  })
  receive(@Req() request: Request, @Headers('stripe-signature') signature: string | undefined): Promise<StripeWebhookResponse> {
    return this.webhooks.receive(request.body, signature);
  }
}
