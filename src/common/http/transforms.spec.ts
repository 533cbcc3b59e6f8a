import { toBoolean, toInteger, toIntList, toList } from './transforms';

describe('toList', () => {
  it('reads JSON arrays, repeated keys, CSV and JSON in a string alike', () => {
    expect(toList(['1', '2'])).toEqual(['1', '2']);
    expect(toList('1,2, 3')).toEqual(['1', '2', '3']);
    expect(toList('[1,2]')).toEqual([1, 2]);
    expect(toList(['1,2', '3'])).toEqual(['1', '2', '3']);
    expect(toList(5)).toEqual([5]);
    expect(toList('')).toEqual([]);
  });

  it('leaves absent values and objects for validation', () => {
    expect(toList(undefined)).toBeUndefined();
    expect(toList({ a: 1 })).toEqual({ a: 1 });
  });
});

describe('toIntList', () => {
  it('turns numeric items into numbers and keeps the others for validation to name', () => {
    expect(toIntList('3,4')).toEqual([3, 4]);
    expect(toIntList(['3', 'x'])).toEqual([3, 'x']);
  });
});

describe('toBoolean', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['', false],
    [1, true],
    [false, false],
  ])('reads %p as %p', (input, expected) => {
    expect(toBoolean(input)).toBe(expected);
  });

  it('leaves other words for validation', () => {
    expect(toBoolean('maybe')).toBe('maybe');
  });
});

describe('toInteger', () => {
  it('converts numeric strings only', () => {
    expect(toInteger(' 12 ')).toBe(12);
    expect(toInteger('1.5')).toBe('1.5');
    expect(toInteger(7)).toBe(7);
  });
});
