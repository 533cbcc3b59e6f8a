import sanitizeHtml from 'sanitize-html';

/** Elements after which a reader expects a new paragraph. */
const BLOCK_END = /<\/(p|div|h[1-6]|blockquote|pre|ul|ol|dl|table|figure)\s*>/gi;
const HAS_MARKUP = /<[a-z!/][^>]*>/i;

/** sanitize-html escapes these in the text it returns; a calendar shows the characters themselves. */
function decodeEscapes(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * A stored title or plain text field (HTML-safe: inline markup at most, `<` escaped) as the text
 * a calendar shows: no markup, entities as their characters.
 */
export function inlineHtmlToText(stored: string | null): string {
  if (!stored) return '';
  return decodeEscapes(sanitizeHtml(stored, { allowedTags: [], allowedAttributes: {} })).trim();
}

/**
 * Stored rich text (sanitized HTML, or plain text with blank lines between paragraphs) as the
 * plain text an iCalendar DESCRIPTION holds: paragraphs separated by a blank line, `<br>` and list
 * items on lines of their own, no markup, no entities.
 */
export function richTextToPlainText(stored: string | null): string {
  if (!stored) return '';
  let text = stored;
  if (HAS_MARKUP.test(stored)) {
    // In HTML, source line breaks are only spaces; the markup says where lines end.
    text = stored
      .replace(/\s+/g, ' ')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<li[\s>]/gi, '\n- $&')
      .replace(/<\/(dt|dd|tr)\s*>/gi, '$&\n')
      .replace(BLOCK_END, '$&\n\n');
    text = decodeEscapes(sanitizeHtml(text, { allowedTags: [], allowedAttributes: {} }));
  }
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
