import { Transform } from 'class-transformer';

/**
 * Lists arrive as JSON arrays, repeated keys (`a=1&a=2`), bracket keys (`a[]=1`) or comma-separated
 * strings (`a=1,2`); all become one array of trimmed strings. A JSON array in a string
 * (`a=[1,2]`) is accepted too, as some clients of the original send that.
 */
export function toList(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (Array.isArray(value)) return (value as unknown[]).flatMap((item) => (typeof item === 'string' ? splitCsv(item) : [item]));
  if (typeof value === 'number') return [value];
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed.startsWith('[') && trimmed.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Not JSON: read it as a comma-separated list below.
    }
  }
  return splitCsv(trimmed);
}

function splitCsv(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Integers from any list form; items that are not integers are kept so validation names them. */
export function toIntList(value: unknown): unknown {
  const list = toList(value);
  if (!Array.isArray(list)) return list;
  return (list as unknown[]).map((item) => (typeof item === 'string' && /^-?\d{1,15}$/.test(item) ? Number(item) : item));
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', '']);

/** Booleans as forms and query strings send them: "true"/"false", "1"/"0", "yes"/"no". */
export function toBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
}

/** An integer from a numeric string; anything else is left for validation to name. */
export function toInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return value;
}

/** Strings trimmed (and upper- or lower-cased); anything else is left for validation to name. */
export function toTrimmed(value: unknown, letterCase?: 'upper' | 'lower'): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (letterCase === 'upper') return trimmed.toUpperCase();
  if (letterCase === 'lower') return trimmed.toLowerCase();
  return trimmed;
}

export const ToList = () => Transform(({ value }: { value: unknown }) => toList(value));
export const ToIntList = () => Transform(({ value }: { value: unknown }) => toIntList(value));
export const ToBoolean = () => Transform(({ value }: { value: unknown }) => toBoolean(value));
export const ToInteger = () => Transform(({ value }: { value: unknown }) => toInteger(value));
export const Trimmed = () => Transform(({ value }: { value: unknown }) => toTrimmed(value));
export const UpperCased = () => Transform(({ value }: { value: unknown }) => toTrimmed(value, 'upper'));
export const LowerCased = () => Transform(({ value }: { value: unknown }) => toTrimmed(value, 'lower'));
/**
 * JSON `null` counts as not sent, for fields whose column cannot be empty: validation skips null
 * (`@IsOptional`), and the column would refuse it with a server error.
 */
export const NullAsAbsent = () => Transform(({ value }: { value: unknown }) => (value === null ? undefined : value));
