import sanitizeHtml from 'sanitize-html';

/**
 * Formatting that descriptions may keep. Scripts, styles, event handlers and `javascript:` URLs
 * are removed on write, so front ends can render the HTML the API returns.
 */
const RICH_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'span', 'div',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'hr',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a', 'img', 'figure', 'figcaption',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
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

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, RICH_TEXT_OPTIONS).trim();
}

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
