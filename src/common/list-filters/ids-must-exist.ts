import { EntityManager, EntityTarget, In } from 'typeorm';
import { invalidParam } from '../errors/api-error';

/** The ids of `ids` that name no row of `entity`, each once, in the order given. */
export async function findMissingIds(manager: EntityManager, entity: EntityTarget<{ id: number }>, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await manager.find(entity, { select: { id: true }, where: { id: In(unique) } });
  const existing = new Set(found.map((row) => row.id));
  return unique.filter((id) => !existing.has(id));
}

/** What a 400 says of a parameter naming rows that do not exist. */
export function missingIdsReason(field: string, missing: number[]): string {
  return `${field} refers to nothing: ${missing.join(', ')}`;
}

/** 400 `rest_invalid_param` naming `field` unless every id of `ids` names a row of `entity`. */
export async function assertIdsExist(
  manager: EntityManager,
  entity: EntityTarget<{ id: number }>,
  ids: number[],
  field: string,
): Promise<void> {
  const missing = await findMissingIds(manager, entity, ids);
  if (missing.length > 0) throw invalidParam(field, missingIdsReason(field, missing));
}
