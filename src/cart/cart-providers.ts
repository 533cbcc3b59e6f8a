import type { TicketProvider } from '../tickets/ticket.entity';

/** Provider names accepted in cart and checkout bodies: ours, and the original's for its PayPal commerce. */
export const CART_PROVIDER_NAMES = ['rsvp', 'tc', 'tribe-commerce', 'tpp'] as const;

const PROVIDER_BY_NAME: ReadonlyMap<string, TicketProvider> = new Map([
  ['rsvp', 'rsvp'],
  ['tc', 'tc'],
  ['tribe-commerce', 'tc'],
  ['tpp', 'tc'],
]);

/** The provider a name stands for (`tribe-commerce` and `tpp` are `tc`), or null for none we run. */
export function normalizeProvider(name: unknown): TicketProvider | null {
  if (typeof name !== 'string') return null;
  return PROVIDER_BY_NAME.get(name.trim().toLowerCase()) ?? null;
}

export function isProviderName(name: unknown): boolean {
  return normalizeProvider(name) !== null;
}
