import type { Request, Response } from 'express';
import { restRouteRewrite } from './rest-route';

function rewrite(url: string, apiRoot = '/wp-json'): string {
  const request = { url } as Request;
  const next = jest.fn();
  restRouteRewrite(apiRoot)(request, {} as Response, next);
  expect(next).toHaveBeenCalledWith();
  return request.url;
}

describe('restRouteRewrite', () => {
  it('turns the query form into the path form under the API root, keeping the other parameters', () => {
    expect(rewrite('/?rest_route=/tribe/events/v1/events/6')).toBe('/wp-json/tribe/events/v1/events/6');
    expect(rewrite('/index.php?rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents&per_page=5&page=2')).toBe(
      '/wp-json/tribe/events/v1/events?per_page=5&page=2',
    );
    expect(rewrite('/?page=2&rest_route=tribe/events/v1/events', '')).toBe('/tribe/events/v1/events?page=2');
  });

  it('leaves other URLs alone: other paths, no rest_route, an empty or repeated one', () => {
    for (const url of [
      '/wp-json/tribe/events/v1/events?rest_route=/x',
      '/?page=2',
      '/',
      '/?rest_route=',
      '/?rest_route=/a&rest_route=/b',
      '/health',
    ]) {
      expect(rewrite(url)).toBe(url);
    }
  });
});
