import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../common/database/transaction-host';
import { invalidParam } from '../common/errors/api-error';
import { TermListFilters, TermStore } from '../terms/term-store';
import { TermsService } from '../terms/terms.service';
import { EventCategoryLink } from '../events/event-links.entity';
import { CategoriesRepository } from './categories.repository';
import { Category } from './category.entity';
import { CreateCategoryDto } from './dto/create-category.dto';
import { ListCategoriesQuery } from './dto/list-categories.query';
import { UpdateCategoryDto } from './dto/update-category.dto';

const CATEGORY_TABLE = {
  kind: 'category',
  entity: Category,
  link: EventCategoryLink,
  linkTermProperty: 'categoryId',
  eventField: 'categories',
} as const;

/**
 * Event categories: the shared term rules plus the hierarchy. A parent must exist and may not be
 * the category itself or one of its descendants; names are unique among siblings; deleting a
 * category hands its children to its own parent.
 */
@Injectable()
export class CategoriesService extends TermsService<Category, CreateCategoryDto, ListCategoriesQuery> {
  protected override readonly extraListParameters = ['parent'] as const;

  constructor(
    tx: TransactionHost,
    private readonly repository: CategoriesRepository,
  ) {
    super(tx, new TermStore<Category>(CATEGORY_TABLE));
  }

  protected override async readExtraFilters(query: ListCategoriesQuery): Promise<Partial<TermListFilters>> {
    const manager = this.tx.manager;
    if (query.parent === undefined) return {};
    if (query.parent === 0) return { parentId: null };
    await this.store.findAllOrFail(manager, [query.parent], 'parent');
    return { parentId: query.parent };
  }

  protected override nameLevel(category: Category): number | null {
    return category.parentId ?? null;
  }

  protected override async checkBodyReferences(dto: UpdateCategoryDto): Promise<void> {
    const manager = this.tx.manager;
    if (dto.parent) await this.store.findAllOrFail(manager, [dto.parent], 'parent');
  }

  protected override async applyHierarchy(category: Category, dto: UpdateCategoryDto): Promise<void> {
    if (dto.parent === undefined) return;
    const parentId = dto.parent || null;
    if (parentId !== null && category.id !== undefined) await this.assertNotInOwnSubtree(category.id, parentId);
    category.parentId = parentId;
  }

  protected override async beforeRemove(category: Category): Promise<void> {
    await this.repository.reparentChildren(category.id, category.parentId ?? null);
  }

  /**
   * `categoryIds` without those under another of them: a category lists its descendants' events
   * (migration CategoryTreeListings), so a descendant asked for with its ancestor adds nothing.
   */
  async outermost(categoryIds: number[]): Promise<number[]> {
    if (categoryIds.length < 2) return categoryIds;
    const under = await this.repository.underAnother(categoryIds);
    return categoryIds.filter((id) => !under.has(id));
  }

  /** Walks up from the proposed parent; meeting the category itself means a cycle. */
  private async assertNotInOwnSubtree(categoryId: number, parentId: number): Promise<void> {
    const visited = new Set<number>();
    let ancestorId: number | null = parentId;
    while (ancestorId !== null && !visited.has(ancestorId)) {
      if (ancestorId === categoryId) throw invalidParam('parent', 'parent must not be the category itself or one of its descendants');
      visited.add(ancestorId);
      ancestorId = await this.repository.parentIdOf(ancestorId);
    }
  }
}
