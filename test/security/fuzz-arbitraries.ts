import fc from 'fast-check';
import * as qs from 'qs';

/**
 * Hostile input for the fuzz spec: values of the wrong type, huge and odd strings, SQL and HTML
 * payloads, extreme numbers, impossible dates, deep nesting, prototype keys; bodies as JSON, raw
 * (broken, duplicated keys), urlencoded and multipart; query strings with repeated, bracketed and
 * malformed keys.
 */

const SQL = [
  "' OR '1'='1",
  '1; DROP TABLE events; --',
  '" OR 1=1 --',
  "%' UNION SELECT login, password_hash FROM users --",
  "'); DELETE FROM attendees; --",
  '\\',
  "\\'",
  '%',
  '_',
  '!',
  '`',
  '$1',
  ':id',
  '?',
];
const HTML = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '"><svg onload=alert(1)>',
  '&lt;b&gt;',
  ']]><!--',
  '{{constructor.constructor("alert(1)")()}}',
  '${7*7}',
];
const UNICODE = [
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\u202E',
  '\uFEFF',
  '😀',
  'e\u0301',
  '\u200D',
  'Ω≈ç√',
  '𝕏',
  'ＡＢＣ１２３',
  '١٢٣',
  '\r\n',
  '\t',
  ' ',
  '',
];
const DATES = [
  '2027-02-30',
  '2027-13-01',
  '0000-00-00 00:00:00',
  '9999-12-31 23:59:59',
  '10000-01-01',
  '2027-01-01T25:61:61Z',
  '2027-01-01 10:00:00+99:00',
  '2027-03-28 02:30:00',
  '1970-01-01',
  '2038-01-19 03:14:08',
  '-1',
  '1e12',
  '99999999999999999999',
  'tomorrow',
  '2027-1-1',
  '2027/01/01',
  '24:00:00',
  '23:59:60',
];
const NUMBER_STRINGS = [
  '-1',
  '0',
  '-0',
  '1.5',
  '1e400',
  '-1e400',
  '0x10',
  '1_000',
  ' 1 ',
  '１２',
  '2147483648',
  '9007199254740993',
  'NaN',
  'Infinity',
  '+5',
  '.5',
  '5.',
  '1,5',
];
const NUMBERS = [-1, 0, -0, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53 + 1, 1e308, -1e308, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER];
const HUGE = ['x'.repeat(256), 'x'.repeat(70_000), 'é'.repeat(40_000), '9'.repeat(400), '😀'.repeat(20_000)];
/** encodeURIComponent throws on unpaired surrogates: strings a client cannot percent-encode are left out of URLs. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** Keys that must never reach an object's prototype. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** Any string a hostile client might send. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 24, arbitrary: fc.constantFrom(...SQL, ...HTML, ...UNICODE, ...DATES, ...NUMBER_STRINGS) },
  { weight: 16, arbitrary: fc.string({ maxLength: 40 }) },
  // Any code points, lone surrogates included (fc.string's binary unit costs seconds to set up).
  {
    weight: 16,
    arbitrary: fc.array(fc.nat({ max: 0x10ffff }), { maxLength: 20 }).map((codePoints) => String.fromCodePoint(...codePoints)),
  },
  // Rare, as they cost the most to send and to parse; every route still gets a few.
  { weight: 2, arbitrary: fc.constantFrom(...HUGE) },
  { weight: 4, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
);

/** Nested arrays or objects many levels deep. */
export const deepNesting: fc.Arbitrary<unknown> = fc.tuple(fc.integer({ min: 6, max: 200 }), fc.boolean()).map(([depth, asArray]) => {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = asArray ? [value] : { a: value };
  return value;
});

/** A JSON value of the wrong type or shape for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { weight: 6, arbitrary: hostileString },
    { weight: 2, arbitrary: fc.constantFrom<unknown>(...NUMBERS, true, false, null, [], {}, [null], [''], { '': '' }) },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.oneof(hostileString, fc.constantFrom(...PROTOTYPE_KEYS)), tie('value'), { maxKeys: 3 }) },
    { weight: 1, arbitrary: deepNesting },
  ),
})).value;

/** Field names worth trying anywhere: privileged and computed fields, prototype keys, junk. */
export const EXTRA_KEYS = [
  'id',
  'author',
  'status',
  'role',
  'sold',
  'pending',
  'order_status',
  'checked_in',
  'security_code',
  'email',
  'user_id',
  'post_id',
  'ticket_id',
  'force',
  'provider',
  ...PROTOTYPE_KEYS,
];

/** The leaf paths of a JSON object (`purchaser.email`, `tickets.0.quantity`), depth-first, at most `depth` deep. */
export function leafPaths(value: unknown, prefix: string[] = [], depth = 3): string[][] {
  if (depth === 0 || typeof value !== 'object' || value === null) return prefix.length ? [prefix] : [];
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  if (entries.length === 0) return prefix.length ? [prefix] : [];
  return [...(prefix.length ? [prefix] : []), ...entries.flatMap(([key, item]) => leafPaths(item, [...prefix, key], depth - 1))];
}

function setPath(target: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container: Record<string, unknown> =
    typeof target === 'object' && target !== null ? ((Array.isArray(target) ? [...target] : { ...target }) as Record<string, unknown>) : {};
  container[head] = setPath(container[head], rest, value);
  return container;
}

function deletePath(target: unknown, path: string[]): unknown {
  if (typeof target !== 'object' || target === null || path.length === 0) return target;
  const [head, ...rest] = path;
  const container = (Array.isArray(target) ? [...target] : { ...target }) as Record<string, unknown>;
  if (rest.length === 0) delete container[head];
  else container[head] = deletePath(container[head], rest);
  return container;
}

/** How to change a valid body: paths to drop and paths to set to hostile values. */
export interface BodyPlan {
  drop: string[][];
  set: Array<[string[], unknown]>;
}

export function applyPlan(base: unknown, plan: BodyPlan): unknown {
  let body = base;
  for (const path of plan.drop) body = deletePath(body, path);
  for (const [path, value] of plan.set) body = setPath(body, path, value);
  return body;
}

/** Plans against a template of the route's valid body; `fields` adds the names the route documents. */
export function bodyPlan(template: unknown, fields: string[]): fc.Arbitrary<BodyPlan> {
  const paths = leafPaths(template);
  const known = [...paths, ...[...fields, ...EXTRA_KEYS].map((field) => [field])];
  return fc.record({
    drop: fc.subarray(paths, { maxLength: Math.min(2, paths.length) }),
    set: fc.array(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: hostileString.map((key) => [key]) }),
        hostileValue,
      ),
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
  });
}

/** How a body goes on the wire. */
export type BodyEncoding =
  | { kind: 'json' }
  | { kind: 'json-duplicate-key'; key: string; value: unknown }
  | { kind: 'json-broken'; cut: number }
  | { kind: 'json-scalar'; value: unknown }
  | { kind: 'form'; duplicate: [string, string] | null }
  | { kind: 'multipart' }
  | { kind: 'text'; text: string }
  | { kind: 'none' };

export function bodyEncoding(fields: string[]): fc.Arbitrary<BodyEncoding> {
  const key = fc.constantFrom(...fields, ...EXTRA_KEYS);
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant({ kind: 'json' as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('json-duplicate-key' as const), key, value: hostileValue }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('json-broken' as const), cut: fc.integer({ min: 1, max: 200 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('json-scalar' as const), value: hostileValue }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('form' as const),
        duplicate: fc.option(
          fc.tuple(
            key,
            hostileString.filter((text) => text.length < 1000 && !LONE_SURROGATE.test(text)),
          ),
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'multipart' as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('text' as const), text: hostileString }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
}

/** The raw body and its content type; undefined sends none. */
export function encodeBody(
  body: unknown,
  encoding: BodyEncoding,
): { contentType: string; payload: string } | { multipart: Array<[string, string]> } | undefined {
  switch (encoding.kind) {
    case 'none':
      return undefined;
    case 'text':
      return { contentType: 'text/plain', payload: encoding.text };
    case 'json-scalar':
      return { contentType: 'application/json', payload: JSON.stringify(encoding.value) ?? 'null' };
    case 'json-broken':
      return { contentType: 'application/json', payload: (JSON.stringify(body) ?? '{').slice(0, encoding.cut) };
    case 'json-duplicate-key': {
      const json = JSON.stringify(body) ?? 'null';
      const extra = `${JSON.stringify(encoding.key)}:${JSON.stringify(encoding.value) ?? 'null'}`;
      // The key appears twice in one object; parsers keep one of them.
      return { contentType: 'application/json', payload: json.startsWith('{') && json !== '{}' ? `{${extra},${json.slice(1)}` : json };
    }
    case 'form': {
      const form =
        typeof body === 'object' && body !== null ? qs.stringify(body, { allowDots: false }) : `value=${encodeURIComponent(String(body))}`;
      const duplicate = encoding.duplicate
        ? `&${encodeURIComponent(encoding.duplicate[0])}=${encodeURIComponent(encoding.duplicate[1])}`
        : '';
      return { contentType: 'application/x-www-form-urlencoded', payload: form + duplicate };
    }
    case 'multipart': {
      const form = typeof body === 'object' && body !== null ? qs.stringify(body, { encode: false }) : '';
      const fields =
        form === ''
          ? []
          : form.split('&').map((pair): [string, string] => {
              const separator = pair.indexOf('=');
              return separator < 0 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)];
            });
      return { multipart: fields.filter(([name]) => name !== '').slice(0, 50) };
    }
    default:
      return { contentType: 'application/json', payload: JSON.stringify(body) ?? 'null' };
  }
}

/** Raw pieces of query strings that decoders trip over. */
const RAW_QUERY_JUNK = [
  '%',
  '%E0%A4%A',
  '%00',
  '&&&',
  '=',
  '==x',
  'a[b][c][d][e][f][g][h]=1',
  'a[]=1&a[0]=2&a[x]=3',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'per_page[]=1',
  'page=1&page=2',
  '%F0%9F%98',
  '+++',
];

/** A query string (without `?`) of the route's parameters and others, values hostile, keys repeated or bracketed. */
export function queryString(parameters: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...parameters, ...EXTRA_KEYS) },
    { weight: 1, arbitrary: hostileString.filter((text) => text.length < 200) },
  );
  const value = hostileValue.filter((item) => JSON.stringify(item)?.length < 5000);
  return fc
    .tuple(
      fc.dictionary(key, value, { maxKeys: 5 }),
      fc.constantFrom<'indices' | 'brackets' | 'repeat' | 'comma'>('indices', 'brackets', 'repeat', 'comma'),
      fc.subarray(RAW_QUERY_JUNK, { maxLength: 2 }),
    )
    .map(([pairs, arrayFormat, junk]) => [qs.stringify(pairs, { arrayFormat }), ...junk].filter((part) => part !== '').join('&'));
}

/** A path segment that is not a valid id or slug of anything. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '2147483648',
    '99999999999',
    '1e3',
    '0x1',
    '..',
    '%2e%2e',
    '%00',
    'null',
    'undefined',
    '%F0%9F%98%80',
    'a'.repeat(300),
  ),
  hostileString.filter((text) => text !== '' && text.length < 300 && !LONE_SURROGATE.test(text)).map((text) => encodeURIComponent(text)),
);
