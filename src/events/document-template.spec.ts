import { ByteAssembler, DocumentTemplate, TemplateSyntax } from './document-template';

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
});
