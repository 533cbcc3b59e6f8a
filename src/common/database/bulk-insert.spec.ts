import { inSlices, MAX_ROWS_PER_STATEMENT, MAX_STATEMENT_BYTES, MAX_STATEMENT_PARAMETERS, statementSlices } from './bulk-insert';

describe('statementSlices', () => {
  it('keeps each INSERT under SQLite’s parameter cap', () => {
    const rows = Array.from({ length: 5000 }, (_, id) => ({ id, a: 1, b: 2 }));
    const slices = statementSlices(rows, 26);
    expect(slices.every((slice) => slice.length * 26 <= MAX_STATEMENT_PARAMETERS)).toBe(true);
    expect(slices.flat()).toEqual(rows);
    expect(slices).toHaveLength(Math.ceil(5000 / Math.floor(MAX_STATEMENT_PARAMETERS / 26)));
  });

  it('caps the rows of narrow tables and the bytes of wide values', () => {
    expect(
      statementSlices(
        Array.from({ length: 4500 }, (_, id) => ({ id })),
        2,
      ).map((slice) => slice.length),
    ).toEqual([MAX_ROWS_PER_STATEMENT, MAX_ROWS_PER_STATEMENT, 500]);
    const text = 'é'.repeat(100_000); // 200 000 bytes as UTF-8
    const slices = statementSlices(
      Array.from({ length: 12 }, () => ({ text })),
      1,
    );
    expect(slices.map((slice) => slice.length)).toEqual([5, 5, 2]);
    expect(slices.every((slice) => slice.length * 200_000 <= MAX_STATEMENT_BYTES)).toBe(true);
  });

  it('sends a row heavier than the budget alone, and nothing for no rows', () => {
    const heavy = { text: 'x'.repeat(MAX_STATEMENT_BYTES + 1) };
    expect(statementSlices([{ text: 'a' }, heavy, { text: 'b' }], 1).map((slice) => slice.length)).toEqual([1, 1, 1]);
    expect(statementSlices([], 3)).toEqual([]);
  });
});

describe('inSlices', () => {
  it('cuts IN lists at MAX_ROWS_PER_STATEMENT values', () => {
    expect(inSlices(Array.from({ length: MAX_ROWS_PER_STATEMENT + 1 }, (_, id) => id)).map((slice) => slice.length)).toEqual([
      MAX_ROWS_PER_STATEMENT,
      1,
    ]);
    expect(inSlices([])).toEqual([]);
  });
});
