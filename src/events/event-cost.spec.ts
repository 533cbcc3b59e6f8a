import { ApiError } from '../common/errors/api-error';
import { describeCost, parseCostInput } from './event-cost';

const usd = { code: 'USD', exponent: 2, symbol: '$', position: 'prefix' as const };

describe('describeCost', () => {
  it('is empty when unset', () => {
    expect(describeCost(null, usd)).toEqual({
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    });
  });

  it('shows a plain number with the site currency', () => {
    expect(describeCost('10', usd)).toEqual({
      cost: '$10',
      cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['10'] },
    });
  });

  it('infers a postfix symbol from the text', () => {
    expect(describeCost('20$', usd).cost_details).toMatchObject({ currency_symbol: '$', currency_position: 'postfix' });
    expect(describeCost('20€', usd).cost).toBe('20€');
    expect(describeCost('€5 - 15', usd).cost).toBe('€5 – €15');
  });

  it('reads 0 as Free, also in a range', () => {
    expect(describeCost('0', usd).cost).toBe('Free');
    expect(describeCost('0, 30', usd).cost).toBe('Free – $30');
  });

  it('sorts the values numerically', () => {
    expect(describeCost('25, 5, 10.5', usd).cost_details.values).toEqual(['5', '10.5', '25']);
  });

  it('keeps text without numbers as it is', () => {
    expect(describeCost('Donation', usd)).toMatchObject({ cost: 'Donation', cost_details: { values: [] } });
  });
});

describe('parseCostInput', () => {
  it('accepts strings, numbers and lists of them', () => {
    expect(parseCostInput(' 10 ')).toBe('10');
    expect(parseCostInput(15)).toBe('15');
    expect(parseCostInput(['5', 20])).toBe('5, 20');
    expect(parseCostInput('')).toBeNull();
  });

  it('refuses other shapes with a 400 naming cost', () => {
    expect(() => parseCostInput({ a: 1 })).toThrow(ApiError);
    expect(() => parseCostInput([{}])).toThrow(/cost/);
  });
});
