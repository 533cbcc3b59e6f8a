import { countTags, richTextLimitReason, RICH_TEXT_MAX_TAGS, sanitizePlainText, sanitizeRichText, sanitizeTitle } from './text-sanitizing';

describe('sanitizePlainText', () => {
  it.each([
    ['<script>alert(1)</script>Gig', 'Gig'],
    ['VIP <img src=x onerror=alert(1)>', 'VIP'],
    ['<<img src=x>img src=x onerror=alert(2)>', '&lt;img src=x onerror=alert(2)&gt;'],
    ['VIP &lt;img src=x onerror=alert(1)&gt;', 'VIP &lt;img src=x onerror=alert(1)&gt;'],
    ['<scr<script>ipt>alert(7)</script>', 'ipt&gt;alert(7)'],
    ['Rock & Roll "live" it\'s', 'Rock & Roll "live" it\'s'],
    ['&amp;lt;b&amp;gt;', '&lt;b&gt;'],
  ])('%j becomes %j', (input, output) => {
    expect(sanitizePlainText(input)).toBe(output);
  });

  it('is stable: sanitising its own output changes nothing', () => {
    for (const input of ['<<img src=x>img src=x onerror=alert(2)>', 'VIP &lt;img&gt;', 'a < b', '&amp;lt;b&amp;gt;']) {
      const once = sanitizePlainText(input);
      expect(sanitizePlainText(once)).toBe(once);
    }
  });
});

describe('sanitizeTitle', () => {
  it('keeps the inline set without handlers or script URLs, and nothing else', () => {
    expect(
      sanitizeTitle('<strong>Jazz</strong> <a href="javascript:alert(1)" onclick="x">go</a><img src=x onerror=y><script>z</script>'),
    ).toBe('<strong>Jazz</strong> <a>go</a>');
    expect(sanitizeTitle('<q cite="https://example.org">said</q> <div>block</div>')).toBe('<q cite="https://example.org">said</q> block');
  });
});

describe('rich text limits', () => {
  it('counts tags without parsing', () => {
    expect(countTags('<p>a</p><br/><!-- c --> a < b')).toBe(4);
  });

  it('names the field when a value has too many tags or bytes, before sanitising', () => {
    expect(richTextLimitReason('<b></b>'.repeat(RICH_TEXT_MAX_TAGS / 2), 'description')).toBeUndefined();
    expect(richTextLimitReason('<b></b>'.repeat(RICH_TEXT_MAX_TAGS / 2 + 1), 'description')).toBe(
      `description may hold at most ${RICH_TEXT_MAX_TAGS} HTML tags`,
    );
    expect(richTextLimitReason('é'.repeat(40_000), 'excerpt')).toBe('excerpt must be at most 65535 bytes long');
    expect(() => sanitizeRichText('<i>x</i>'.repeat(RICH_TEXT_MAX_TAGS), 'venue[description]')).toThrow(
      expect.objectContaining({ code: 'rest_invalid_param', extraData: { params: { 'venue[description]': expect.any(String) } } }),
    );
  });
});
