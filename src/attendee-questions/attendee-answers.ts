import type { AttendeeField } from './attendee-fields';

/**
 * Checks one attendee's answers against a ticket's fields, pure. Answers are an object by field
 * slug; unknown keys are dropped. An empty answer (absent, null, "", [] or blanks) is no answer.
 * What is kept is the normalised value: trimmed text, numbers as numbers, checkboxes as lists.
 */

export interface AnswerProblem {
  slug: string;
  reason: string;
}

export interface CheckedAnswers {
  values: Record<string, string | number | string[]>;
  problems: AnswerProblem[];
}

const MAX_TEXT = 1000;
const MAX_TEXTAREA = 10_000;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const TELEPHONE = /^\+?[0-9 ()./-]{3,32}$/;
const NUMBER = /^-?\d{1,15}(\.\d{1,10})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function calendarDate(text: string): Date | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 1000) return null;
  return date;
}

type Checked = { value: string | number | string[] } | { reason: string };
type Checker = (field: AttendeeField, raw: unknown, text: string | null, today: string) => Checked;

function textOf(max: number): Checker {
  return (_field, _raw, text) => {
    if (text === null) return { reason: 'must be text' };
    return text.length > max ? { reason: `must be at most ${max} characters` } : { value: text };
  };
}

function checkUrl(text: string | null): Checked {
  const refused = { reason: 'must be an http or https URL' };
  if (text === null || text.length > 2048) return refused;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { value: text } : refused;
  } catch {
    return refused;
  }
}

function checkDate(field: AttendeeField, text: string | null, today: string): Checked {
  if (text === null || !calendarDate(text)) return { reason: 'must be a date (YYYY-MM-DD)' };
  if (field.type === 'birth_date' && text > today) return { reason: 'must not be in the future' };
  return { value: text };
}

function checkChoices(field: AttendeeField, raw: unknown): Checked {
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  const chosen = list.map((item) => (typeof item === 'string' ? item.trim() : item));
  if (chosen.some((item) => typeof item !== 'string' || !field.options.includes(item)))
    return { reason: `must be a list of ${field.options.join(', ')}` };
  // In the order of the options, each once.
  return { value: field.options.filter((option) => chosen.includes(option)) };
}

const CHECKERS: Record<AttendeeField['type'], Checker> = {
  text: textOf(MAX_TEXT),
  textarea: textOf(MAX_TEXTAREA),
  email: (_field, _raw, text) =>
    text !== null && text.length <= 254 && EMAIL.test(text) ? { value: text } : { reason: 'must be an email address' },
  telephone: (_field, _raw, text) =>
    text !== null && TELEPHONE.test(text) && (text.match(/\d/g) ?? []).length >= 3
      ? { value: text }
      : { reason: 'must be a telephone number' },
  url: (_field, _raw, text) => checkUrl(text),
  number: (_field, raw, text) => {
    if (typeof raw === 'number') return Number.isFinite(raw) ? { value: raw } : { reason: 'must be a number' };
    return text !== null && NUMBER.test(text) ? { value: Number(text) } : { reason: 'must be a number' };
  },
  date: (field, _raw, text, today) => checkDate(field, text, today),
  birth_date: (field, _raw, text, today) => checkDate(field, text, today),
  select: (field, _raw, text) =>
    text !== null && field.options.includes(text) ? { value: text } : { reason: `must be one of ${field.options.join(', ')}` },
  radio: (field, _raw, text) =>
    text !== null && field.options.includes(text) ? { value: text } : { reason: `must be one of ${field.options.join(', ')}` },
  checkbox: (field, raw) => checkChoices(field, raw),
};

function checkValue(field: AttendeeField, raw: unknown, today: string): Checked {
  const checker = CHECKERS[field.type] as Checker | undefined;
  if (!checker) return { reason: 'has an unknown type' };
  return checker(field, raw, typeof raw === 'string' ? raw.trim() : null, today);
}

/** `today` is the current date (YYYY-MM-DD) for birth dates. */
export function checkAnswers(fields: AttendeeField[], answers: unknown, today: string): CheckedAnswers {
  const values: CheckedAnswers['values'] = {};
  const problems: AnswerProblem[] = [];
  if (answers !== undefined && answers !== null && (typeof answers !== 'object' || Array.isArray(answers))) {
    return { values, problems: [{ slug: '', reason: 'answers must be an object of answers by field slug' }] };
  }
  const given = (answers ?? {}) as Record<string, unknown>;
  for (const field of fields) {
    const raw = Object.prototype.hasOwnProperty.call(given, field.slug) ? given[field.slug] : undefined;
    if (isEmpty(raw)) {
      if (field.required) problems.push({ slug: field.slug, reason: `${field.label} is required` });
      continue;
    }
    const checked = checkValue(field, raw, today);
    if ('reason' in checked) problems.push({ slug: field.slug, reason: `${field.label} ${checked.reason}` });
    else values[field.slug] = checked.value;
  }
  return { values, problems };
}
