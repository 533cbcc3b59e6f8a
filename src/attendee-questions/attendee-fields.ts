import { invalidParams } from '../common/errors/api-error';

/**
 * Attendee questions (Event Tickets Plus calls them attendee information fields): the definitions
 * a ticket stores, read and checked here, pure.
 */
export const ATTENDEE_FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'telephone',
  'url',
  'number',
  'date',
  'birth_date',
  'select',
  'radio',
  'checkbox',
] as const;
export type AttendeeFieldType = (typeof ATTENDEE_FIELD_TYPES)[number];

/** Types whose answers come from `options`. */
export const CHOICE_TYPES: readonly AttendeeFieldType[] = ['select', 'radio', 'checkbox'];

export interface AttendeeField {
  type: AttendeeFieldType;
  label: string;
  slug: string;
  required: boolean;
  options: string[];
  description: string;
}

export const MAX_FIELDS = 50;
export const MAX_OPTIONS = 100;
const MAX_LABEL = 255;
const MAX_DESCRIPTION = 1000;
const MAX_OPTION = 255;
const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A slug from a label: lower case, runs of anything but letters and digits become "-". */
export function slugFromLabel(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

function readBoolean(value: unknown): boolean | null {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true' || value === 'yes' || value === 'on') return true;
  if (value === 0 || value === '0' || value === 'false' || value === 'no' || value === 'off') return false;
  return null;
}

/** A list sent as an array, or as an object with numeric keys (form fields `x[0][label]`). */
function asList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value as unknown[];
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.every(([key]) => /^\d+$/.test(key))) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => item);
  }
  return null;
}

type Reasons = Record<string, string>;

function readType(input: Record<string, unknown>, at: (key: string) => string, reasons: Reasons): AttendeeFieldType {
  const type = input.type;
  if (typeof type !== 'string' || !(ATTENDEE_FIELD_TYPES as readonly string[]).includes(type)) {
    reasons[at('type')] = `type must be one of ${ATTENDEE_FIELD_TYPES.join(', ')}`;
  }
  return type as AttendeeFieldType;
}

function readSlug(
  input: Record<string, unknown>,
  label: string,
  slugs: Set<string>,
  at: (key: string) => string,
  reasons: Reasons,
): string {
  const derived = input.slug === undefined || input.slug === null || input.slug === '';
  const slug = derived ? slugFromLabel(label) : input.slug;
  // An empty label has its own error; the slug made from it says nothing more.
  if (derived && label === '') return '';
  if (typeof slug !== 'string' || !SLUG.test(slug)) {
    reasons[at('slug')] = 'slug must be 1 to 64 lower-case letters, digits, "-" or "_"';
    return '';
  }
  if (slugs.has(slug)) reasons[at('slug')] = `slug ${slug} is used by another field of this ticket`;
  slugs.add(slug);
  return slug;
}

function readOptions(input: Record<string, unknown>, type: AttendeeFieldType, at: (key: string) => string, reasons: Reasons): string[] {
  const options = input.options === undefined || input.options === null || input.options === '' ? [] : asList(input.options);
  const clean = (options ?? []).map((option) => (typeof option === 'string' ? option.trim() : option));
  const isChoice = CHOICE_TYPES.includes(type);
  const valid =
    options !== null &&
    clean.every((option) => typeof option === 'string' && option !== '' && option.length <= MAX_OPTION) &&
    clean.length <= MAX_OPTIONS &&
    new Set(clean).size === clean.length;
  if (!valid) reasons[at('options')] = `options must be a list of at most ${MAX_OPTIONS} different texts`;
  else if (isChoice && clean.length === 0) reasons[at('options')] = `a ${String(type)} field needs options`;
  else if (!isChoice && clean.length > 0 && ATTENDEE_FIELD_TYPES.includes(type))
    reasons[at('options')] = `a ${type} field takes no options`;
  return clean as string[];
}

function readField(item: unknown, at: (key: string) => string, slugs: Set<string>, reasons: Reasons): AttendeeField | null {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    reasons[at('').slice(0, -2)] = 'each field must be an object';
    return null;
  }
  const input = item as Record<string, unknown>;
  const type = readType(input, at, reasons);
  const label = typeof input.label === 'string' ? input.label.trim() : '';
  if (label === '' || label.length > MAX_LABEL) reasons[at('label')] = `label must be text of 1 to ${MAX_LABEL} characters`;
  const slug = readSlug(input, label, slugs, at, reasons);
  const required = readBoolean(input.required);
  if (required === null) reasons[at('required')] = 'required must be a boolean';
  const description = input.description ?? '';
  if (typeof description !== 'string' || description.length > MAX_DESCRIPTION)
    reasons[at('description')] = `description must be text of at most ${MAX_DESCRIPTION} characters`;
  const options = readOptions(input, type, at, reasons);
  return {
    type,
    label,
    slug,
    required: required ?? false,
    options,
    description: typeof description === 'string' ? description.trim() : '',
  };
}

/**
 * The fields of a ticket write, in order; [] (or "") clears them. 400 `rest_invalid_param` naming
 * each bad place (`attendee_information_fields[2][options]`).
 */
export function parseAttendeeFields(raw: unknown, name = 'attendee_information_fields'): AttendeeField[] {
  if (raw === null || raw === '') return [];
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw invalidParams({ [name]: `${name} must be a list of fields (JSON)` });
    }
  }
  const list = asList(value);
  if (!list) throw invalidParams({ [name]: `${name} must be a list of fields` });
  if (list.length > MAX_FIELDS) throw invalidParams({ [name]: `${name} may hold at most ${MAX_FIELDS} fields` });
  const reasons: Reasons = {};
  const slugs = new Set<string>();
  const fields = list.flatMap((item, index) => readField(item, (key) => `${name}[${index}][${key}]`, slugs, reasons) ?? []);
  if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
  return fields;
}

/** The fields stored on a ticket (JSON column); [] when it asks nothing. */
export function storedAttendeeFields(json: string | null | undefined): AttendeeField[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as AttendeeField[]) : [];
  } catch {
    return [];
  }
}

/** The column value for `fields`: null when there are none (so lists filter on IS NULL). */
export function attendeeFieldsColumn(fields: AttendeeField[]): string | null {
  return fields.length === 0 ? null : JSON.stringify(fields);
}
