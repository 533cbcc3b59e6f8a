import { Injectable } from '@nestjs/common';
import { invalidParam } from '../common/errors/api-error';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { idempotencyKeyReused } from './order-errors';

/** Keys are remembered this long; an older key counts as never used. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** `status_code` of the row a running request inserts first; it is filled in before commit. */
const IN_PROGRESS = 0;

export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters; absent means no idempotency. */
export function readIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const key = value.trim();
  if (!KEY_PATTERN.test(key)) throw invalidParam('Idempotency-Key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  return key;
}

/**
 * First responses of requests sent with an `Idempotency-Key`, per buyer scope. A request claims its
 * key by inserting the row at the start of its own transaction, so the unique index on
 * (scope, key) decides races: a concurrent retry waits for the first and then replays its response.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyKeysRepository) {}

  /**
   * The response stored for this key, if it is younger than a day; 422 when the key came with another
   * body. A row still being written by a running request is not an answer yet.
   */
  async find(scope: string, key: string, requestHash: string, now: Date): Promise<StoredResponse | null> {
    return (await this.lookup(scope, key, requestHash, now)).response;
  }

  /** As find, and whether the key has a row at all (a stale or running one), which claim must then replace or wait for. */
  async lookup(scope: string, key: string, requestHash: string, now: Date): Promise<{ response: StoredResponse | null; exists: boolean }> {
    const row = await this.keys.find(scope, key);
    if (!row) return { response: null, exists: false };
    if (row.statusCode === IN_PROGRESS || this.isStale(row, now)) return { response: null, exists: true };
    if (row.requestHash !== requestHash) throw idempotencyKeyReused();
    return { response: { statusCode: row.statusCode, body: JSON.parse(row.responseBody) as unknown }, exists: true };
  }

  /**
   * Claims the key inside the caller's transaction; fails on the unique index if taken. A stale row
   * is replaced: `exists` says whether lookup saw a row (none seen: no stale row to delete, as a row
   * written since is new).
   */
  async claim(scope: string, key: string, requestHash: string, now: Date, exists = true): Promise<void> {
    if (exists) await this.keys.deleteIfCreatedBy(scope, key, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS));
    await this.keys.insert({
      scope,
      idempotencyKey: key,
      requestHash,
      statusCode: IN_PROGRESS,
      responseBody: '',
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * Claims the key and stores its response in one INSERT, at the end of the work it describes and in
   * its transaction (the checkout: one statement of bookkeeping, held with the checkout's writes on
   * MariaDB). The unique index still decides races: a concurrent request with the key fails on it
   * (or, waiting for the same cart's lines, finds them gone) and replays this response. A row older
   * than a day in the way is deleted first (forgetStale) by a second try.
   */
  async remember(scope: string, key: string, requestHash: string, response: StoredResponse, now: Date): Promise<void> {
    await this.keys.insert({
      scope,
      idempotencyKey: key,
      requestHash,
      statusCode: response.statusCode,
      responseBody: JSON.stringify(response.body),
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Deletes the key's row if it is older than a day (such a key counts as never used), for remember to write it again. */
  async forgetStale(scope: string, key: string, now: Date): Promise<void> {
    await this.keys.deleteIfCreatedBy(scope, key, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS));
  }

  /** Stores the response in the claimed row, in the same transaction as the work it describes. */
  async record(scope: string, key: string, response: StoredResponse): Promise<void> {
    await this.keys.setResponse(scope, key, response);
  }

  purgeStale(now: Date): Promise<number> {
    return this.keys.deleteCreatedBy(new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS));
  }

  private isStale(row: IdempotencyKey, now: Date): boolean {
    return now.getTime() - row.createdAt.getTime() >= IDEMPOTENCY_KEY_TTL_MS;
  }
}
