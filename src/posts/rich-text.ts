import sanitizeHtml from 'sanitize-html';

export { sanitizeRichText } from '../common/security/text-sanitizing';

const BLOCK_START = /^\s*<(p|div|h[1-6]|ul|ol|dl|table|blockquote|pre|figure|hr)[\s>/]/i;

/**
 * Text is returned as HTML paragraphs, as the original renders it: plain text becomes `<p>`
 * blocks (blank lines separate them, single newlines become `<br />`); HTML that already starts
 * with a block element is returned as it is.
 */
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

/** The text of some HTML without any markup, for JSON-LD and search engines. */
export function plainText(html: string | null): string {
  if (!html) return '';
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
}
