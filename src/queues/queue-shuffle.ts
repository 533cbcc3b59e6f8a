import { createHmac } from 'node:crypto';

/**
 * The pre-queue's raffle: entries that joined before `opens_at` are ordered by HMAC-SHA256(seed,
 * entry id), a seeded permutation that neither the join time nor the id predicts without the seed
 * (kept on the queue row, never shown), and that any instance recomputes to the same order.
 * Returns the ids in their new order: the first gets position `firstPosition`, and so on.
 */
export function shuffledOrder(seed: string, entryIds: readonly number[]): number[] {
  const keyed = entryIds.map((id) => ({ id, key: createHmac('sha256', seed).update(String(id)).digest('hex') }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
  return keyed.map((entry) => entry.id);
}
