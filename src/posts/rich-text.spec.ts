import { plainText, renderParagraphs, sanitizeRichText } from './rich-text';

describe('rich text', () => {
  it('removes scripts, event handlers and javascript: links', () => {
    expect(sanitizeRichText('<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:alert(1)">a</a>')).toBe(
      '<p>Hi</p><a>a</a>',
    );
  });

  it('keeps ordinary formatting', () => {
    expect(sanitizeRichText('<p><strong>Bold</strong> <a href="https://example.org">link</a></p>')).toBe(
      '<p><strong>Bold</strong> <a href="https://example.org">link</a></p>',
    );
  });

  it('wraps plain text in paragraphs and keeps block HTML as it is', () => {
    expect(renderParagraphs('Short excerpt')).toBe('<p>Short excerpt</p>');
    expect(renderParagraphs('One\nline\n\nTwo')).toBe('<p>One<br />\nline</p>\n<p>Two</p>');
    expect(renderParagraphs('<p>Event body.</p>')).toBe('<p>Event body.</p>');
    expect(renderParagraphs(null)).toBe('');
  });

  it('extracts plain text', () => {
    expect(plainText('<p>Short   <em>excerpt</em></p>')).toBe('Short excerpt');
  });
});
