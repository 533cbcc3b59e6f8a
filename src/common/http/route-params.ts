import { Injectable, PipeTransform } from '@nestjs/common';
import { noRoute } from '../errors/api-error';
import { toBoolean } from './transforms';

/** The largest id an INT column holds: ids of every resource are INT. */
const MAX_ROW_ID = 2_147_483_647;

/**
 * `{id}` path segments match digits only, as the original's `(?P<id>\d+)` routes do: anything else
 * is no route at all (404 `rest_no_route`), never a validation error. Digits beyond the column's
 * range are a route to a row that cannot exist: they come through as the first id past the range,
 * so that each resource answers its own not-found (`ticket-not-found`, ...) after its usual checks,
 * as the original does for any id it does not find.
 */
@Injectable()
export class RouteIdPipe implements PipeTransform<string | number, number> {
  transform(value: string | number): number {
    // The global ValidationPipe has already turned the segment into a number (`id: number`) when it reads as one.
    const id = typeof value === 'number' ? value : (routeIdOf(value) ?? Number.NaN);
    if (!(Number.isInteger(id) || id === Number.POSITIVE_INFINITY) || id < 0) throw noRoute();
    return Math.min(id, MAX_ROW_ID + 1);
  }
}

/** The `{id}` segment as RouteIdPipe reads it, or null where it is no route (anything but digits). */
export function routeIdOf(segment: string): number | null {
  return /^\d+$/.test(segment) ? Math.min(Number(segment), MAX_ROW_ID + 1) : null;
}

/** `?force=true` on deletes; anything but a true-ish value means false. */
export function readForceFlag(raw: unknown): boolean {
  return toBoolean(Array.isArray(raw) ? raw[raw.length - 1] : raw) === true;
}
