import { ApiError } from '../errors/api-error';
import { assertPageInRange, buildPageLinks, countPages, parsePageRequest } from './pagination';

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parsePageRequest', () => {
  it('defaults to page 1 of 25', () => {
    expect(parsePageRequest({}, 'events')).toEqual({ page: 1, perPage: 25, offset: 0 });
    expect(parsePageRequest({}, 'tickets')).toEqual({ page: 1, perPage: 25, offset: 0 });
  });

  it('reads numeric strings and computes the offset', () => {
    expect(parsePageRequest({ page: '3', per_page: '10' }, 'events')).toEqual({ page: 3, perPage: 10, offset: 20 });
  });

  it('clamps per_page above 100 on the events namespace', () => {
    expect(parsePageRequest({ per_page: '500' }, 'events').perPage).toBe(100);
  });

  it('rejects per_page outside 1..100 on the tickets namespace', () => {
    expect(errorOf(() => parsePageRequest({ per_page: '101' }, 'tickets')).toBody()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: { status: 400, params: { per_page: 'per_page must be at most 100' } },
    });
    expect(errorOf(() => parsePageRequest({ per_page: '0' }, 'tickets')).code).toBe('rest_invalid_param');
  });

  it('rejects a page below 1 and values that are not integers', () => {
    expect(errorOf(() => parsePageRequest({ page: '0' }, 'events')).toBody().data.params).toEqual({ page: 'page must be at least 1' });
    expect(errorOf(() => parsePageRequest({ page: 'two' }, 'events')).toBody().data.params).toEqual({ page: 'page must be an integer' });
    expect(errorOf(() => parsePageRequest({ per_page: '1.5' }, 'events')).code).toBe('rest_invalid_param');
    expect(errorOf(() => parsePageRequest({ page: { a: 1 } }, 'events')).code).toBe('rest_invalid_param');
  });
});

describe('countPages', () => {
  it('is 0 for an empty list and rounds up otherwise', () => {
    expect(countPages(0, 25)).toBe(0);
    expect(countPages(25, 25)).toBe(1);
    expect(countPages(26, 25)).toBe(2);
  });
});

describe('assertPageInRange', () => {
  it('accepts page 1 of an empty list and any page up to the last', () => {
    expect(() => assertPageInRange(1, 0, { kind: 'invalid' })).not.toThrow();
    expect(() => assertPageInRange(3, 3, { kind: 'invalid' })).not.toThrow();
  });

  it('answers a page past the end per namespace', () => {
    expect(errorOf(() => assertPageInRange(4, 3, { kind: 'not-found', resource: 'event' })).toBody()).toMatchObject({
      code: 'event-archive-page-not-found',
      data: { status: 404 },
    });
    expect(errorOf(() => assertPageInRange(2, 1, { kind: 'invalid' })).toBody()).toMatchObject({
      code: 'invalid-page-number',
      data: { status: 400 },
    });
    expect(() => assertPageInRange(9, 1, { kind: 'empty' })).not.toThrow();
  });
});

describe('buildPageLinks', () => {
  const base = 'https://example.org/cal/events/v1/events/';

  it('gives only rest_url for a single page', () => {
    expect(buildPageLinks(base, [['per_page', '10']], 1, 1)).toEqual({ rest_url: `${base}?page=1&per_page=10` });
  });

  it('links the next and previous pages, dropping page for the first', () => {
    const links = buildPageLinks(
      base,
      [
        ['per_page', '10'],
        ['start_date', '2026-11-20 00:00:00'],
      ],
      2,
      3,
    );
    expect(links.rest_url).toBe(`${base}?page=2&per_page=10&start_date=2026-11-20+00%3A00%3A00`);
    expect(links.next_rest_url).toBe(`${base}?page=3&per_page=10&start_date=2026-11-20+00%3A00%3A00`);
    expect(links.previous_rest_url).toBe(`${base}?per_page=10&start_date=2026-11-20+00%3A00%3A00`);
  });

  it('keeps page on the previous link after page 2', () => {
    expect(buildPageLinks(base, [], 3, 3).previous_rest_url).toBe(`${base}?page=2`);
  });

  it('ignores a page entry in the query', () => {
    expect(buildPageLinks(base, [['page', '7']], 1, 1).rest_url).toBe(`${base}?page=1`);
  });
});
