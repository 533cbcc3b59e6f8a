import { ByteAssembler } from '../../common/http/byte-assembler';
import { DocumentTemplate, TemplateSyntax, UnreadableTemplate } from './document-template';

const MARKER = 'mabc123';
const ORIGIN = 'https://xabc123.invalid';
const SITE = 'xabc123.invalid';
const syntax = new TemplateSyntax({
  origin: ORIGIN,
  site: SITE,
  countMarker: MARKER,
  offers: `,"offers":"${MARKER}:offers"`,
});

/** What the string replacements the templates replace would answer. */
function replaced(text: string, origin: string, site: string, counts: Map<string, number>, offers: string): string {
  return text
    .split(ORIGIN)
    .join(origin)
    .split(SITE)
    .join(site)
    .replace(new RegExp(`"${MARKER}:(category|tag):(\\d+):(\\d+)"`, 'g'), (_match, kind: string, id: string, built: string) =>
      String(counts.get(`${kind}:${id}`) ?? built),
    )
    .replace(`,"offers":"${MARKER}:offers"`, offers);
}

describe('DocumentTemplate', () => {
  const text = JSON.stringify({
    title: 'Café — Zürich 🎉',
    url: `${ORIGIN}/event/cafe`,
    global_id: `${SITE}?id=3`,
    categories: [{ id: 3, count: `${MARKER}:category:3:12` }],
    tags: [{ id: 5, count: `${MARKER}:tag:5:7` }],
    json_ld: { name: 'Café', offers: `${MARKER}:offers` },
  });

  it('fills every hole as the string replacements did, byte for byte, in non-ASCII text', () => {
    const template = DocumentTemplate.compile(text, syntax);
    const counts = new Map([['category:3', 40]]);
    const values = {
      origin: Buffer.from('http://example.org:8080'),
      site: Buffer.from('example.org'),
      count: (term: string) => counts.get(term),
      offers: Buffer.from(',"offers":{"price":"5"}'),
    };
    const rendered = new ByteAssembler().add(template.rendered(values)).toBuffer().toString('utf8');
    expect(rendered).toBe(replaced(text, 'http://example.org:8080', 'example.org', counts, ',"offers":{"price":"5"}'));
    expect(JSON.parse(rendered)).toMatchObject({ categories: [{ count: 40 }], tags: [{ count: 7 }], title: 'Café — Zürich 🎉' });
  });

  it('keeps the built counts and the placeholder origin where the request gives none, and drops the offers member', () => {
    const template = DocumentTemplate.compile(text, syntax);
    const rendered = new ByteAssembler().add(template.rendered({})).toBuffer().toString('utf8');
    expect(rendered).toBe(replaced(text, ORIGIN, SITE, new Map(), ''));
    expect(JSON.parse(rendered).json_ld).toEqual({ name: 'Café' });
  });

  describe('as stored', () => {
    const values = {
      origin: Buffer.from('http://example.org:8080'),
      site: Buffer.from('example.org'),
      count: (term: string) => (term === 'category:3' ? 40 : undefined),
      offers: Buffer.from(',"offers":{"price":"5"}'),
    };
    const answer = (template: DocumentTemplate) => new ByteAssembler().addText('[').add(template.rendered(values)).addText(']');

    it('reads back what it stored, with its extra bytes: the same bytes and the same ETag, without searching the text', () => {
      const compiled = DocumentTemplate.compile(text, syntax);
      const { template, extra } = DocumentTemplate.fromStored(compiled.toStored(Buffer.from('{"url":"é"}')), syntax);
      expect(extra.toString('utf8')).toBe('{"url":"é"}');
      expect(answer(template).toBuffer().equals(answer(compiled).toBuffer())).toBe(true);
      expect(answer(template).etag()).toBe(answer(compiled).etag());
      expect(template.countTerms).toEqual(['category:3', 'tag:5']);
      expect(template.bytes.toString('utf8')).toBe(text);
      expect(DocumentTemplate.fromStored(DocumentTemplate.compile('{}', syntax).toStored(), syntax).extra.length).toBe(0);
    });

    it('refuses what it did not store under these placeholders', () => {
      const stored = DocumentTemplate.compile(text, syntax).toStored();
      // The head: the hole count, then the first hole's distance from the start and its length (one byte each here).
      const changed = (at: number, by: number) => {
        const copy = Buffer.from(stored);
        copy[at] += by;
        return copy;
      };
      const other = new TemplateSyntax({ origin: 'https://xother.invalid', site: 'xother.invalid', countMarker: 'mother' });
      const unreadable = [
        Buffer.alloc(0),
        stored.subarray(0, 5), // cut short in the holes
        stored.subarray(0, 40), // cut short in the text: holes past its end
        Buffer.from('{"title":"forged"}'),
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), // a hole count no text holds
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), // a varint past 2^35
        // A hole 2^32 + 1 bytes in, which an Int32 would wrap round to the placeholder at 1.
        Buffer.concat([Buffer.from([1, 0x81, 0x80, 0x80, 0x80, 0x10, ORIGIN.length, 0]), Buffer.from(`"${ORIGIN}"`)]),
        changed(1, 1), // the first hole starts a byte late: not a placeholder
        changed(2, -1), // and ends a byte early
        changed(0, 1), // one hole more than written
      ];
      for (const bytes of unreadable) expect(() => DocumentTemplate.fromStored(bytes, syntax)).toThrow(UnreadableTemplate);
      expect(() => DocumentTemplate.fromStored(stored, other)).toThrow(UnreadableTemplate);
    });
  });

  it('renders a text without holes as it is', () => {
    const template = DocumentTemplate.compile('{"a":"ü"}', syntax);
    expect(
      new ByteAssembler()
        .add(template.rendered({ origin: Buffer.from('x') }))
        .toBuffer()
        .toString('utf8'),
    ).toBe('{"a":"ü"}');
  });
});

describe('ByteAssembler', () => {
  it('joins several buffers into one of the exact length', () => {
    const source = Buffer.from('bc');
    const inner = new ByteAssembler().add(source).addText('é');
    const out = new ByteAssembler().addText('[').addAll(inner).add(Buffer.alloc(0)).addText(']');
    expect(out.length).toBe(6);
    expect(out.toBuffer().toString('utf8')).toBe('[bcé]');
  });

  describe('etag, worked out without the bytes', () => {
    const template = DocumentTemplate.compile(
      JSON.stringify({
        url: `${ORIGIN}/e`,
        categories: [{ count: `${MARKER}:category:3:12` }],
        json_ld: { name: 'e', offers: `${MARKER}:offers` },
      }),
      syntax,
    );
    const page = (values: Parameters<DocumentTemplate['rendered']>[0], tail = ']') =>
      new ByteAssembler().addText('[').add(template.rendered(values)).addText(tail);
    const origin = Buffer.from('http://a.test');

    it('is the same for the same parts and fills, quoted as a strong ETag', () => {
      const etag = page({ origin, count: () => 4 }).etag();
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(page({ origin: Buffer.from('http://a.test'), count: () => 4 }).etag()).toBe(etag);
    });

    it('differs whenever the bytes differ: a fill, a count, the offers, the text around, another template', () => {
      const etags = [
        page({ origin, count: () => 4 }).etag(),
        page({ origin: Buffer.from('http://b.test'), count: () => 4 }).etag(),
        page({ origin, count: () => 5 }).etag(),
        page({ origin }).etag(), // the built count (12) stays
        page({ origin, count: () => 4, offers: Buffer.from(',"offers":[]') }).etag(),
        page({ origin, count: () => 4 }, ']]').etag(),
        new ByteAssembler().addText('[').add(DocumentTemplate.compile('{"url":"x"}', syntax).rendered({ origin })).addText(']').etag(),
      ];
      expect(new Set(etags).size).toBe(etags.length);
    });

    it('is the same for two builds that differ only in the counts they saw, once the counts are filled', () => {
      const built = (count: number) =>
        DocumentTemplate.compile(JSON.stringify({ categories: [{ id: 3, count: `${MARKER}:category:3:${count}` }] }), syntax);
      const rendered = (template: DocumentTemplate) => new ByteAssembler().add(template.rendered({ count: () => 9 }));
      expect(rendered(built(12)).etag()).toBe(rendered(built(13)).etag());
      expect(new ByteAssembler().add(built(12).rendered({})).etag()).not.toBe(new ByteAssembler().add(built(13).rendered({})).etag());
    });

    it('does not confuse where one fill ends and the next begins', () => {
      const two = DocumentTemplate.compile(`"${ORIGIN}${SITE}"`, syntax);
      const a = new ByteAssembler().add(two.rendered({ origin: Buffer.from('ab'), site: Buffer.from('c') }));
      const b = new ByteAssembler().add(two.rendered({ origin: Buffer.from('a'), site: Buffer.from('bc') }));
      expect(a.toBuffer().equals(b.toBuffer())).toBe(true);
      // Equal bytes from different fills may have different tags (a strong ETag only needs different bytes to differ).
      expect(a.etag()).not.toBe(page({ origin }).etag());
      expect(new ByteAssembler().addText('ab').addText('c').etag()).not.toBe(new ByteAssembler().addText('a').addText('bc').etag());
    });
  });
});
