import { routeIdOf, RouteIdPipe } from './route-params';

describe('RouteIdPipe', () => {
  const pipe = new RouteIdPipe();

  it('reads digits as the id', () => {
    expect(pipe.transform('42')).toBe(42);
    expect(pipe.transform('2147483647')).toBe(2_147_483_647);
  });

  it('gives ids beyond the INT range as the first id no row can have, however long', () => {
    expect(pipe.transform('2147483648')).toBe(2_147_483_648);
    expect(pipe.transform('99999999999')).toBe(2_147_483_648);
    expect(pipe.transform('9'.repeat(400))).toBe(2_147_483_648);
  });

  it.each(['abc', '-1', '1.5', '', '1e3'])('is no route for %j', (value) => {
    expect(() => pipe.transform(value)).toThrow(expect.objectContaining({ code: 'rest_no_route' }));
  });
});

describe('RouteIdPipe after the global ValidationPipe made the segment a number', () => {
  const pipe = new RouteIdPipe();

  it('reads whole numbers, clamping those past the INT range', () => {
    expect(pipe.transform(42)).toBe(42);
    expect(pipe.transform(Number('9'.repeat(40)))).toBe(2_147_483_648);
    expect(pipe.transform(Number('9'.repeat(400)))).toBe(2_147_483_648);
  });

  it.each([Number.NaN, -1, 1.5])('is no route for %p', (value) => {
    expect(() => pipe.transform(value)).toThrow(expect.objectContaining({ code: 'rest_no_route' }));
  });
});

describe('routeIdOf', () => {
  it('reads a segment as RouteIdPipe does, and null where the pipe answers no route', () => {
    for (const segment of ['42', '2147483648', '9'.repeat(400)]) expect(routeIdOf(segment)).toBe(new RouteIdPipe().transform(segment));
    for (const segment of ['abc', '-1', '1.5', '', '1e3', 'ics']) expect(routeIdOf(segment)).toBeNull();
  });
});
