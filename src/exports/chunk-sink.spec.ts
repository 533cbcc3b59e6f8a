import { ChunkSink, CHUNK_BYTES } from './chunk-sink';

describe('ChunkSink', () => {
  it('stores what it is given in order, in pieces of CHUNK_BYTES and a shorter last one', async () => {
    const stored: Array<{ seq: number; data: Buffer }> = [];
    const sink = new ChunkSink(async (seq, data) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      stored.push({ seq, data });
    });
    const input = Buffer.alloc(CHUNK_BYTES * 2 + 1234);
    for (let index = 0; index < input.length; index += 1) input[index] = index % 251;
    for (let offset = 0; offset < input.length; offset += 70_000) sink.write(input.subarray(offset, offset + 70_000));
    sink.end();
    await new Promise((resolve) => sink.once('finish', resolve));
    expect(stored.map((piece) => [piece.seq, piece.data.length])).toEqual([
      [1, CHUNK_BYTES],
      [2, CHUNK_BYTES],
      [3, 1234],
    ]);
    expect(Buffer.concat(stored.map((piece) => piece.data)).equals(input)).toBe(true);
    expect(sink.bytes).toBe(input.length);
  });

  it('stores nothing for an empty file', async () => {
    const stored: number[] = [];
    const sink = new ChunkSink(async (seq) => {
      stored.push(seq);
    });
    sink.end();
    await new Promise((resolve) => sink.once('finish', resolve));
    expect(stored).toEqual([]);
  });
});
