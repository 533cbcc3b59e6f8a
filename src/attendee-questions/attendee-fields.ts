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
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.every(([key]) => /^\d+$/.test(key))) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => item);
  }
  return null;
}

/**
 * The fields of a ticket write, in order; [] (or "") clears them. 400 `rest_invalid_param` naming
 * each bad place (`attendee_information_fields[2][options]`).
 */
export function parseAttendeeFields(raw: unknown, name = 'attendee_information_fields'): AttendeeField[] {
  if (raw === null || raw === '') return [];
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalidParams({ [name]: `${name} must be a list of fields (JSON)` });
    }
  }
  const list = asList(value);
  if (!list) throw invalidParams({ [name]: `${name} must be a list of fields` });
  if (list.length > MAX_FIELDS) throw invalidParams({ [name]: `${name} may hold at most ${MAX_FIELDS} fields` });
  const reasons: Record<string, string> = {};
  const fields: AttendeeField[] = [];
  const slugs = new Set<string>();
  list.forEach((item, index) => {
    const at = (key: string) => `${name}[${index}][${key}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      reasons[`${name}[${index}]`] = 'each field must be an object';
      return;
    }
    const input = item as Record<string, unknown>;
    const type = input.type;
    if (typeof type !== 'string' || !(ATTENDEE_FIELD_TYPES as readonly string[]).includes(type)) {
      reasons[at('type')] = `type must be one of ${ATTENDEE_FIELD_TYPES.join(', ')}`;
    }
    const label = typeof input.label === 'string' ? input.label.trim() : '';
    if (label === '' || label.length > MAX_LABEL) reasons[at('label')] = `label must be text of 1 to ${MAX_LABEL} characters`;
    const slug = input.slug === undefined || input.slug === null || input.slug === '' ? slugFromLabel(label) : input.slug;
    const derived = input.slug === undefined || input.slug === null || input.slug === '';
    if (derived && label === '') {
      // The label's own error says it all.
    } else if (typeof slug !== 'string' || !SLUG.test(slug)) {
      reasons[at('slug')] = 'slug must be 1 to 64 lower-case letters, digits, "-" or "_"';
    } else if (slugs.has(slug)) {
      reasons[at('slug')] = `slug ${slug} is used by another field of this ticket`;
    }
    const required = readBoolean(input.required);
    if (required === null) reasons[at('required')] = 'required must be a boolean';
    const description = input.description === undefined || input.description === null ? '' : input.description;
    if (typeof description !== 'string' || description.length > MAX_DESCRIPTION)
      reasons[at('description')] = `description must be text of at most ${MAX_DESCRIPTION} characters`;
    const options = input.options === undefined || input.options === null || input.options === '' ? [] : asList(input.options);
    const isChoice = CHOICE_TYPES.includes(type as AttendeeFieldType);
    const cleanOptions = (options ?? []).map((option) => (typeof option === 'string' ? option.trim() : option));
    if (
      !options ||
      cleanOptions.some((option) => typeof option !== 'string' || option === '' || option.length > MAX_OPTION) ||
      cleanOptions.length > MAX_OPTIONS ||
      new Set(cleanOptions).size !== cleanOptions.length
    ) {
      reasons[at('options')] = `options must be a list of at most ${MAX_OPTIONS} different texts`;
    } else if (isChoice && cleanOptions.length === 0) {
      reasons[at('options')] = `a ${String(type)} field needs options`;
    } else if (!isChoice && cleanOptions.length > 0) {
      reasons[at('options')] = `a ${String(type)} field takes no options`;
    }
    if (typeof slug === 'string') slugs.add(slug);
    fields.push({
      type: type as AttendeeFieldType,
      label,
      slug: slug as string,
      required: required ?? false,
      options: cleanOptions as string[],
      description: typeof description === 'string' ? description.trim() : '',
    });
  });
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
