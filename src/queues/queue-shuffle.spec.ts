import { shuffledOrder } from './queue-shuffle';

/** Pearson's chi-square statistic of a contingency table. */
function chiSquare(table: number[][]): number {
  const rows = table.map((row) => row.reduce((a, b) => a + b, 0));
  const columns = table[0].map((_, j) => table.reduce((sum, row) => sum + row[j], 0));
  const total = rows.reduce((a, b) => a + b, 0);
  let statistic = 0;
  table.forEach((row, i) =>
    row.forEach((observed, j) => {
      const expected = (rows[i] * columns[j]) / total;
      statistic += (observed - expected) ** 2 / expected;
    }),
  );
  return statistic;
}

describe('shuffledOrder', () => {
  const ids = Array.from({ length: 5000 }, (_, index) => index + 1);

  it('is a permutation of the ids', () => {
    const order = shuffledOrder('seed-a', ids);
    expect(order).toHaveLength(ids.length);
    expect([...order].sort((a, b) => a - b)).toEqual(ids);
  });

  it('gives the same order for the same seed, whatever order the ids come in', () => {
    expect(shuffledOrder('seed-a', [...ids].reverse())).toEqual(shuffledOrder('seed-a', ids));
  });

  it('gives another order for another seed', () => {
    expect(shuffledOrder('seed-b', ids)).not.toEqual(shuffledOrder('seed-a', ids));
  });

  it('moves most entries away from their join order', () => {
    const order = shuffledOrder('seed-a', ids);
    const unmoved = order.filter((id, index) => id === index + 1).length;
    expect(unmoved).toBeLessThan(10);
  });

  it('leaves no link between join order and position (chi-square over 5 × 5 quintiles, p > 0.001)', () => {
    const order = shuffledOrder('seed-chi', ids);
    const bins = 5;
    const size = ids.length / bins;
    const table = Array.from({ length: bins }, () => new Array<number>(bins).fill(0));
    order.forEach((id, position) => {
      table[Math.floor((id - 1) / size)][Math.floor(position / size)] += 1;
    });
    // 16 degrees of freedom: the 0.999 quantile is 39.25.
    expect(chiSquare(table)).toBeLessThan(39.25);
  });
});
