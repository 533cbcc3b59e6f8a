import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { PaymentWebhookResponse } from './dto/payment-webhook.response';
import { PaymentEventsService } from './payment-events.service';
import { paymentProviderNames } from './providers/registry';
import { AnyScope } from '../auth/scope-decorators';

/** The path below the API root that keeps its body raw (see paymentWebhookRawBody). */
export const PAYMENT_WEBHOOK_PATH = 'tickets/v1/payments/:provider/webhook';

@ApiTags('tickets')
@Controller(PAYMENT_WEBHOOK_PATH)
export class PaymentWebhookController {
  constructor(private readonly events: PaymentEventsService) {}

  @Post()
  @AnyScope()
  @HttpCode(200)
  @ApiParam({
    name: 'provider',
    enum: paymentProviderNames().filter((name) => name !== 'manual'),
    description: 'The payment provider sending it (each has its own URL: stripe, paypal)',
  })
  @ApiHeader({
    name: 'Stripe-Signature',
    required: false,
    description:
      'stripe: Stripe signs every delivery with STRIPE_WEBHOOK_SECRET over the exact body; older than STRIPE_WEBHOOK_TOLERANCE_SECONDS is refused',
  })
  @ApiHeader({
    name: 'PayPal-Transmission-Sig',
    required: false,
    description:
      "paypal: with PayPal-Transmission-Id, -Time, PayPal-Cert-Url and PayPal-Auth-Algo, checked through PayPal's verify-webhook-signature API for PAYPAL_WEBHOOK_ID",
  })
  @ApiOperation({
    summary:
      'Payment provider webhook: a payment that succeeded completes the order, a failure is recorded, a refund marks it (partially) refunded (docs/payments.md)',
    description:
      'Each event id is processed once (a second delivery answers outcome duplicate). A payment that succeeds after the hold lapsed completes the order if its tickets can still be taken, else it is refunded through the provider and the buyer told. Other event types are acknowledged and ignored. stripe: payment_intent.succeeded, payment_intent.payment_failed, charge.refunded; paypal: CHECKOUT.ORDER.APPROVED (captured), PAYMENT.CAPTURE.COMPLETED, PAYMENT.CAPTURE.DENIED, PAYMENT.CAPTURE.REFUNDED, CHECKOUT.ORDER.VOIDED.',
  })
  @ApiBody({
    description: "The provider's event exactly as it sends it (the signature covers the raw bytes)",
    schema: { type: 'object', properties: { id: { type: 'string' } } },
  })
  @ApiOkResponse({ type: PaymentWebhookResponse })
  @ApiBadRequestResponse({
    description:
      'invalid-stripe-signature, invalid-paypal-signature (missing, forged, signed for another endpoint or body, or outside the tolerance); payment-provider-not-configured',
  })
  @ApiNotFoundResponse({ description: 'rest_no_route: no provider of that name' })
  @ApiServiceUnavailableResponse({
    description: 'payment-provider-unavailable: the provider could not be asked (to verify, or to capture); it delivers again',
  })
  receive(
    @Param('provider') provider: string,
    @Req() request: Request,
    @Headers() headers: Record<string, string | string[] | undefined>,
  ): Promise<PaymentWebhookResponse> {
    return this.events.receive(provider, request.body, headers);
  }
}
