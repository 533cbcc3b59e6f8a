import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { PostEntity } from '../posts/post.entity-base';
import type { LinkedPostResource } from './linked-post-resource';

/** Statements of the rules venues and organizers share (LinkedPostsService). */
@Injectable()
export class LinkedPostsRepository {
  /** The id, status and author of each post of these ids (those that exist). */
  linkablePosts<T extends PostEntity>(manager: EntityManager, resource: LinkedPostResource<T>, ids: number[]): Promise<T[]> {
    const alias = resource.type;
    return manager
      .createQueryBuilder(resource.entity, alias)
      .select([`${alias}.id`, `${alias}.status`, `${alias}.authorId`])
      .where(`${alias}.id IN (:...ids)`, { ids })
      .getMany();
  }

  /** Inserts or updates the post; answers it as saved. */
  save<T extends PostEntity>(manager: EntityManager, post: T): Promise<T> {
    return manager.save(post);
  }
}
