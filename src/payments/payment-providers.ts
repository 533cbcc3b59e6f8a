import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CLOCK, Clock } from '../common/clock';
import { paymentProviderNotConfigured } from './payment-errors';
import type { PaymentProvider } from './payment-provider';
import { paymentsConfig } from './payments.config';
import { findPaymentProvider, PAYMENT_PROVIDERS } from './providers/registry';

/**
 * The configured providers of this instance, made once from the registry with their settings:
 * PAYMENT_PROVIDER's for new orders, and every other configured one for the payments it took
 * before a switch (each payment row names its provider).
 */
@Injectable()
export class PaymentProviders {
  private readonly configured = new Map<string, PaymentProvider>();
  private readonly selected: string;

  constructor(@Inject(paymentsConfig.KEY) config: ConfigType<typeof paymentsConfig>, @Inject(CLOCK) clock: Clock) {
    this.selected = config.provider;
    for (const definition of PAYMENT_PROVIDERS) {
      const settings: unknown = config.settings[definition.name];
      if (definition.create && settings !== null && settings !== undefined) {
        this.configured.set(definition.name, definition.create(settings, clock));
      }
    }
  }

  /** The provider that takes the money of new paid orders; null when they are paid by hand. */
  forNewOrders(): PaymentProvider | null {
    return this.configured.get(this.selected) ?? null;
  }

  /** Whether any provider could have taken a payment here (else orders carry none and need no look-up). */
  get any(): boolean {
    return this.configured.size > 0;
  }

  find(name: string): PaymentProvider | undefined {
    return this.configured.get(name);
  }

  /** The provider named, configured on this instance; 400 payment-provider-not-configured otherwise. */
  get(name: string): PaymentProvider {
    const provider = this.configured.get(name);
    if (!provider) throw paymentProviderNotConfigured(name, findPaymentProvider(name)?.variables ?? []);
    return provider;
  }

  /** Whether `name` is a registered provider (configured here or not). */
  isRegistered(name: string): boolean {
    return findPaymentProvider(name) !== undefined;
  }
}
