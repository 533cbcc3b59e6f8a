import { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import type { PostEntity } from './post.entity-base';
import type { PostType } from './post-response';

/**
 * Deleting a post as decisions.md says: without `force` it goes to the trash (410
 * `{type}-is-in-trash` when it is there already); with `force` it is removed for good. Returns the
 * post as it was last (trashed, or as it stood before removal) for the 200 response.
 */
export async function trashOrRemove<T extends PostEntity>(manager: EntityManager, post: T, type: PostType, force: boolean): Promise<T> {
  if (force) {
    const snapshot = { ...post };
    await manager.remove(post);
    return Object.assign(post, snapshot);
  }
  if (post.status === 'trash') {
    throw new ApiError(`${type}-is-in-trash`, `The ${type} is already trashed`, 410);
  }
  post.status = 'trash';
  return manager.save(post);
}
