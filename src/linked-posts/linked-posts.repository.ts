import { Injectable } from '@nestjs/common';
import type { PostEntity } from '../posts/post.entity-base';
import type { LinkedPostResource } from './linked-post-resource';
import { TransactionHost } from '../common/database/transaction-host';

/** Statements of the rules venues and organizers share (LinkedPostsService). */
@Injectable()
export class LinkedPostsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The id, status and author of each post of these ids (those that exist). */
  linkablePosts<T extends PostEntity>(resource: LinkedPostResource<T>, ids: number[]): Promise<T[]> {
    const manager = this.tx.manager;
    const alias = resource.type;
    return manager
      .createQueryBuilder(resource.entity, alias)
      .select([`${alias}.id`, `${alias}.status`, `${alias}.authorId`])
      .where(`${alias}.id IN (:...ids)`, { ids })
      .getMany();
  }

  /** Inserts or updates the post; answers it as saved. */
  save<T extends PostEntity>(post: T): Promise<T> {
    const manager = this.tx.manager;
    return manager.save(post);
  }
}
