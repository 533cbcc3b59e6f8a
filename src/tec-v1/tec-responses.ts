import { ApiError } from '../common/errors/api-error';
import { ByteAssembler } from '../common/http/byte-assembler';
import type { JsonText } from '../common/http/json-text';
import { entityAlreadyTrashed, entityNotFound, pageNotFound, TecOperation } from './tec-errors';
import { renameParams } from './tec-input.pipe';

/** One page of a tec/v1 list: the items, and what the X-WP-* and Link headers say. */
export interface TecPage<T> {
  items: T[];
  page: number;
  total: number;
  totalPages: number;
}

/** A page number from a query the tec/v1 pipe has passed (a number or its text). */
export function pageNumber(query: { page?: unknown }): number {
  const page = Number(query.page ?? 1);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/**
 * The errors of the events and tickets namespaces' services as TEC answers them: a missing entity
 * and one trashed already get TEC's `{"error"}` bodies, a page past the last TEC's 404, and
 * fields are named as tec/v1 names them.
 */
export function asTecError(error: unknown, operation: TecOperation, tecName: Record<string, string> = {}): unknown {
  if (!(error instanceof ApiError)) return error;
  const status = error.getStatus();
  if (/-archive-page-not-found$/.test(error.code) || error.code === 'invalid-page-number') return pageNotFound();
  if (status === 404 && /-not-found$/.test(error.code)) return entityNotFound(operation);
  if (status === 410 && /-is-in-trash$/.test(error.code)) return entityAlreadyTrashed();
  return renameParams(error, tecName);
}

/** Runs `work`, answering its errors as tec/v1 does (asTecError). */
export async function asTec<T>(operation: TecOperation, work: () => Promise<T>, tecName?: Record<string, string>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asTecError(error, operation, tecName);
  }
}

/** The objects a pre-serialized answer of the events namespace holds. */
export async function parseJsonText<T>(text: JsonText): Promise<T> {
  const bytes = text.body instanceof ByteAssembler ? text.body : (await text.body.assemble()).bytes;
  return JSON.parse(bytes.toBuffer().toString('utf8')) as T;
}

/** The items of a page of pre-serialized list items (comma-joined JSON objects). */
export function parseJsonItems<T>(items: ByteAssembler): T[] {
  return JSON.parse(`[${items.toBuffer().toString('utf8')}]`) as T[];
}
