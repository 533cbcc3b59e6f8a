import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import sanitizeHtml from 'sanitize-html';
import { invalidParam } from '../errors/api-error';

/**
 * The one place where text a client sends is cleaned before it is stored. Three kinds of field:
 *
 * - rich text (descriptions, excerpts): the formatting of RICH_TEXT_OPTIONS, nothing that runs;
 * - titles (event, venue and organizer names; term descriptions): the small inline set WordPress
 *   lets through its title filter (`$allowedtags` of kses: links, emphasis, code, quotes);
 * - plain text (everything else: ticket, term and attendee names, cost, address fields, phone...):
 *   no markup at all.
 *
 * The result is HTML-safe as it is stored: a `<` that is not part of an allowed tag comes back as
 * `&lt;`, never as a character a browser could take for the start of a tag, and entities a client
 * sent are never decoded into markup (`&lt;img&gt;` stays text). sanitize-html parses the input
 * once into a tree, so broken or nested tags (`<<img>img onerror=...>`) cannot rejoin into a tag
 * after removal, as they can with repeated regex stripping. Only `&amp;`, `&quot;` and `&#39;` are
 * turned back into their characters, which cannot start markup, so that "Rock & Roll" stays as typed.
 */

/** Largest rich text field, in bytes (a TEXT column), refused before sanitising starts. */
export const RICH_TEXT_MAX_BYTES = 65_535;
/**
 * Most HTML tags one rich text field may hold, refused before sanitising starts: sanitize-html
 * costs about 4 µs a tag, so 64 KB of tags took 60 ms of CPU, a cheap way to saturate the service.
 */
export const RICH_TEXT_MAX_TAGS = 5_000;

const RICH_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'span',
    'div',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'hr',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['class'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
};

/** WordPress's `$allowedtags`, what its title filter (kses) keeps for users without unfiltered HTML. */
const TITLE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'abbr', 'acronym', 'b', 'blockquote', 'cite', 'code', 'del', 'em', 'i', 'q', 's', 'strike', 'strong'],
  allowedAttributes: { a: ['href', 'title'], abbr: ['title'], acronym: ['title'], blockquote: ['cite'], del: ['datetime'], q: ['cite'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'cite'],
  allowProtocolRelative: false,
};

const PLAIN_TEXT_OPTIONS: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

/** Characters sanitize-html escapes that cannot open markup: given back as typed. */
function unescapeHarmless(html: string): string {
  return html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

const TAG_START = /<[a-zA-Z!/?]/g;

/** How many tags `html` opens or closes, counted without parsing it. */
export function countTags(html: string): number {
  return html.match(TAG_START)?.length ?? 0;
}

/** Why a rich text value is refused before sanitising, or undefined when it is within the limits. */
export function richTextLimitReason(value: string, field: string): string | undefined {
  if (value.length > RICH_TEXT_MAX_BYTES || Buffer.byteLength(value) > RICH_TEXT_MAX_BYTES)
    return `${field} must be at most ${RICH_TEXT_MAX_BYTES} bytes long`;
  if (countTags(value) > RICH_TEXT_MAX_TAGS) return `${field} may hold at most ${RICH_TEXT_MAX_TAGS} HTML tags`;
  return undefined;
}

/** Rich text as stored: allowed formatting only. 400 naming `field` beyond the limits, checked first. */
export function sanitizeRichText(html: string, field = 'description'): string {
  const reason = richTextLimitReason(html, field);
  if (reason) throw invalidParam(field, reason);
  return sanitizeHtml(html, RICH_TEXT_OPTIONS).trim();
}

/** A title as stored: the inline set of TITLE_OPTIONS, everything else removed. */
export function sanitizeTitle(text: string): string {
  return unescapeHarmless(sanitizeHtml(text, TITLE_OPTIONS)).trim();
}

/** A plain text field as stored: no markup, `<` and `>` escaped. */
export function sanitizePlainText(text: string): string {
  return unescapeHarmless(sanitizeHtml(text, PLAIN_TEXT_OPTIONS)).trim();
}

/**
 * Sanitises a string field on input; lists of strings (an event's `cost`) item by item. A value
 * longer than `maxLength` is left for the field's validators to refuse, so that an oversize value
 * costs no parsing; what sanitising returns is validated against the same length.
 */
function sanitizedOnInput(sanitize: (text: string) => string, withinLimits: (text: string) => boolean) {
  const clean = (value: unknown): unknown => (typeof value === 'string' && withinLimits(value) ? sanitize(value) : value);
  return Transform(({ value }: { value: unknown }) => (Array.isArray(value) && value.length <= 100 ? value.map(clean) : clean(value)));
}

/** A field of plain text, see sanitizePlainText. */
export const PlainText = (maxLength = 255) => sanitizedOnInput(sanitizePlainText, (text) => text.length <= maxLength);

/** A title, see sanitizeTitle. */
export const TitleText = (maxLength = 255) => sanitizedOnInput(sanitizeTitle, (text) => text.length <= maxLength);

/**
 * A field with the markup of a title and the size of a rich text field (term descriptions): pair
 * it with RichTextLimits, which refuses what is not sanitised here.
 */
export const InlineHtmlText = (field: string) => sanitizedOnInput(sanitizeTitle, (text) => richTextLimitReason(text, field) === undefined);

/**
 * The size limits of a rich text field, checked by validation before the service sanitises it:
 * at most RICH_TEXT_MAX_BYTES bytes and RICH_TEXT_MAX_TAGS tags (400 naming the field). Bytes are
 * counted with Buffer.byteLength: class-validator's IsByteLength splits the URI-encoded text into
 * an array of characters, about 100 ms for a 1 MB value.
 */
export const RichTextLimits = (field: string) =>
  ValidateBy({
    name: 'richTextLimits',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || richTextLimitReason(value, field) === undefined,
      defaultMessage: (arguments_) => richTextLimitReason(String(arguments_?.value ?? ''), field) ?? `${field} is too large`,
    },
  });
