import { csvCell, neutralizeFormula, xlsxCell } from './export-cells';

describe('export cells', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
  ])('neutralises a cell starting a formula: %j', (raw, safe) => {
    expect(neutralizeFormula(raw)).toBe(safe);
    expect(csvCell(raw)).toBe(safe);
  });

  it.each(['Ada Lovelace', 'a=b', "'quoted", '', '1+1'])('leaves other text alone: %j', (text) => {
    expect(neutralizeFormula(text)).toBe(text);
  });

  it('writes numbers as numbers, times in ISO 8601 UTC, yes/no and empty cells', () => {
    expect(csvCell(-5)).toBe(-5);
    expect(csvCell(new Date('2026-11-26T08:00:00Z'))).toBe('2026-11-26T08:00:00.000Z');
    expect(csvCell(true)).toBe('yes');
    expect(csvCell(false)).toBe('no');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ minor: 2550, exponent: 2 })).toBe('25.50');
    expect(csvCell({ minor: 4500, exponent: 0 })).toBe('4500');
    expect(csvCell({ minor: 4500, exponent: 3 })).toBe('4.500');
    expect(xlsxCell({ minor: 2550, exponent: 2 })).toBe(25.5);
    expect(xlsxCell({ minor: 4125, exponent: 3 })).toBe(4.125);
    expect(xlsxCell(true)).toBe('yes');
    expect(xlsxCell('=1+1')).toBe('=1+1');
  });
});
