import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Category } from './category.entity';

/** The statements of the category hierarchy; the rest of a category's are the shared TermStore's. */
@Injectable()
export class CategoriesRepository {
  /** The category's parent id (null at the top level or when there is no such category). */
  async parentIdOf(manager: EntityManager, categoryId: number): Promise<number | null> {
    const category = await manager.getRepository(Category).findOne({ where: { id: categoryId }, select: { id: true, parentId: true } });
    return category?.parentId ?? null;
  }

  /** The children of a category get `parentId` as their parent. */
  async reparentChildren(manager: EntityManager, categoryId: number, parentId: number | null): Promise<void> {
    await manager.getRepository(Category).update({ parentId: categoryId }, { parentId });
  }
}
