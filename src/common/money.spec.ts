import { centsToMoney, moneyColumn, moneyToCents } from './money';

describe('money', () => {
  it('reads decimal strings into cents exactly', () => {
    expect(moneyToCents('25')).toBe(2500);
    expect(moneyToCents('25.5')).toBe(2550);
    expect(moneyToCents('0.10')).toBe(10);
    expect(moneyToCents('19,99')).toBe(1999);
  });

  it('refuses negative, non-numeric and over-precise values', () => {
    expect(moneyToCents('-1')).toBeNull();
    expect(moneyToCents('abc')).toBeNull();
    expect(moneyToCents('1.999')).toBeNull();
    expect(moneyToCents('')).toBeNull();
  });

  it('writes cents as two-decimal strings', () => {
    expect(centsToMoney(2550)).toBe('25.50');
    expect(centsToMoney(5)).toBe('0.05');
    expect(centsToMoney(0)).toBe('0.00');
  });

  it('normalises values read from the database', () => {
    expect(moneyColumn.from('25.5')).toBe('25.50');
    expect(moneyColumn.from(3)).toBe('3.00');
    expect(moneyColumn.from(null)).toBe('0.00');
  });
});
