import { registerAs } from '@nestjs/config';
import { readPayments } from './providers/registry';

/**
 * The payments module's own settings (registered by PaymentsCoreModule, ConfigModule.forFeature):
 * PAYMENT_PROVIDER checked against the registry, and each provider's settings read and checked by
 * the provider. A bad one stops the start naming the variable (main.ts reads them before anything).
 */
export const paymentsConfig = registerAs('payments', () => readPayments(process.env));
