import { DateTime, FixedOffsetZone, IANAZone, Zone } from 'luxon';
import sanitizeHtml from 'sanitize-html';

/**
 * Pure formatting the responses need: wall-clock dates, money, costs, rich text. Written for this
 * server (nothing here is loaded from src/), with the same rules as the service's mappers.
 */

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

const UTC_OFFSET_PATTERN = /^UTC([+-])(\d{1,2})(?:[:.](\d{1,2}))?$/i;
const zones = new Map<string, Zone | null>();

/** "Europe/Paris", "UTC", or a WordPress manual offset ("UTC+2", "UTC-5:30", "UTC+5.5"); null for none. */
export function resolveZone(name: string): Zone | null {
  const cached = zones.get(name);
  if (cached !== undefined) return cached;
  const zone = parseZone(name);
  if (zones.size < 1000) zones.set(name, zone);
  return zone;
}

function parseZone(name: string): Zone | null {
  const trimmed = name.trim();
  if (trimmed === '') return null;
  if (/^utc$/i.test(trimmed)) return FixedOffsetZone.utcInstance;
  const offset = UTC_OFFSET_PATTERN.exec(trimmed);
  if (offset) {
    const sign = offset[1] === '-' ? -1 : 1;
    const hours = Number(offset[2]);
    const fraction = offset[3] ?? '0';
    const minutes = trimmed.includes('.') ? Math.round(Number(`0.${fraction}`) * 60) : Number(fraction);
    if (hours > 14 || minutes >= 60) return null;
    return FixedOffsetZone.instance(sign * (hours * 60 + minutes));
  }
  return IANAZone.isValidZone(trimmed) ? IANAZone.create(trimmed) : null;
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function utcWallClock(epochMs: number): string {
  const date = new Date(epochMs);
  const year = date.getUTCFullYear();
  return `${year < 1000 ? String(year).padStart(4, '0') : year}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())} ${pad2(date.getUTCHours())}:${pad2(
    date.getUTCMinutes(),
  )}:${pad2(date.getUTCSeconds())}`;
}

/** `YYYY-MM-DD HH:MM:SS` of the instant in `zone` (UTC when null); fixed offsets without luxon. */
export function wallClock(instant: Date, zone: Zone | null = null): string {
  if (zone === null) return utcWallClock(instant.getTime());
  if (zone.type === 'fixed') return utcWallClock(instant.getTime() + zone.offset(0) * 60_000);
  return DateTime.fromJSDate(instant, { zone }).toFormat('yyyy-MM-dd HH:mm:ss');
}

/** `YYYY-MM-DD` of the instant in `zone`. */
export function calendarDate(instant: Date, zone: Zone | null): string {
  return wallClock(instant, zone).slice(0, 10);
}

const WALL_CLOCK_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function dateDetails(wallClockText: string): DateDetails {
  const match = WALL_CLOCK_PATTERN.exec(wallClockText);
  if (!match) return { year: '', month: '', day: '', hour: '', minutes: '', seconds: '' };
  return { year: match[1], month: match[2], day: match[3], hour: match[4], minutes: match[5], seconds: match[6] };
}

/** The instant a wall-clock time of `zone` names (gaps resolve as luxon resolves them, like the service). */
export function wallClockToInstant(local: string, zone: Zone): Date {
  if (zone.type === 'fixed') return new Date(Date.parse(`${local.replace(' ', 'T')}Z`) - zone.offset(0) * 60_000);
  return DateTime.fromFormat(local, 'yyyy-MM-dd HH:mm:ss', { zone }).toJSDate();
}

/** The zone's short name at the event's start ("CST"); fixed offsets and unknown zones show the name as stored. */
export function timezoneAbbreviation(timezone: string, startUtc: Date): string {
  const zone = resolveZone(timezone);
  if (!zone || zone.type === 'fixed') return timezone;
  return DateTime.fromJSDate(startUtc, { zone }).offsetNameShort ?? timezone;
}

/** ISO 8601 with the zone's offset, no milliseconds (JSON-LD dates). */
export function isoInZone(instant: Date, timezone: string): string {
  const zone = resolveZone(timezone) ?? 'UTC';
  return DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: true }) ?? instant.toISOString();
}

// ---------------------------------------------------------------- money

const MONEY_PATTERN = /^\s*(\d{1,10})(?:[.,](\d{0,2}))?\s*$/;

export function moneyToCents(value: string): number | null {
  const match = MONEY_PATTERN.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export function centsToMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** A DECIMAL(12,2) column as mysql2 returns it, in the service's "25.00" form. */
export function moneyColumn(value: string | number | null): string {
  return value === null ? '0.00' : centsToMoney(moneyToCents(String(value)) ?? 0);
}

/** "25.00" → "25", "25.50" → "25.5". */
export function rawPrice(money: string): string {
  const cents = moneyToCents(money) ?? 0;
  const fraction = String(cents % 100).padStart(2, '0').replace(/0+$/, '');
  return fraction === '' ? String(Math.floor(cents / 100)) : `${Math.floor(cents / 100)}.${fraction}`;
}

/** "1025.5" → "1,025.50". */
export function formattedPrice(money: string): string {
  const cents = moneyToCents(money) ?? 0;
  const units = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${units}.${String(cents % 100).padStart(2, '0')}`;
}

export interface CurrencySettings {
  code: string;
  symbol: string;
  position: 'prefix' | 'postfix';
}

export interface EventCost {
  cost: string;
  cost_details: { currency_symbol: string; currency_code: string; currency_position: '' | 'prefix' | 'postfix'; values: string[] };
}

const COST_NUMBER = /\d+(?:[.,]\d+)?/g;

/** An event's stored cost text ("10", "5 - 20$", "Donation") as its display string and details. */
export function describeCost(stored: string | null, currency: CurrencySettings): EventCost {
  const text = (stored ?? '').trim();
  const numbers = text === '' ? [] : (text.match(COST_NUMBER) ?? []);
  if (numbers.length === 0) {
    return { cost: text, cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } };
  }
  const values = [...new Set(numbers.map((number) => String(Number(number.replace(',', '.')))))].sort((a, b) => Number(a) - Number(b));
  const before = text.slice(0, text.search(/\d/)).replace(/[\s\-–]/g, '');
  const lastDigit = text.length - [...text].reverse().join('').search(/\d/);
  const after = text.slice(lastDigit).replace(/[\s\-–]/g, '');
  const symbol = before || after || currency.symbol;
  const position: 'prefix' | 'postfix' = before ? 'prefix' : after ? 'postfix' : currency.position;
  const money = (value: string) => (Number(value) === 0 ? 'Free' : position === 'prefix' ? `${symbol}${value}` : `${value}${symbol}`);
  const lowest = values[0];
  const highest = values[values.length - 1];
  return {
    cost: lowest === highest ? money(lowest) : `${money(lowest)} – ${money(highest)}`,
    cost_details: { currency_symbol: symbol, currency_code: currency.code, currency_position: position, values },
  };
}

// ---------------------------------------------------------------- text

const BLOCK_START = /^\s*<(p|div|h[1-6]|ul|ol|dl|table|blockquote|pre|figure|hr)[\s>/]/i;

/** Plain text as `<p>` paragraphs (single newlines as `<br />`); HTML starting with a block is kept. */
export function renderParagraphs(text: string | null): string {
  if (!text) return '';
  if (BLOCK_START.test(text)) return text;
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, '<br />\n')}</p>`)
    .join('\n');
}

const MARKUP_OR_ENTITY = /[<>&]/;

/** The text of some HTML without markup (JSON-LD descriptions); text without `<`, `>` or `&` needs no parser. */
export function plainText(html: string | null): string {
  if (!html) return '';
  const text = MARKUP_OR_ENTITY.test(html) ? sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }) : html;
  return text.replace(/\s+/g, ' ').trim();
}

export interface PostImage {
  url: string;
  id: number;
  extension: string;
  width: number;
  height: number;
  sizes: Record<string, never>;
}

export function postImage(url: string | null): PostImage | false {
  if (!url) return false;
  const extension = /\.([a-z0-9]{2,5})(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  return { url, id: 0, extension, width: 0, height: 0, sizes: {} };
}
