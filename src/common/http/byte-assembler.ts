import { hash } from 'node:crypto';

/**
 * Bytes that know their length before they are written (a rendered document template), and that
 * can say what they are without being written: `fingerprint` pushes buffers that identify these
 * exact bytes (the same pushes, the same bytes), so that an ETag is worked out without the body.
 */
export interface BytePart {
  readonly length: number;
  writeTo(target: Buffer, at: number): number;
  fingerprint(out: Buffer[]): void;
}

/** A part's header in a fingerprint: its kind (plain bytes or a BytePart) and its length, so that parts cannot run into each other. */
function partHeader(kind: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(5);
  header[0] = kind;
  header.writeUInt32BE(length, 1);
  return header;
}

const PLAIN = 0x42; // 'B'
const RENDERED = 0x54; // 'T'

/**
 * The bytes of one response being assembled, written once into a buffer of the exact size; or, when
 * a conditional GET's If-None-Match already names them, never written (`etag`).
 */
export class ByteAssembler {
  private readonly parts: Array<Buffer | BytePart> = [];
  length = 0;

  add(part: Buffer | BytePart): this {
    if (part.length > 0) {
      this.parts.push(part);
      this.length += part.length;
    }
    return this;
  }

  addText(text: string): this {
    return this.add(Buffer.from(text, 'utf8'));
  }

  /** Appends what another assembler holds. */
  addAll(other: ByteAssembler): this {
    for (const part of other.parts) this.add(part);
    return this;
  }

  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (const part of this.parts) at = Buffer.isBuffer(part) ? at + part.copy(out, at) : part.writeTo(out, at);
    return out;
  }

  /**
   * A strong ETag of the bytes toBuffer would write, worked out from what they are made of (a
   * rendered template's fingerprint is its template's digest and its holes' fills), not from the
   * bytes: the same parts give the same tag, different bytes a different one.
   */
  etag(): string {
    const pieces: Buffer[] = [];
    for (const part of this.parts) {
      if (Buffer.isBuffer(part)) {
        pieces.push(partHeader(PLAIN, part.length), part);
      } else {
        pieces.push(partHeader(RENDERED, part.length));
        part.fingerprint(pieces);
      }
    }
    return `"${hash('sha1', Buffer.concat(pieces), 'base64url').slice(0, 27)}"`;
  }
}
