import { definePaymentProvider } from '../../payment-provider';
import { stripeStep } from './stripe-amounts';
import { StripePaymentProvider } from './stripe.provider';
import { readStripeSettings, STRIPE_VARIABLES } from './stripe.settings';

/** Stripe PaymentIntents: the buyer's browser pays with Stripe.js, Stripe's webhook completes the order. */
export const stripePayments = definePaymentProvider({
  name: 'stripe',
  variables: STRIPE_VARIABLES,
  readSettings: (env, selected) => readStripeSettings(env, selected),
  step: stripeStep,
  create: (settings) => new StripePaymentProvider(settings),
});
