import { Injectable } from '@nestjs/common';
import { CategoryAncestor } from './category-ancestor.entity';
import { Category } from './category.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** The statements of the category hierarchy; the rest of a category's are the shared TermStore's. */
@Injectable()
export class CategoriesRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The category's parent id (null at the top level or when there is no such category). */
  async parentIdOf(categoryId: number): Promise<number | null> {
    const manager = this.tx.manager;
    const category = await manager.getRepository(Category).findOne({ where: { id: categoryId }, select: { id: true, parentId: true } });
    return category?.parentId ?? null;
  }

  /** The children of a category get `parentId` as their parent. */
  async reparentChildren(categoryId: number, parentId: number | null): Promise<void> {
    const manager = this.tx.manager;
    await manager.getRepository(Category).update({ parentId: categoryId }, { parentId });
  }

  /** Of `categoryIds`, those with another of them among their ancestors. */
  async underAnother(categoryIds: number[]): Promise<Set<number>> {
    const manager = this.tx.manager;
    const rows = await manager
      .getRepository(CategoryAncestor)
      .createQueryBuilder('tree')
      .select('DISTINCT tree.categoryId', 'categoryId')
      .where('tree.categoryId IN (:...ids)', { ids: categoryIds })
      .andWhere('tree.ancestorId IN (:...ids)')
      .andWhere('tree.ancestorId <> tree.categoryId')
      .getRawMany<{ categoryId: number | string }>();
    return new Set(rows.map((row) => Number(row.categoryId)));
  }
}
