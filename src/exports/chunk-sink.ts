import { Writable } from 'node:stream';

/** Size of the pieces a stored export is cut into. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * A writable stream that stores what it is given as numbered pieces of CHUNK_BYTES (the last one
 * shorter) through `store`, waiting for each store before taking more: the file never sits in
 * memory whole.
 */
export class ChunkSink extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;
  /** Bytes stored so far. */
  bytes = 0;

  constructor(private readonly store: (seq: number, data: Buffer) => Promise<void>) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < CHUNK_BYTES) {
      callback();
      return;
    }
    this.flushFull().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flushFull()
      .then(() => {
        const rest = Buffer.concat(this.pending);
        this.pending = [];
        this.pendingBytes = 0;
        return rest.length > 0 ? this.storePiece(rest) : undefined;
      })
      .then(() => callback(), callback);
  }

  private async flushFull(): Promise<void> {
    while (this.pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(this.pending);
      const piece = all.subarray(0, CHUNK_BYTES);
      const rest = all.subarray(CHUNK_BYTES);
      this.pending = rest.length > 0 ? [Buffer.from(rest)] : [];
      this.pendingBytes = rest.length;
      await this.storePiece(Buffer.from(piece));
    }
  }

  private async storePiece(piece: Buffer): Promise<void> {
    this.seq += 1;
    this.bytes += piece.length;
    await this.store(this.seq, piece);
  }
}
