import { EntityManager, EntityTarget, Repository, SelectQueryBuilder } from 'typeorm';
import { EventCategoryLink, EventTagLink } from '../events/event-links.entity';
import { invalidParam } from '../common/errors/api-error';
import { missingIdsReason } from '../common/list-filters/ids-must-exist';
import type { PageRequest } from '../common/pagination/pagination';
import { escapeLike } from '../posts/post-query';
import { slugify, uniqueSlug } from '../posts/slugs';
import type { TermOrderField } from './list-terms.query';
import type { CountedTerm, TermEntity, TermKind } from './term-response';
import { isUniqueViolation } from '../common/database/transactions';
import { SqlDialect } from '../database/sql-dialect';

/** Where one kind of term lives: its table, its link table to events and the event field naming it. */
export interface TermTable<T extends TermEntity> {
  kind: TermKind;
  entity: EntityTarget<T>;
  link: EntityTarget<EventCategoryLink | EventTagLink>;
  /** Property of the link entity holding the term id. */
  linkTermProperty: 'categoryId' | 'tagId';
  /** Field of an event body carrying terms of this kind, named in errors. */
  eventField: 'categories' | 'tags';
}

export interface TermListFilters {
  search?: string;
  include?: number[];
  exclude?: number[];
  slug?: string;
  eventId?: number;
  /** Categories only: a parent id, or null for top-level terms. */
  parentId?: number | null;
  hideEmpty: boolean;
  orderBy: TermOrderField;
  order: 'ASC' | 'DESC';
}

const PUBLISHED = 'publish';
const MAX_SLUG_ATTEMPTS = 3;

const ORDER_EXPRESSIONS: Record<TermOrderField, string> = {
  id: 'term.id',
  name: 'LOWER(term.name)',
  slug: 'term.slug',
  count: 'term.publishedEventCount',
};

/**
 * Queries shared by categories and tags. Every method takes the EntityManager to run on, so
 * callers choose whether it happens inside their transaction.
 */
export class TermStore<T extends TermEntity> {
  constructor(readonly table: TermTable<T>) {}

  repository(manager: EntityManager): Repository<T> {
    return manager.getRepository<T>(this.table.entity);
  }

  /** Counts each id's published events anew from the links (for rows written outside the events service). */
  async recountPublishedEvents(manager: EntityManager, ids: number[]): Promise<void> {
    const uniqueIds = [...new Set(ids)];
    if (uniqueIds.length === 0) return;
    const metadata = manager.connection.getMetadata(this.table.entity);
    const linkMetadata = manager.connection.getMetadata(this.table.link);
    const linkColumn = linkMetadata.findColumnWithPropertyName(this.table.linkTermProperty)!.databaseName;
    await manager.query(
      `UPDATE ${metadata.tableName} SET published_event_count = (SELECT COUNT(*) FROM ${linkMetadata.tableName} l INNER JOIN events e ON e.id = l.event_id ` +
        `WHERE l.${linkColumn} = ${metadata.tableName}.id AND e.status = ?) WHERE id IN (${uniqueIds.map(() => '?').join(', ')})`,
      [PUBLISHED, ...uniqueIds],
    );
  }

  /**
   * Locks the rows of these ids until the transaction ends, in ascending id order (one locking read
   * walking the primary key), where rows can be locked; SQLite's writers are serial already.
   */
  async lockRows(manager: EntityManager, ids: number[]): Promise<void> {
    const dialect = SqlDialect.of(manager);
    if (ids.length === 0 || !dialect.rowLocks) return;
    await dialect
      .forUpdate(this.repository(manager).createQueryBuilder('term'))
      .select('term.id')
      .where('term.id IN (:...lockedIds)', { lockedIds: [...new Set(ids)] })
      .orderBy('term.id', 'ASC')
      .getRawMany();
  }

  /** Adds `delta` to the stored count of each id. */
  async adjustPublishedEvents(manager: EntityManager, ids: number[], delta: number): Promise<void> {
    if (ids.length === 0 || delta === 0) return;
    await this.repository(manager)
      .createQueryBuilder()
      .update()
      .set({ publishedEventCount: () => 'published_event_count + :countDelta' } as never)
      .where('id IN (:...adjustedIds)', { adjustedIds: [...new Set(ids)] })
      .setParameter('countDelta', Math.trunc(delta))
      .execute();
  }

  /** One page of terms with their counts (one query) and the number of matching terms (one more). */
  async findPage(
    manager: EntityManager,
    filters: TermListFilters,
    page: PageRequest,
  ): Promise<{ items: Array<CountedTerm<T>>; total: number }> {
    const filtered = (): SelectQueryBuilder<T> => {
      const query = this.repository(manager).createQueryBuilder('term');
      if (filters.hideEmpty) query.andWhere('term.publishedEventCount > 0');
      this.applyFilters(query, filters);
      return query;
    };
    const total = await filtered().getCount();
    const entities = await filtered()
      .orderBy(ORDER_EXPRESSIONS[filters.orderBy], filters.order)
      .addOrderBy('term.id', filters.order)
      .offset(page.offset)
      .limit(page.perPage)
      .getMany();
    return { items: entities.map((term) => ({ term, count: term.publishedEventCount })), total };
  }

  private applyFilters(query: SelectQueryBuilder<T>, filters: TermListFilters): void {
    if (filters.search) {
      query.andWhere("(LOWER(term.name) LIKE LOWER(:search) ESCAPE '!' OR LOWER(term.slug) LIKE LOWER(:search) ESCAPE '!')", {
        search: `%${escapeLike(filters.search)}%`,
      });
    }
    if (filters.include && filters.include.length > 0) query.andWhere('term.id IN (:...includedIds)', { includedIds: filters.include });
    if (filters.exclude && filters.exclude.length > 0) query.andWhere('term.id NOT IN (:...excludedIds)', { excludedIds: filters.exclude });
    if (filters.slug !== undefined) query.andWhere('term.slug = :slug', { slug: filters.slug.toLowerCase() });
    if (filters.parentId === null) query.andWhere('term.parentId IS NULL');
    if (typeof filters.parentId === 'number') query.andWhere('term.parentId = :parentId', { parentId: filters.parentId });
    if (filters.eventId !== undefined) {
      query.andWhere(
        (outer) =>
          `term.id IN ${outer
            .subQuery()
            .select(`event_link.${this.table.linkTermProperty}`)
            .from(this.table.link, 'event_link')
            .where('event_link.eventId = :linkedEventId')
            .getQuery()}`,
        { linkedEventId: filters.eventId },
      );
    }
  }

  findById(manager: EntityManager, id: number): Promise<T | null> {
    return this.repository(manager).createQueryBuilder('term').where('term.id = :id', { id }).getOne();
  }

  /** Slugs are stored in lower case, so the path's slug is compared in lower case too. */
  findBySlug(manager: EntityManager, slug: string): Promise<T | null> {
    return this.repository(manager).createQueryBuilder('term').where('term.slug = :slug', { slug: slug.toLowerCase() }).getOne();
  }

  /**
   * The oldest term named `name` (case-insensitive), optionally at one level of the hierarchy
   * (`parentId` null = top level) and other than `excludeId`. The database's LOWER() finds candidates; the final comparison
   * is done here so that MariaDB's accent-insensitive collation does not make "Cafe" equal "Café".
   */
  async findByName(manager: EntityManager, name: string, parentId?: number | null, excludeId?: number): Promise<T | null> {
    const query = this.repository(manager)
      .createQueryBuilder('term')
      .where('LOWER(term.name) = LOWER(:name)', { name })
      .orderBy('term.id', 'ASC');
    if (excludeId !== undefined) query.andWhere('term.id <> :excludeId', { excludeId });
    if (parentId === null) query.andWhere('term.parentId IS NULL');
    if (typeof parentId === 'number') query.andWhere('term.parentId = :parentId', { parentId });
    const candidates = await query.getMany();
    return candidates.find((candidate) => sameName(candidate.name, name)) ?? null;
  }

  /** The terms with these names, any level, in one query; the oldest wins for each name. */
  async findByNames(manager: EntityManager, names: string[]): Promise<T[]> {
    if (names.length === 0) return [];
    const placeholders = names.map((_name, index) => `LOWER(:termName${index})`).join(', ');
    const parameters = Object.fromEntries(names.map((name, index) => [`termName${index}`, name]));
    return this.repository(manager)
      .createQueryBuilder('term')
      .where(`LOWER(term.name) IN (${placeholders})`, parameters)
      .orderBy('term.id', 'ASC')
      .getMany();
  }

  private async findByIds(manager: EntityManager, ids: number[]): Promise<{ found: T[]; missing: number[] }> {
    const uniqueIds = [...new Set(ids)];
    if (uniqueIds.length === 0) return { found: [], missing: [] };
    const found = await this.repository(manager).createQueryBuilder('term').where('term.id IN (:...ids)', { ids: uniqueIds }).getMany();
    const known = new Set(found.map((term) => term.id));
    return { found, missing: uniqueIds.filter((id) => !known.has(id)) };
  }

  /** The terms with these ids; 400 naming `field` when one of them does not exist. */
  async findAllOrFail(manager: EntityManager, ids: number[], field: string): Promise<T[]> {
    const { found, missing } = await this.findByIds(manager, ids);
    if (missing.length > 0) throw invalidParam(field, missingIdsReason(field, missing));
    return found;
  }

  /**
   * Saves `term`, first giving it a slug made unique from `desiredSlug` when one is given (a
   * name or a requested slug; the kind's name when nothing URL-friendly is left of it).
   */
  async saveWithSlug(manager: EntityManager, term: T, desiredSlug?: string): Promise<T> {
    const repository = this.repository(manager);
    if (desiredSlug === undefined) return repository.save(term);
    // Both term entities have the id and slug uniqueSlug reads; TypeScript cannot see that through T.
    const slugs = repository as unknown as Repository<{ id: number; slug: string }>;
    let desired = slugify(desiredSlug) || this.table.kind;
    for (let attempt = 1; ; attempt += 1) {
      term.slug = await uniqueSlug(slugs, desired, term.id);
      try {
        return await repository.save(term);
      } catch (error) {
        // A concurrent write took the slug between our check and our insert.
        if (!isUniqueViolation(error) || attempt >= MAX_SLUG_ATTEMPTS) throw error;
        // The snapshot of a running transaction may not show the row that took the slug.
        desired = `${term.slug}-${attempt + 1}`;
      }
    }
  }
}

function sameName(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}
