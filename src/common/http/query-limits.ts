import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError, invalidParam } from '../errors/api-error';
import { PARSE_LIMITS } from './body-parsers';

/** A query parameter's name as sent: the part of `name=value` before `=`, percent-decoded when it can be. */
function parameterName(pair: string): string {
  const raw = pair.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `a[b][c]` has two levels of brackets. */
function bracketLevels(name: string): number {
  return name.match(/\[[^[\]]*\]/g)?.length ?? 0;
}

/**
 * Query strings within PARSE_LIMITS, refused with 400 rather than cut silently (qs drops the
 * parameters after the limit and keeps deeper brackets as literal key text): at most 1000
 * parameters and 5 levels of brackets, the same as form bodies.
 */
export function queryStringLimits(): RequestHandler {
  return (request: Request, _response: Response, next: NextFunction) => {
    const query = request.originalUrl.includes('?') ? request.originalUrl.slice(request.originalUrl.indexOf('?') + 1) : '';
    if (query === '') return next();
    const pairs = query.split('&').filter((pair) => pair !== '');
    if (pairs.length > PARSE_LIMITS.parameterLimit) {
      return next(new ApiError('rest_bad_request', `The query string has more than ${PARSE_LIMITS.parameterLimit} parameters.`, 400));
    }
    for (const pair of pairs) {
      const name = parameterName(pair);
      if (bracketLevels(name) > PARSE_LIMITS.depth) {
        const root = name.split('[', 1)[0];
        return next(invalidParam(root, `${root} is nested deeper than ${PARSE_LIMITS.depth} levels of brackets`));
      }
    }
    return next();
  };
}
