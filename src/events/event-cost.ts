import { invalidParam } from '../common/errors/api-error';
import type { CurrencyConfig } from '../config/app.config';
import { sanitizePlainText } from '../common/security/text-sanitizing';
import type { CostDetails } from './dto/event.response';

export interface EventCost {
  /** The display string: "" unset, "Free", "$10", "$5 – $20", "Free – $30", or the text as given. */
  cost: string;
  cost_details: CostDetails;
}

const NUMBER = /\d+(?:[.,]\d+)?/g;

function normaliseNumber(text: string): string {
  return String(Number(text.replace(',', '.')));
}

/**
 * The stored cost is what the organiser typed ("10", "20$", "€5 - 15", "Donation"). Numbers are
 * read out of it, sorted, and shown with the currency symbol the text uses (its position inferred:
 * "20$" is postfix) or else the site's currency; 0 reads "Free". Text without numbers is shown as
 * it is.
 */
export function describeCost(stored: string | null, currency: CurrencyConfig): EventCost {
  const text = (stored ?? '').trim();
  if (text === '') {
    return { cost: '', cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } };
  }
  const numbers = text.match(NUMBER) ?? [];
  if (numbers.length === 0) {
    return { cost: text, cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } };
  }
  const values = [...new Set(numbers.map(normaliseNumber))].sort((a, b) => Number(a) - Number(b));
  const before = text.slice(0, text.search(/\d/)).replace(/[\s\-–]/g, '');
  const lastDigit = text.length - [...text].reverse().join('').search(/\d/);
  const after = text.slice(lastDigit).replace(/[\s\-–]/g, '');
  const symbol = before || after || currency.symbol;
  const position: 'prefix' | 'postfix' = before ? 'prefix' : after ? 'postfix' : currency.position;
  const money = (value: string) => (Number(value) === 0 ? 'Free' : position === 'prefix' ? `${symbol}${value}` : `${value}${symbol}`);
  const lowest = values[0];
  const highest = values[values.length - 1];
  const cost = lowest === highest ? money(lowest) : `${money(lowest)} – ${money(highest)}`;
  return {
    cost,
    cost_details: { currency_symbol: symbol, currency_code: currency.code, currency_position: position, values },
  };
}

/**
 * Cost is plain text (themes print it as it is): markup removed, cut to its column. Only the
 * first 1000 characters are read, so that a long value costs no more than a short one.
 */
function plainCost(text: string): string | null {
  return sanitizePlainText(text.slice(0, 1000)).slice(0, 255).trim() || null;
}

/** A cost as sent: a string, a number, or a list of them (each a price); "" or null clears it. */
export function parseCostInput(raw: unknown): string | null {
  if (raw === null || raw === '') return null;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  if (typeof raw === 'string') return plainCost(raw);
  if (
    Array.isArray(raw) &&
    raw.length <= 100 &&
    raw.every((item) => typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item)))
  ) {
    return plainCost(raw.map(String).join(', '));
  }
  throw invalidParam('cost', 'cost must be a string, a number or a list of them');
}
