/**
 * A document's JSON text kept as UTF-8 bytes with its per-request parts marked (holes), so that a
 * response is assembled by copying bytes: no per-request string of the document, no search for its
 * placeholders, no UTF-8 encoding of the body. The strings a request would otherwise build (a copy
 * of every document per placeholder, the page joined, then encoded for the hash and for the socket)
 * were most of a list's CPU and, past 128 KB, large objects that only a full collection frees.
 */

/** What a hole is filled with: the request's origin or site id (JSON string content), a term's count, the JSON-LD offers. */
export type HoleKind = 'origin' | 'site' | 'count' | 'offers';

/** The placeholders a document is built with, as they appear in its text. */
export interface TemplateTokens {
  /** The placeholder origin and host of URLs (StoredEventDocuments), when documents are built with them. */
  origin?: string;
  site?: string;
  /** A term count's placeholder, `"<marker>:(category|tag):(id):(built count)"`. */
  count: RegExp;
  /** The single document's JSON-LD offers member (`,"offers":"<marker>:offers"`). */
  offers?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Tokens compiled into the one pattern that splits a text (longest first where one contains another). */
export class TemplateSyntax {
  readonly pattern: RegExp;

  constructor(readonly tokens: TemplateTokens) {
    const alternatives = [
      tokens.origin !== undefined ? `(?<origin>${escapeRegExp(tokens.origin)})` : null,
      tokens.site !== undefined ? `(?<site>${escapeRegExp(tokens.site)})` : null,
      `(?<count>${tokens.count.source})`,
      tokens.offers !== undefined ? `(?<offers>${escapeRegExp(tokens.offers)})` : null,
    ].filter((alternative) => alternative !== null);
    this.pattern = new RegExp(alternatives.join('|'), 'g');
  }
}

/** A hole's term (`category:3`) and the count the document was built with, for count holes. */
interface CountHole {
  term: string;
  built: Buffer;
}

/** The bytes of one response being assembled, copied once into a buffer of the exact size. */
export class ByteAssembler {
  private readonly sources: Buffer[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  length = 0;

  add(source: Buffer, start = 0, end = source.length): this {
    if (end > start) {
      this.sources.push(source);
      this.starts.push(start);
      this.ends.push(end);
      this.length += end - start;
    }
    return this;
  }

  addText(text: string): this {
    return this.add(Buffer.from(text, 'utf8'));
  }

  /** Appends what another assembler holds. */
  addAll(other: ByteAssembler): this {
    for (let index = 0; index < other.sources.length; index += 1) this.add(other.sources[index], other.starts[index], other.ends[index]);
    return this;
  }

  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (let index = 0; index < this.sources.length; index += 1)
      at += this.sources[index].copy(out, at, this.starts[index], this.ends[index]);
    return out;
  }
}

/** What a request fills the holes with: `undefined` keeps what the document was built with (a count) or nothing (offers). */
export interface HoleValues {
  origin?: Buffer;
  site?: Buffer;
  count?: (term: string) => number | undefined;
  offers?: Buffer;
}

/** Small numbers' bytes, kept: counts repeat across every page. */
const NUMBER_BYTES = Array.from({ length: 1024 }, (_value, index) => Buffer.from(String(index), 'latin1'));

function numberBytes(value: number): Buffer {
  return Number.isInteger(value) && value >= 0 && value < NUMBER_BYTES.length ? NUMBER_BYTES[value] : Buffer.from(String(value), 'latin1');
}

/** One document's text as bytes and its holes, in order. */
export class DocumentTemplate {
  private constructor(
    readonly bytes: Buffer,
    /** Byte offsets: hole `i` spans [holeStarts[i], holeEnds[i]) of `bytes`, which hold the placeholder. */
    private readonly holeStarts: Int32Array,
    private readonly holeEnds: Int32Array,
    private readonly holeKinds: HoleKind[],
    private readonly counts: Array<CountHole | undefined>,
  ) {}

  static compile(text: string, syntax: TemplateSyntax): DocumentTemplate {
    const chunks: Buffer[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    const kinds: HoleKind[] = [];
    const counts: Array<CountHole | undefined> = [];
    let bytes = 0;
    let last = 0;
    const push = (piece: string): number => {
      const chunk = Buffer.from(piece, 'utf8');
      chunks.push(chunk);
      bytes += chunk.length;
      return chunk.length;
    };
    for (const match of text.matchAll(syntax.pattern)) {
      push(text.slice(last, match.index));
      const groups = match.groups!;
      const kind: HoleKind =
        groups.origin !== undefined ? 'origin' : groups.site !== undefined ? 'site' : groups.count !== undefined ? 'count' : 'offers';
      const start = bytes;
      push(match[0]);
      starts.push(start);
      ends.push(bytes);
      kinds.push(kind);
      // The count pattern's own groups follow the named ones: kind, id, built count.
      counts.push(kind === 'count' ? countHole(match[0], syntax.tokens.count) : undefined);
      last = match.index + match[0].length;
    }
    push(text.slice(last));
    // Unpooled: a kept template must not hold a shared slab of the Buffer pool alive.
    const joined = Buffer.allocUnsafeSlow(bytes);
    let at = 0;
    for (const chunk of chunks) at += chunk.copy(joined, at);
    return new DocumentTemplate(joined, Int32Array.from(starts), Int32Array.from(ends), kinds, counts);
  }

  /** What the template holds in memory, about: its bytes and its holes. */
  get byteSize(): number {
    return this.bytes.length + this.holeKinds.length * 24 + 200;
  }

  /** The terms whose counts it shows (`category:3`). */
  get terms(): string[] {
    return this.counts.flatMap((hole) => (hole ? [hole.term] : []));
  }

  /** Appends the text as this request shows it. */
  renderInto(out: ByteAssembler, values: HoleValues): ByteAssembler {
    let at = 0;
    for (let index = 0; index < this.holeKinds.length; index += 1) {
      out.add(this.bytes, at, this.holeStarts[index]);
      at = this.holeEnds[index];
      switch (this.holeKinds[index]) {
        case 'origin':
          out.add(values.origin ?? this.bytes, values.origin ? 0 : this.holeStarts[index], values.origin ? undefined : at);
          break;
        case 'site':
          out.add(values.site ?? this.bytes, values.site ? 0 : this.holeStarts[index], values.site ? undefined : at);
          break;
        case 'count': {
          const hole = this.counts[index]!;
          const count = values.count?.(hole.term);
          out.add(count === undefined ? hole.built : numberBytes(count));
          break;
        }
        case 'offers':
          if (values.offers) out.add(values.offers);
          break;
      }
    }
    return out.add(this.bytes, at);
  }

  /** The text as this request shows it, as a string (small parts such as the JSON-LD's cost offers). */
  render(values: HoleValues): string {
    return this.renderInto(new ByteAssembler(), values).toBuffer().toString('utf8');
  }
}

function countHole(placeholder: string, pattern: RegExp): CountHole {
  const [, kind, id, built] = new RegExp(pattern.source).exec(placeholder)!;
  return { term: `${kind}:${id}`, built: Buffer.from(built, 'latin1') };
}
