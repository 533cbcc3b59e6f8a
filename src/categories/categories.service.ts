import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
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
    dataSource: DataSource,
    private readonly repository: CategoriesRepository,
  ) {
    super(dataSource, new TermStore<Category>(CATEGORY_TABLE));
  }

  protected override async readExtraFilters(manager: EntityManager, query: ListCategoriesQuery): Promise<Partial<TermListFilters>> {
    if (query.parent === undefined) return {};
    if (query.parent === 0) return { parentId: null };
    await this.store.findAllOrFail(manager, [query.parent], 'parent');
    return { parentId: query.parent };
  }

  protected override nameLevel(category: Category): number | null {
    return category.parentId ?? null;
  }

  protected override async checkBodyReferences(manager: EntityManager, dto: UpdateCategoryDto): Promise<void> {
    if (dto.parent) await this.store.findAllOrFail(manager, [dto.parent], 'parent');
  }

  protected override async applyHierarchy(manager: EntityManager, category: Category, dto: UpdateCategoryDto): Promise<void> {
    if (dto.parent === undefined) return;
    const parentId = dto.parent || null;
    if (parentId !== null && category.id !== undefined) await this.assertNotInOwnSubtree(manager, category.id, parentId);
    category.parentId = parentId;
  }

  protected override async beforeRemove(manager: EntityManager, category: Category): Promise<void> {
    await this.repository.reparentChildren(manager, category.id, category.parentId ?? null);
  }

  /**
   * `categoryIds` without those under another of them: a category lists its descendants' events
   * (migration CategoryTreeListings), so a descendant asked for with its ancestor adds nothing.
   */
  async outermost(manager: EntityManager, categoryIds: number[]): Promise<number[]> {
    if (categoryIds.length < 2) return categoryIds;
    const under = await this.repository.underAnother(manager, categoryIds);
    return categoryIds.filter((id) => !under.has(id));
  }

  /** Walks up from the proposed parent; meeting the category itself means a cycle. */
  private async assertNotInOwnSubtree(manager: EntityManager, categoryId: number, parentId: number): Promise<void> {
    const visited = new Set<number>();
    let ancestorId: number | null = parentId;
    while (ancestorId !== null && !visited.has(ancestorId)) {
      if (ancestorId === categoryId) throw invalidParam('parent', 'parent must not be the category itself or one of its descendants');
      visited.add(ancestorId);
      ancestorId = await this.repository.parentIdOf(manager, ancestorId);
    }
  }
}
