import { FixedOffsetZone, IANAZone } from 'luxon';
import { ApiError } from '../errors/api-error';
import { readDateFilter } from './date-filter';
import { QueryEcho } from './query-echo';
import { parseStatusList } from './status-list';

describe('readDateFilter', () => {
  const utc = FixedOffsetZone.utcInstance;

  it('reads a date alone as an upper bound as the last millisecond of that day', () => {
    expect(readDateFilter('2027-03-01', 'before', utc, 'until')?.instant.toISOString()).toBe('2027-03-01T23:59:59.999Z');
    expect(readDateFilter('2027-03-01', 'after', utc, 'from')?.instant.toISOString()).toBe('2027-03-01T00:00:00.000Z');
  });

  it('keeps a time of day as given unless whole days are asked for', () => {
    expect(readDateFilter('2027-03-01 12:30:00', 'before', utc, 'until')?.instant.toISOString()).toBe('2027-03-01T12:30:00.000Z');
    const paris = IANAZone.create('Europe/Paris');
    expect(readDateFilter('2027-03-01 12:30:00', 'end_date', paris, 'until', { wholeDays: true })).toEqual({
      instant: new Date('2027-03-01T22:59:59.999Z'),
      local: '2027-03-01 23:59:59',
    });
  });

  it('treats blank as absent and refuses what is no date', () => {
    expect(readDateFilter('  ', 'before', utc, 'until')).toBeUndefined();
    expect(() => readDateFilter('soon', 'before', utc, 'until')).toThrow(ApiError);
  });
});

describe('parseStatusList', () => {
  const rule = { allowed: ['publish', 'draft'] as const, acceptsAny: true, groups: { public: ['publish'] as const } };

  it('reads lists in any form, trimmed and lower-cased, each status once', () => {
    expect(parseStatusList(' Publish, draft,publish', 'status', rule)).toEqual(['publish', 'draft']);
    expect(parseStatusList(['public', 'draft'], 'status', rule)).toEqual(['publish', 'draft']);
  });

  it('answers any, nothing, or a 400 naming the field', () => {
    expect(parseStatusList('any', 'status', rule)).toBe('any');
    expect(parseStatusList(' , ', 'status', rule)).toBeUndefined();
    expect(() => parseStatusList('any', 'status', { allowed: ['publish'] })).toThrow(ApiError);
    try {
      parseStatusList('bogus', 'post_status', rule);
    } catch (error) {
      expect((error as ApiError).toBody().data.params).toHaveProperty('post_status');
    }
  });
});

describe('QueryEcho', () => {
  it('leaves out absent values and empty lists and joins lists with commas', () => {
    const echo = new QueryEcho()
      .add('per_page', 10)
      .add('search', undefined)
      .add('include', [])
      .add('venue', [3, 4])
      .add('featured', false);
    expect(echo.pairs).toEqual([
      ['per_page', '10'],
      ['venue', '3,4'],
      ['featured', 'false'],
    ]);
    expect(echo.url('http://example.test/events/')).toBe('http://example.test/events/?per_page=10&venue=3%2C4&featured=false');
  });

  it('echoes the named parameters of a query in the order named', () => {
    expect(QueryEcho.of({ b: 'x', a: 2, c: null }, ['a', 'b', 'c']).pairs).toEqual([
      ['a', '2'],
      ['b', 'x'],
    ]);
  });
});
