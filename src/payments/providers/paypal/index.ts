import { definePaymentProvider } from '../../payment-provider';
import { paypalStep } from './paypal-amounts';
import { PayPalPaymentProvider } from './paypal.provider';
import { PAYPAL_VARIABLES, readPayPalSettings } from './paypal.settings';

/** PayPal Orders v2: the buyer approves with PayPal, the service captures; webhooks verified by PayPal's API. */
export const paypalPayments = definePaymentProvider({
  name: 'paypal',
  variables: PAYPAL_VARIABLES,
  readSettings: readPayPalSettings,
  step: paypalStep,
  create: (settings) => new PayPalPaymentProvider(settings),
});
