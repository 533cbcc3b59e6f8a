import { EntityManager, EntityTarget, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { EventCategoryLink, EventTagLink } from '../../events/event-links.entity';
import { Event } from '../../events/event.entity';
import { invalidParam } from '../errors/api-error';
import type { PageRequest } from '../pagination/pagination';
import { escapeLike } from '../posts/post-query';
import { slugify, uniqueSlug } from '../posts/slugs';
import type { TermOrderField } from './list-terms.query';
import type { CountedTerm, TermEntity, TermKind } from './term-response';

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
  count: 'COALESCE(term_counts.event_count, 0)',
};

/** A concurrent write took the slug between our check and our insert. */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  const driverCode = driverError?.code ?? code;
  return driverCode === 'ER_DUP_ENTRY' || driverCode === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Queries shared by categories and tags. Every method takes the EntityManager to run on, so
 * callers choose whether it happens inside their transaction.
 */
export class TermStore<T extends TermEntity> {
  constructor(readonly table: TermTable<T>) {}

  repository(manager: EntityManager): Repository<T> {
    return manager.getRepository<T>(this.table.entity);
  }

  /** `(term id, published event count)` rows of the link table, one per term with at least one. */
  private publishedCounts(query: SelectQueryBuilder<ObjectLiteral>): SelectQueryBuilder<ObjectLiteral> {
    const termColumn = `link.${this.table.linkTermProperty}`;
    return query
      .select(termColumn, 'linked_term_id')
      .addSelect('COUNT(*)', 'event_count')
      .from(this.table.link, 'link')
      .innerJoin(Event, 'linked_event', 'linked_event.id = link.eventId')
      .where('linked_event.status = :publishedStatus', { publishedStatus: PUBLISHED })
      .groupBy(termColumn);
  }

  /** Number of published events linked to each id (0 for ids without any), in one grouped query. */
  async countPublishedEvents(manager: EntityManager, ids: number[]): Promise<Map<number, number>> {
    const uniqueIds = [...new Set(ids)];
    const counts = new Map<number, number>(uniqueIds.map((id) => [id, 0]));
    if (uniqueIds.length === 0) return counts;
    const rows = await this.publishedCounts(manager.createQueryBuilder())
      .andWhere(`link.${this.table.linkTermProperty} IN (:...countedTermIds)`, { countedTermIds: uniqueIds })
      .getRawMany<{ linked_term_id: number | string; event_count: number | string }>();
    for (const row of rows) counts.set(Number(row.linked_term_id), Number(row.event_count));
    return counts;
  }

  /** One page of terms with their counts (one query) and the number of matching terms (one more). */
  async findPage(manager: EntityManager, filters: TermListFilters, page: PageRequest): Promise<{ items: Array<CountedTerm<T>>; total: number }> {
    const filtered = (withCounts: boolean): SelectQueryBuilder<T> => {
      const query = this.repository(manager).createQueryBuilder('term');
      if (filters.hideEmpty) query.innerJoin((subQuery) => this.publishedCounts(subQuery), 'term_counts', 'term_counts.linked_term_id = term.id');
      else if (withCounts) query.leftJoin((subQuery) => this.publishedCounts(subQuery), 'term_counts', 'term_counts.linked_term_id = term.id');
      this.applyFilters(query, filters);
      return query;
    };
    const total = await filtered(false).getCount();
    const { entities, raw } = await filtered(true)
      .addSelect(ORDER_EXPRESSIONS.count, 'published_event_count')
      .orderBy(ORDER_EXPRESSIONS[filters.orderBy], filters.order)
      .addOrderBy('term.id', filters.order)
      .offset(page.offset)
      .limit(page.perPage)
      .getRawAndEntities<{ term_id: number | string; published_event_count: number | string }>();
    const countsById = new Map(raw.map((row) => [Number(row.term_id), Number(row.published_event_count)]));
    return { items: entities.map((term) => ({ term, count: countsById.get(term.id) ?? 0 })), total };
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

  /** The ids among `ids` that are no term of this kind. */
  async missingIds(manager: EntityManager, ids: number[]): Promise<number[]> {
    return (await this.findByIds(manager, ids)).missing;
  }

  /** The terms with these ids; 400 naming `field` when one of them does not exist. */
  async findAllOrFail(manager: EntityManager, ids: number[], field: string): Promise<T[]> {
    const { found, missing } = await this.findByIds(manager, ids);
    if (missing.length > 0) throw invalidParam(field, unknownTermsReason(field, missing));
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
        if (!isUniqueViolation(error) || attempt >= MAX_SLUG_ATTEMPTS) throw error;
        // The snapshot of a running transaction may not show the row that took the slug.
        desired = `${term.slug}-${attempt + 1}`;
      }
    }
  }
}

export function unknownTermsReason(field: string, missingIds: number[]): string {
  return `${field} refers to terms that do not exist: ${missingIds.join(', ')}`;
}

function sameName(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}

/** 400 naming `field` unless `eventId` is an event (of any status). */
export async function assertEventExists(manager: EntityManager, eventId: number, field: string): Promise<void> {
  const exists = await manager.getRepository(Event).exists({ where: { id: eventId } });
  if (!exists) throw invalidParam(field, `${field} must be the id of an existing event`);
}
