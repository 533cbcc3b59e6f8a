import { DateTime } from 'luxon';
import { sanitizePlainText } from '../common/security/text-sanitizing';
import { invalidParam, missingParams } from '../common/errors/api-error';
import { describeMoneyProblem, MoneyRules, parseMoney } from '../common/money';
import type { CapacityMode } from './ticket.entity';
import { invalidPrice } from './ticket-errors';

/** Largest capacity a ticket or a shared pool may have (the columns are 32-bit integers). */
export const MAX_CAPACITY = 1_000_000_000;

/**
 * A ticket price in the currency's minor units. Blank means free. What is not a non-negative
 * decimal is 400 `tec-tickets-rest-invalid_price`, as the original answers "0,0" and negative
 * prices; a well-formed amount the currency cannot hold (a decimal more than it has, more than ten
 * integer digits, off the payment provider's step) is 400 `rest_invalid_param` naming `price`,
 * never rounded.
 */
export function parseTicketPrice(raw: unknown, rules: MoneyRules): number {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return 0;
  const parsed = parseMoney(raw, rules);
  if (parsed.problem === 'not-a-number') throw invalidPrice();
  if (parsed.problem) throw invalidParam('price', describeMoneyProblem('price', parsed.problem, rules));
  return parsed.minor;
}

/**
 * Plain text for ticket names and descriptions (the original runs them through
 * `sanitize_text_field`): markup is dropped, and what is left is safe to print as HTML.
 */
export function plainTicketText(value: string): string {
  return sanitizePlainText(value);
}

const SALE_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const SALE_TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

function pad(value: string | undefined): string {
  return (value ?? '0').padStart(2, '0');
}

function readTime(raw: unknown, field: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw invalidParam(field, `${field} must be a time of day (HH:MM:SS)`);
  const text = raw.trim();
  if (text === '') return undefined;
  const match = SALE_TIME.exec(text);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59 || Number(match[3] ?? 0) > 59) {
    throw invalidParam(field, `${field} must be a time of day (HH:MM:SS)`);
  }
  return `${pad(match[1])}:${match[2]}:${pad(match[3])}`;
}

function readDate(text: string, field: string): { date: string; time?: string } {
  const match = SALE_DATE.exec(text);
  const invalid = () => invalidParam(field, `${field} must be a date (YYYY-MM-DD)`);
  if (!match) throw invalid();
  const [, year, month, day, hour, minute, second] = match;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  const time = hour === undefined ? undefined : `${pad(hour)}:${minute}:${pad(second)}`;
  const check = DateTime.fromFormat(`${date} ${time ?? '00:00:00'}`, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });
  if (!check.isValid) throw invalid();
  return { date, time };
}

export interface SaleBoundaryInput {
  date: unknown;
  time: unknown;
  dateField: string;
  timeField: string;
}

/**
 * One end of a sale window as wall-clock time (`YYYY-MM-DD HH:MM:SS`) in the event's zone, or null
 * when open. `base` is what applies when nothing is sent: the current value on update, the default
 * on create. On update a blank date clears the boundary and a new date keeps the current time of
 * day; on create a blank date means the default and a date without a time takes `fallbackTime`.
 */
export function resolveSaleBoundary(input: SaleBoundaryInput, base: string | null, isUpdate: boolean, fallbackTime: string): string | null {
  const time = readTime(input.time, input.timeField);
  let dateText: string | undefined;
  if (input.date !== undefined && input.date !== null) {
    if (typeof input.date !== 'string') throw invalidParam(input.dateField, `${input.dateField} must be a date (YYYY-MM-DD)`);
    dateText = input.date.trim();
    if (dateText === '') {
      if (isUpdate) return null;
      dateText = undefined;
    }
  }
  if (dateText === undefined) {
    if (time === undefined) return base;
    if (!base) throw invalidParam(input.dateField, `${input.dateField} is needed with ${input.timeField}`);
    return `${base.slice(0, 10)} ${time}`;
  }
  const parsed = readDate(dateText, input.dateField);
  const keptTime = isUpdate && base ? base.slice(11) : fallbackTime;
  return `${parsed.date} ${time ?? parsed.time ?? keptTime}`;
}

/** `ticket[...]` of a write: the capacity mode and numbers as sent ("" meaning blank). */
export interface CapacityInput {
  mode?: string;
  capacity?: number | '' | null;
  event_capacity?: number | '' | null;
}

export interface CapacityPlan {
  mode: CapacityMode;
  /** The ticket's own cap: own capacity, capped cap (null: the pool's size); null otherwise. */
  capacity: number | null;
  /** The shared pool size to set, or null to leave the pool as it is. */
  eventCapacity: number | null;
}

function given(value: number | '' | null | undefined): value is number {
  return typeof value === 'number';
}

/** `ticket[mode]` as sent: "" (and "unlimited") means unlimited; absent means own on create. */
export function readCapacityMode(mode: string | undefined): CapacityMode | undefined {
  if (mode === undefined) return undefined;
  const normalised = mode.trim().toLowerCase();
  if (normalised === '' || normalised === 'unlimited') return 'unlimited';
  return normalised as CapacityMode;
}

export function isSharedMode(mode: CapacityMode): boolean {
  return mode === 'capped' || mode === 'global';
}

/**
 * What a write does to a ticket's capacity. `current` is the ticket before an update (null on
 * create); null comes back when an update leaves capacity alone. A ticket needs a capacity unless
 * unlimited, and a shared one needs a pool: `ticket[event_capacity]` creates it the first time.
 */
export function planCapacity(
  input: CapacityInput | undefined | null,
  current: { mode: CapacityMode; capacity: number | null } | null,
  poolExists: boolean,
): CapacityPlan | null {
  if (input === undefined || input === null) {
    if (current) return null;
    throw missingParams(['ticket[capacity]']);
  }
  const mode = readCapacityMode(input.mode) ?? current?.mode ?? 'own';
  let capacity: number | null = null;
  if (mode === 'own') {
    if (given(input.capacity)) capacity = input.capacity;
    else if (current?.mode === 'own' && input.capacity === undefined) capacity = current.capacity;
    else throw missingParams(['ticket[capacity]']);
  } else if (mode === 'capped') {
    if (given(input.capacity)) capacity = input.capacity;
    else if (current?.mode === 'capped' && input.capacity === undefined) capacity = current.capacity;
  }
  let eventCapacity: number | null = null;
  if (isSharedMode(mode)) {
    if (given(input.event_capacity)) eventCapacity = input.event_capacity;
    else if (!poolExists) throw missingParams(['ticket[event_capacity]']);
  }
  return { mode, capacity, eventCapacity };
}
