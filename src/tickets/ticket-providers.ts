import type { TicketProvider } from './ticket.entity';

/**
 * Names a client may use for a provider: our slugs, the original's slugs (`tribe-commerce`, `tpp`
 * for its PayPal commerce, which `tc` replaces) and the class names its block editor sends.
 * Keys are lower-case; lookups ignore case and surrounding blanks.
 */
const PROVIDER_ALIASES: ReadonlyMap<string, TicketProvider> = new Map([
  ['rsvp', 'rsvp'],
  ['tribe__tickets__rsvp', 'rsvp'],
  ['tc', 'tc'],
  ['tribe-commerce', 'tc'],
  ['tpp', 'tc'],
  ['tribe__tickets__commerce__paypal__main', 'tc'],
  ['tec\\tickets\\commerce\\module', 'tc'],
]);

/** The provider a name stands for, or null when it names none we run. */
export function resolveProvider(name: unknown): TicketProvider | null {
  if (typeof name !== 'string') return null;
  return PROVIDER_ALIASES.get(name.trim().toLowerCase()) ?? null;
}
