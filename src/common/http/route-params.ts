import { Injectable, PipeTransform } from '@nestjs/common';
import { noRoute } from '../errors/api-error';
import { toBoolean } from './transforms';

/**
 * `{id}` path segments match digits only, as the original's `(?P<id>\d+)` routes do: anything else
 * is no route at all (404 `rest_no_route`), never a validation error.
 */
@Injectable()
export class RouteIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,10}$/.test(value) || Number(value) > 2_147_483_647) throw noRoute();
    return Number(value);
  }
}

/** `?force=true` on deletes; anything but a true-ish value means false. */
export function readForceFlag(raw: unknown): boolean {
  return toBoolean(Array.isArray(raw) ? raw[raw.length - 1] : raw) === true;
}
