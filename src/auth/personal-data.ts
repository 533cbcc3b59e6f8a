import type { AuthenticatedUser } from './roles';

/**
 * Personal data masking for API tokens created with `pii: 'redacted'` (issue 43): every answer and
 * export such a token reads shows emails, person names and question answers masked, whatever the
 * route. The masks keep a hint for a human reading a report and nothing a person could be found by:
 *
 * - emails: first character of the local part and of the domain, the top-level domain kept:
 *   `jane.doe@example.org` → `j***@e***.org`; an email inside a longer text is masked in place;
 * - person names: the first letter of each word: `Jane Doe` → `J*** D***`;
 * - answers to ticket questions: each answer becomes `***` (lists of answers stay lists).
 *
 * What counts as a person's name is decided by shape, not by route: the keys that always name a
 * person (`holder_name`, `purchaser_name`, ...), and `name`/`title` inside an object that describes
 * a person (one with an `email`, an attendee with `optout` or `checkin_secret`, or one found under
 * `purchaser`, `holder`, `buyer`, `attendee` or `attendees`). Events, tickets, venues and lists keep
 * their titles and names.
 */
export const MASK = '***';

const EMAIL_SOURCE = String.raw`([A-Za-z0-9_%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9])[A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*(\.[A-Za-z]{2,})\b`;
/** Global, for `replace` (which starts from 0 whatever `lastIndex` says). */
const EMAILS_IN_TEXT = new RegExp(EMAIL_SOURCE, 'g');
/** Not global, for `test` (a global one would keep a `lastIndex` between calls). */
const HAS_EMAIL = new RegExp(EMAIL_SOURCE);

function maskEmailsInText(value: string): string {
  return value.replace(EMAILS_IN_TEXT, (_match, local: string, domain: string, tld: string) => `${local}${MASK}@${domain}${MASK}${tld}`);
}

/** Keys whose value is a person's name wherever they appear. */
const PERSON_NAME_KEYS = new Set([
  'holder_name',
  'purchaser_name',
  'attendee_name',
  'buyer_name',
  'full_name',
  'first_name',
  'last_name',
  'holderName',
  'purchaserName',
  'attendeeName',
  'fullName',
  'firstName',
  'lastName',
]);

/** Keys naming a person inside an object that describes a person. */
const NAME_KEYS_OF_PERSON = new Set(['name', 'title']);

/** Keys whose value holds a person's answers to ticket questions. */
const ANSWER_KEYS = new Set(['information', 'answers', 'attendee_answers', 'question_answers']);

/** Keys under which an object (or a list of objects) describes a person. */
const PERSON_CONTAINER_KEYS = new Set(['purchaser', 'holder', 'buyer', 'attendee', 'attendees']);

/** Keys that mark an object as describing a person. */
const PERSON_MARKER_KEYS = ['email', 'optout', 'checkin_secret', 'holder_email', 'purchaser_email'];

function isEmailKey(key: string): boolean {
  return key === 'email' || key.endsWith('_email') || key.endsWith('Email');
}

/** `jane.doe@example.org` → `j***@e***.org`; any email inside a text is masked in place. */
export function maskEmail(value: string): string {
  const masked = maskEmailsInText(value);
  // A value under an email key that is not shaped like one is masked whole.
  return masked === value && value.includes('@') ? MASK : masked;
}

/** `Jane Doe` → `J*** D***`. */
export function maskPersonName(value: string): string {
  const words = value.trim().split(/\s+/).filter(Boolean);
  return words.length ? words.map((word) => `${Array.from(word)[0]}${MASK}`).join(' ') : value;
}

function maskAnswer(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (Array.isArray(value)) return value.map(maskAnswer);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskAnswer(inner)]));
  return MASK;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (value instanceof Date || Buffer.isBuffer(value) || value instanceof Map || value instanceof Set) return false;
  return true;
}

function describesPerson(object: Record<string, unknown>, underPersonKey: boolean): boolean {
  return underPersonKey || PERSON_MARKER_KEYS.some((key) => key in object);
}

function redact(value: unknown, underPersonKey: boolean): unknown {
  if (typeof value === 'string') return HAS_EMAIL.test(value) ? maskEmailsInText(value) : value;
  if (Array.isArray(value)) return value.map((item) => redact(item, underPersonKey));
  if (value instanceof Date) return new Date(value.getTime());
  if (!isPlainObject(value)) return value;
  const person = describesPerson(value, underPersonKey);
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'string' && isEmailKey(key)) copy[key] = inner === '' ? inner : maskEmail(inner);
    else if (typeof inner === 'string' && (PERSON_NAME_KEYS.has(key) || (person && NAME_KEYS_OF_PERSON.has(key))))
      copy[key] = maskPersonName(inner);
    else if (ANSWER_KEYS.has(key)) copy[key] = maskAnswer(inner);
    else copy[key] = redact(inner, PERSON_CONTAINER_KEYS.has(key));
  }
  return copy;
}

/**
 * A deep copy of `value` with emails, person names and question answers masked (see above). Plain
 * objects and arrays are copied; strings anywhere have the emails in them masked; other values
 * (numbers, booleans, dates) are kept.
 */
export function redactPersonalData<T>(value: T): T {
  return redact(value, false) as T;
}

/**
 * One cell of an export (CSV/XLSX) under the column `key`, masked as the answers are: email columns
 * (`holder_email`, ...) as emails, name columns (`holder_name`, ...) as names, answer columns
 * (`question:<slug>`, `registration`) whole, any other text with the emails in it masked.
 */
export function redactExportCell<T>(key: string, value: T): T | string {
  if (typeof value !== 'string' || value === '') return value;
  if (key.startsWith('question:') || key === 'registration' || ANSWER_KEYS.has(key)) return MASK;
  if (isEmailKey(key)) return maskEmail(value);
  if (PERSON_NAME_KEYS.has(key)) return maskPersonName(value);
  return HAS_EMAIL.test(value) ? maskEmailsInText(value) : value;
}

/** Whether what `user` reads must be masked: a Bearer token created with `pii: 'redacted'`. */
export function shouldRedact(user?: AuthenticatedUser | null): boolean {
  return !!user?.token && user.token.pii === 'redacted';
}
