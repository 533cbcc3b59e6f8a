import { definePaymentProvider } from '../../payment-provider';

/** Nothing moves through the service: a manager (or the signed generic webhook) completes, refunds are recorded by hand. */
export const manualPayments = definePaymentProvider<never>({
  name: 'manual',
  variables: [],
  readSettings: () => null,
  step: () => 1,
});
