import { invalidParam } from '../common/errors/api-error';
import { toList } from '../common/http/transforms';
import { sanitizePlainText } from '../common/security/text-sanitizing';

/** One linked venue or organizer as sent: an existing id, or the fields of one to find or create. */
export type LinkedPostInput = { id: number } | { fields: Record<string, unknown> };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readOne(value: unknown, field: string): LinkedPostInput | null {
  if (value === 0 || value === '0' || value === '' || value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return { id: value };
  if (typeof value === 'string' && /^\d{1,10}$/.test(value.trim())) return { id: Number(value.trim()) };
  if (isPlainObject(value)) {
    if ('id' in value) {
      const id = readOne(value.id, field);
      if (id && 'id' in id) return id;
      throw invalidParam(field, `${field} id must be a positive integer`);
    }
    return { fields: value };
  }
  throw invalidParam(field, `${field} must be an id, an object of ${field} fields, or a list of them`);
}

/**
 * Reads `venue` or `organizer` as the original accepts it: an id, `{id}`, an object of fields, a
 * list of those, or a comma-separated list of ids; `""`, `0`, `null` and `[]` mean none.
 * Returns undefined when the field was not sent (links stay as they are).
 */
export function readLinkedPosts(raw: unknown, field: 'venue' | 'organizer'): LinkedPostInput[] | undefined {
  if (raw === undefined) return undefined;
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' && raw.includes(',') ? (toList(raw) as unknown[]) : [raw];
  if (items.length > 50) throw invalidParam(field, `${field} may name at most 50 items`);
  const result: LinkedPostInput[] = [];
  for (const item of items) {
    const read = readOne(item, field);
    if (read && !('id' in read && result.some((existing) => 'id' in existing && existing.id === read.id))) result.push(read);
  }
  return result;
}

/**
 * Reads `categories` or `tags`: ids or names (markup removed), as an array or a comma-separated
 * string; `""` and `[]` clear. Returns undefined when the field was not sent.
 */
export function readTermValues(raw: unknown, field: 'categories' | 'tags'): Array<number | string> | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return [];
  const list = toList(raw);
  if (!Array.isArray(list)) throw invalidParam(field, `${field} must be a list of ids or names`);
  if (list.length > 100) throw invalidParam(field, `${field} may name at most 100 terms`);
  const values: Array<number | string> = [];
  for (const item of list) {
    if (typeof item === 'number' && Number.isInteger(item) && item > 0) values.push(item);
    else if (typeof item === 'string' && /^\d{1,10}$/.test(item.trim())) values.push(Number(item.trim()));
    else if (typeof item === 'string' && item.trim() !== '' && item.trim().length <= 200) {
      // A name creates the term when none has it: plain text, as POST /categories stores names.
      const name = sanitizePlainText(item);
      if (name !== '') values.push(name);
    } else throw invalidParam(field, `${field} must be a list of ids or names`);
  }
  return [...new Set(values)];
}
