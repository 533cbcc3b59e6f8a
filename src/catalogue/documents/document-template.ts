/**
 * A document's JSON text kept as UTF-8 bytes with its per-request parts marked (holes), so that a
 * response is assembled by copying bytes: no per-request string of the document, no search for its
 * placeholders, no UTF-8 encoding of the body. The strings a request would otherwise build (a copy
 * of every document per placeholder, the page joined, then encoded for the hash and for the socket)
 * were most of a list's CPU and, past 128 KB, large objects that only a full collection frees.
 */
import { createHash } from 'node:crypto';
import type { BytePart } from '../../common/http/byte-assembler';

/** What a hole is filled with: the request's origin or site id (JSON string content), a term's count, the JSON-LD offers. */
export type HoleKind = 'origin' | 'site' | 'count' | 'offers';

/** The placeholders a document is built with, as they appear in its text. */
export interface TemplateTokens {
  /** The placeholder origin and host of URLs (StoredEventDocuments), when documents are built with them. */
  origin?: string;
  site?: string;
  /** The marker of term counts' placeholders, `"<marker>:category:<id>:<built count>"` (with the quotes). */
  countMarker: string;
  /** The single document's JSON-LD offers member (`,"offers":"<marker>:offers"`). */
  offers?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Tokens compiled into the one pattern that splits a text (longest first where one contains another). */
export class TemplateSyntax {
  readonly pattern: RegExp;
  /** A count placeholder alone, for checking a stored template's count holes. */
  readonly countHole: RegExp;
  /** The bytes of the fixed placeholders, for checking a stored template's other holes. */
  readonly tokenBytes: Partial<Record<Exclude<HoleKind, 'count'>, Buffer>>;

  constructor(readonly tokens: TemplateTokens) {
    const count = `"${escapeRegExp(tokens.countMarker)}:(?<countKind>category|tag):(?<countId>\\d+):(?<countBuilt>\\d+)"`;
    const alternatives = [
      tokens.origin !== undefined ? `(?<origin>${escapeRegExp(tokens.origin)})` : null,
      tokens.site !== undefined ? `(?<site>${escapeRegExp(tokens.site)})` : null,
      `(?<count>${count})`,
      tokens.offers !== undefined ? `(?<offers>${escapeRegExp(tokens.offers)})` : null,
    ].filter((alternative) => alternative !== null);
    this.pattern = new RegExp(alternatives.join('|'), 'g');
    this.countHole = new RegExp(`^${count}$`);
    this.tokenBytes = {};
    for (const kind of ['origin', 'site', 'offers'] as const) {
      const token = tokens[kind];
      if (token !== undefined) this.tokenBytes[kind] = Buffer.from(token, 'utf8');
    }
  }
}

/** A stored template that fromStored refuses: cut short, or not written by toStored under this syntax. */
export class UnreadableTemplate extends Error {}

/** A hole's term (`category:3`) and the count the document was built with, for count holes. */
interface CountHole {
  term: string;
  built: Buffer;
}

/** What a request fills the holes with: `undefined` keeps what the document was built with (a count) or nothing (offers). */
export interface HoleValues {
  origin?: Buffer;
  site?: Buffer;
  count?: (term: string) => number | undefined;
  offers?: Buffer;
}

const EMPTY = Buffer.alloc(0);

/** Small numbers' bytes, kept: counts repeat across every page. */
const NUMBER_BYTES = Array.from({ length: 1024 }, (_value, index) => Buffer.from(String(index), 'latin1'));

function numberBytes(value: number): Buffer {
  return Number.isInteger(value) && value >= 0 && value < NUMBER_BYTES.length ? NUMBER_BYTES[value] : Buffer.from(String(value), 'latin1');
}

/** Whether bytes [start, end) are the token's: compared here, as a placeholder is a few dozen bytes and a native call per hole costs more. */
function holds(bytes: Buffer, start: number, end: number, token: Buffer | undefined): boolean {
  if (token === undefined || end - start !== token.length) return false;
  for (let index = 0; index < token.length; index += 1) if (bytes[start + index] !== token[index]) return false;
  return true;
}

/** A count placeholder's term (`category:3`) and the count it was built with, from the syntax's match groups. */
function countHoleOf(groups: Record<string, string>): CountHole {
  return { term: `${groups.countKind}:${groups.countId}`, built: Buffer.from(groups.countBuilt, 'latin1') };
}

/** Which placeholder bytes [start, end) are (within `bytes`), with a count's term and built value; undefined when none. */
function placeholderAt(
  bytes: Buffer,
  start: number,
  end: number,
  syntax: TemplateSyntax,
): { kind: HoleKind; count?: CountHole } | undefined {
  if (start < 0 || end <= start || end > bytes.length) return undefined;
  for (const kind of ['origin', 'site', 'offers'] as const) if (holds(bytes, start, end, syntax.tokenBytes[kind])) return { kind };
  const groups = syntax.countHole.exec(bytes.toString('latin1', start, end))?.groups;
  if (!groups) return undefined;
  return { kind: 'count', count: countHoleOf(groups) };
}

function writeVarint(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** An unsigned LEB128 varint at `reader.at` (moved past it); throws UnreadableTemplate when cut short or over 2^35. */
function readVarint(bytes: Buffer, reader: { at: number }): number {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (reader.at >= bytes.length) break;
    const byte = bytes[reader.at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
  }
  throw new UnreadableTemplate('stored template unreadable: cut short');
}

/** One document's text as bytes and its holes, in order. */
export class DocumentTemplate {
  /**
   * Identifies, in an ETag (ByteAssembler.etag), the bytes a rendering keeps around its holes: the
   * same for two builds of a document that differ only inside holes (the counts a build saw), so
   * that equal answers get equal tags whichever instance or build they came from.
   */
  private readonly digest: Buffer;

  private constructor(
    readonly bytes: Buffer,
    /** Byte offsets: hole `i` spans [holeStarts[i], holeEnds[i]) of `bytes`, which hold the placeholder. */
    private readonly holeStarts: Int32Array,
    private readonly holeEnds: Int32Array,
    private readonly holeKinds: HoleKind[],
    private readonly counts: Array<CountHole | undefined>,
  ) {
    const hash = createHash('sha1');
    const length = Buffer.allocUnsafe(4);
    let from = 0;
    for (let index = 0; index <= holeKinds.length; index += 1) {
      const to = index < holeKinds.length ? holeStarts[index] : bytes.length;
      length.writeUInt32BE(to - from);
      hash.update(length).update(bytes.subarray(from, to));
      from = holeEnds[index];
    }
    this.digest = hash.digest();
  }

  static compile(text: string, syntax: TemplateSyntax): DocumentTemplate {
    // Unpooled: a kept template must not hold a shared slab of the Buffer pool alive.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
    bytes.write(text, 0, 'utf8');
    // In ASCII text (the usual document) a character's offset is its byte offset.
    const ascii = bytes.length === text.length;
    const byteOffset = (from: number, fromByte: number, to: number): number =>
      ascii ? to : fromByte + Buffer.byteLength(text.slice(from, to), 'utf8');
    const starts: number[] = [];
    const ends: number[] = [];
    const kinds: HoleKind[] = [];
    const counts: Array<CountHole | undefined> = [];
    let char = 0;
    let byte = 0;
    for (const match of text.matchAll(syntax.pattern)) {
      const groups = match.groups!;
      const kind: HoleKind =
        groups.origin !== undefined ? 'origin' : groups.site !== undefined ? 'site' : groups.count !== undefined ? 'count' : 'offers';
      const start = byteOffset(char, byte, match.index);
      const end = byteOffset(match.index, start, match.index + match[0].length);
      starts.push(start);
      ends.push(end);
      kinds.push(kind);
      counts.push(kind === 'count' ? countHoleOf(groups) : undefined);
      char = match.index + match[0].length;
      byte = end;
    }
    return new DocumentTemplate(bytes, Int32Array.from(starts), Int32Array.from(ends), kinds, counts);
  }

  /**
   * The template as it is stored (StoredEventDocuments compresses it), with `extra` bytes its keeper
   * stores beside it: where its holes are ahead of its bytes, so that reading it back (fromStored)
   * is a copy and a check of each hole, not a search of the text for placeholders. Layout, in
   * unsigned LEB128 varints (small numbers, which compress well: a list item's marks take about 7 %
   * of its stored size): the hole count; per hole, its distance from the end of the one
   * before and its length; the length of `extra`; `extra`; the bytes. A hole's kind is what its
   * bytes are (fromStored checks them), and the digest is worked out again.
   */
  toStored(extra: Buffer = EMPTY): Buffer {
    const head: number[] = [];
    writeVarint(head, this.holeKinds.length);
    let previousEnd = 0;
    for (let index = 0; index < this.holeKinds.length; index += 1) {
      writeVarint(head, this.holeStarts[index] - previousEnd);
      writeVarint(head, this.holeEnds[index] - this.holeStarts[index]);
      previousEnd = this.holeEnds[index];
    }
    writeVarint(head, extra.length);
    return Buffer.concat([Buffer.from(head), extra, this.bytes]);
  }

  /**
   * A template as toStored wrote it, and the extra bytes stored with it. Each hole must be one of the
   * syntax's placeholders, within the text and in order: a stored template that is cut short or was
   * written under other placeholders throws UnreadableTemplate, and its reader builds the document
   * again.
   */
  static fromStored(stored: Buffer, syntax: TemplateSyntax): { template: DocumentTemplate; extra: Buffer } {
    const reader = { at: 0 };
    const holes = readVarint(stored, reader);
    // Each hole takes at least two bytes of the head: a count beyond that is not toStored's.
    if (holes > stored.length / 2) throw new UnreadableTemplate('stored template unreadable: cut short');
    const starts = new Int32Array(holes);
    const ends = new Int32Array(holes);
    let previousEnd = 0;
    for (let index = 0; index < holes; index += 1) {
      const start = previousEnd + readVarint(stored, reader);
      const end = start + readVarint(stored, reader);
      // Checked before it is kept as an Int32: no hole ends past the stored bytes, so none wraps round.
      if (end > stored.length) throw new UnreadableTemplate(`stored template unreadable: hole ${index} past the end`);
      starts[index] = start;
      ends[index] = end;
      previousEnd = end;
    }
    const extraLength = readVarint(stored, reader);
    const textStart = reader.at + extraLength;
    if (textStart > stored.length) throw new UnreadableTemplate('stored template unreadable: cut short');
    // Unpooled and of the exact size: a kept template must hold neither a shared slab nor the stored buffer.
    const bytes = Buffer.allocUnsafeSlow(stored.length - textStart);
    stored.copy(bytes, 0, textStart);
    const kinds: HoleKind[] = [];
    const counts: Array<CountHole | undefined> = [];
    for (let index = 0; index < holes; index += 1) {
      const hole = placeholderAt(bytes, starts[index], ends[index], syntax);
      if (!hole) throw new UnreadableTemplate(`stored template unreadable: hole ${index} is no placeholder`);
      kinds.push(hole.kind);
      counts.push(hole.count);
    }
    return { template: new DocumentTemplate(bytes, starts, ends, kinds, counts), extra: stored.subarray(reader.at, textStart) };
  }

  /** The terms (`category:3`) whose counts its holes show, as many times as they show them. */
  get countTerms(): string[] {
    return this.counts.flatMap((hole) => (hole ? [hole.term] : []));
  }

  /** What the template holds in memory, about: its bytes and its holes. */
  get byteSize(): number {
    return this.bytes.length + this.holeKinds.length * 24 + 300;
  }

  /** The text as this request shows it, as bytes to be written into a response. */
  rendered(values: HoleValues): BytePart {
    const fills: Array<Buffer | undefined> = [];
    let length = this.bytes.length;
    for (let index = 0; index < this.holeKinds.length; index += 1) {
      const fill = this.fill(index, values);
      fills[index] = fill;
      if (fill !== undefined) length += fill.length - (this.holeEnds[index] - this.holeStarts[index]);
    }
    return {
      length,
      writeTo: (target, start) => {
        let at = start;
        let from = 0;
        for (let index = 0; index < this.holeKinds.length; index += 1) {
          const fill = fills[index];
          if (fill === undefined) continue; // the placeholder's own bytes stay
          at += this.bytes.copy(target, at, from, this.holeStarts[index]);
          at += fill.copy(target, at);
          from = this.holeEnds[index];
        }
        return at + this.bytes.copy(target, at, from);
      },
      fingerprint: (out) => {
        // What each hole shows (a fill, or the placeholder's own bytes), its length telling where it ends.
        const lengths = Buffer.allocUnsafe(4 * fills.length);
        out.push(this.digest, lengths);
        fills.forEach((fill, index) => {
          const shown = fill ?? this.bytes.subarray(this.holeStarts[index], this.holeEnds[index]);
          lengths.writeUInt32BE(shown.length, 4 * index);
          out.push(shown);
        });
      },
    };
  }

  /** What hole `index` shows for this request; undefined keeps the placeholder's bytes (an origin the request does not give). */
  private fill(index: number, values: HoleValues): Buffer | undefined {
    switch (this.holeKinds[index]) {
      case 'origin':
        return values.origin;
      case 'site':
        return values.site;
      case 'count': {
        const hole = this.counts[index]!;
        const count = values.count?.(hole.term);
        return count === undefined ? hole.built : numberBytes(count);
      }
      case 'offers':
        return values.offers ?? EMPTY;
    }
  }
}
