import { canManageTerms } from '../access/term-access';
import { AuthenticatedUser } from '../auth/roles';
import { invalidParam, invalidParams } from '../common/errors/api-error';
import { assertIdsExist, findMissingIds, missingIdsReason } from '../common/list-filters/ids-must-exist';
import { QueryEcho } from '../common/list-filters/query-echo';
import { assertPageInRange, countPages, parsePageRequest, QueryPairs } from '../common/pagination/pagination';
import { Event } from '../events/event.entity';
import { ListTermsQuery, TERM_LIST_PARAMETERS } from './list-terms.query';
import { CreateTermDto, TERM_NAME_MAX_LENGTH } from './term-body.dto';
import { termCreationForbidden, termExists, termNotFound } from './term-errors';
import type { CountedTerm, TermEntity, TermKind, TermListPage } from './term-response';
import { TermListFilters, TermStore } from './term-store';
import { TransactionHost } from '../common/database/transaction-host';

/** A term addressed by the path: `/{id}` or `/by-slug/{slug}`. */
export type TermLocator = { id: number } | { slug: string };

type UpdateTermDto<CreateDto> = Partial<CreateDto>;

/**
 * The rules categories and tags share. Subclasses add what the hierarchy of categories needs
 * through the protected hooks; tags use them as they are.
 */
export abstract class TermsService<T extends TermEntity, CreateDto extends CreateTermDto, ListQuery extends ListTermsQuery> {
  protected constructor(
    protected readonly tx: TransactionHost,
    protected readonly store: TermStore<T>,
  ) {}

  get kind(): TermKind {
    return this.store.table.kind;
  }

  /** List parameters beyond the shared ones, in the order they appear in page links. */
  protected readonly extraListParameters: ReadonlyArray<keyof ListQuery & string> = [];

  /** Filters of this kind only (categories: `parent`), checked against the database. */
  protected async readExtraFilters(_query: ListQuery): Promise<Partial<TermListFilters>> {
    return {};
  }

  /** The level inside which names are unique: a category's parent (null: top level); tags: all. */
  protected nameLevel(_term: T): number | null | undefined {
    return undefined;
  }

  /** Checks ids a body refers to before the term itself is looked up (validation comes first). */
  protected async checkBodyReferences(_dto: UpdateTermDto<CreateDto>): Promise<void> {}

  /** Applies the hierarchy fields of a body to a new or existing term. */
  protected async applyHierarchy(_term: T, _dto: UpdateTermDto<CreateDto>): Promise<void> {}

  /** Runs in the delete's transaction just before the term is removed. */
  protected async beforeRemove(_term: T): Promise<void> {}

  async list(query: ListQuery): Promise<TermListPage<T>> {
    const page = parsePageRequest(query, 'events');
    const manager = this.tx.manager;
    const eventField = query.event !== undefined ? 'event' : 'post';
    const eventId = query.event ?? query.post;
    const reasons: Record<string, string> = {};
    for (const field of ['include', 'exclude'] as const) {
      const missing = await findMissingIds(manager, this.store.table.entity, query[field] ?? []);
      if (missing.length > 0) reasons[field] = missingIdsReason(field, missing);
    }
    if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
    if (eventId !== undefined) await assertIdsExist(manager, Event, [eventId], eventField);
    const filters: TermListFilters = {
      search: query.search,
      include: query.include,
      exclude: query.exclude,
      slug: query.slug,
      eventId,
      hideEmpty: query.hide_empty ?? true,
      orderBy: query.orderby ?? 'name',
      order: query.order === 'desc' ? 'DESC' : 'ASC',
      ...(await this.readExtraFilters(query)),
    };
    const { items, total } = await this.store.findPage(manager, filters, page);
    const totalPages = countPages(total, page.perPage);
    assertPageInRange(page.page, totalPages, { kind: 'empty' });
    const effectiveQuery = { ...query, per_page: query.per_page === undefined ? undefined : page.perPage };
    return { items, page: page.page, total, totalPages, query: this.listQueryPairs(effectiveQuery) };
  }

  async get(locator: TermLocator): Promise<CountedTerm<T>> {
    const term = await this.findOrFail(locator);
    return { term, count: term.publishedEventCount };
  }

  async create(dto: CreateDto): Promise<CountedTerm<T>> {
    const term = await this.tx.run(async () => {
      await this.checkBodyReferences(dto);
      const created = this.store.repository(this.tx.manager).create();
      created.name = dto.name;
      created.description = dto.description || null;
      await this.applyHierarchy(created, dto);
      await this.assertNameFree(created);
      return this.store.saveWithSlug(this.tx.manager, created, dto.slug ?? dto.name);
    });
    return { term, count: 0 };
  }

  /** Fields left out keep their values; `""` or `null` clears the description. */
  async update(locator: TermLocator, dto: UpdateTermDto<CreateDto>): Promise<CountedTerm<T>> {
    return this.tx.run(async () => {
      await this.checkBodyReferences(dto);
      const term = await this.findOrFail(locator);
      const nameBefore = term.name;
      const levelBefore = this.nameLevel(term);
      if (dto.name !== undefined) term.name = dto.name;
      if (dto.description !== undefined) term.description = dto.description || null;
      await this.applyHierarchy(term, dto);
      if (term.name !== nameBefore || this.nameLevel(term) !== levelBefore) await this.assertNameFree(term);
      const saved = await this.store.saveWithSlug(this.tx.manager, term, dto.slug);
      return { term: saved, count: saved.publishedEventCount };
    });
  }

  /** Deleted for good, with its links to events (by foreign key); answers the term as it was. */
  async remove(locator: TermLocator): Promise<CountedTerm<T>> {
    return this.tx.run(async () => {
      const term = await this.findOrFail(locator);
      const count = term.publishedEventCount;
      await this.beforeRemove(term);
      await this.store.repository(this.tx.manager).delete(term.id);
      return { term, count };
    });
  }

  /**
   * Locks these terms' rows until the caller's transaction ends, in ascending id order: event writes
   * take them before anything that fires the read model's triggers (see EventsService.lockTerms).
   */
  lockForEventWrite(ids: number[]): Promise<void> {
    const manager = this.tx.manager;
    return this.store.lockRows(manager, ids);
  }

  /** Published events linked to each term id, in one grouped query; 0 for ids without any. */
  /**
   * Keeps the stored counts of published events: +1 for each id in `added`, -1 for each in
   * `removed`, inside the caller's transaction (the events service calls it on every event write).
   */
  async adjustPublishedEvents(added: number[], removed: number[]): Promise<void> {
    const manager = this.tx.manager;
    const net = new Map<number, number>();
    for (const id of added) net.set(id, (net.get(id) ?? 0) + 1);
    for (const id of removed) net.set(id, (net.get(id) ?? 0) - 1);
    const idsByDelta = new Map<number, number[]>();
    for (const [id, delta] of net) if (delta !== 0) idsByDelta.set(delta, [...(idsByDelta.get(delta) ?? []), id]);
    for (const [delta, ids] of idsByDelta) await this.store.adjustPublishedEvents(manager, ids, delta);
  }

  /** Counts the ids' published events anew from the links, for links written outside the events service. */
  recountPublishedEvents(ids: number[]): Promise<void> {
    const manager = this.tx.manager;
    return this.store.recountPublishedEvents(manager, ids);
  }

  /**
   * The terms an event body names, in the order given, each once. Integers and numeric strings
   * are ids (an unknown one is a 400 naming the event field); other strings are names: the
   * oldest term of that name (case-insensitive, any level) is reused, else one is created in
   * `manager`'s transaction, if `user` may manage terms (403 `rest_forbidden` naming the event
   * field otherwise, as POST /categories refuses them). Empty strings are skipped.
   */
  async resolveForEvent(values: Array<number | string>, user: AuthenticatedUser): Promise<T[]> {
    const manager = this.tx.manager;
    const field = this.store.table.eventField;
    const wanted = values.flatMap((value) => this.readEventTermValue(value, field));
    const ids = wanted.flatMap((entry) => ('id' in entry ? [entry.id] : []));
    const names = wanted.flatMap((entry) => ('name' in entry ? [entry.name] : []));
    const byId = new Map((await this.store.findAllOrFail(manager, ids, field)).map((term) => [term.id, term]));
    const byName = new Map<string, T>();
    for (const term of await this.store.findByNames(manager, names)) {
      const key = term.name.toLowerCase();
      if (!byName.has(key)) byName.set(key, term);
    }
    const resolved = new Map<number, T>();
    for (const entry of wanted) {
      let term: T | undefined;
      if ('id' in entry) {
        term = byId.get(entry.id);
      } else {
        const key = entry.name.toLowerCase();
        term = byName.get(key) ?? (await this.createNamed(entry.name, user, field));
        byName.set(key, term);
      }
      if (term && !resolved.has(term.id)) resolved.set(term.id, term);
    }
    return [...resolved.values()];
  }

  private readEventTermValue(value: unknown, field: string): Array<{ id: number } | { name: string }> {
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw invalidParam(field, `${field} must hold term ids or names`);
      return [{ id: value }];
    }
    if (typeof value !== 'string') throw invalidParam(field, `${field} must hold term ids or names`);
    const text = value.trim();
    if (text === '') return [];
    if (/^-?\d+$/.test(text)) {
      const id = Number(text);
      if (!Number.isSafeInteger(id)) throw invalidParam(field, missingIdsReason(field, [id]));
      return [{ id }];
    }
    if (text.length > TERM_NAME_MAX_LENGTH)
      throw invalidParam(field, `${field} names must be at most ${TERM_NAME_MAX_LENGTH} characters long`);
    return [{ name: text }];
  }

  private async createNamed(name: string, user: AuthenticatedUser, field: string): Promise<T> {
    const manager = this.tx.manager;
    if (!canManageTerms(user)) throw termCreationForbidden(field, name);
    const term = this.store.repository(manager).create();
    term.name = name;
    term.description = null;
    return this.store.saveWithSlug(manager, term, name);
  }

  protected async findOrFail(locator: TermLocator): Promise<T> {
    const manager = this.tx.manager;
    const term = 'id' in locator ? await this.store.findById(manager, locator.id) : await this.store.findBySlug(manager, locator.slug);
    if (!term) throw termNotFound();
    return term;
  }

  private async assertNameFree(term: T): Promise<void> {
    const manager = this.tx.manager;
    const existing = await this.store.findByName(manager, term.name, this.nameLevel(term), term.id);
    if (existing) throw termExists(existing.id);
  }

  /** The list's effective parameters under their public names, for `rest_url` and the page links. */
  private listQueryPairs(query: ListQuery): QueryPairs {
    return QueryEcho.of(query, [...TERM_LIST_PARAMETERS, ...this.extraListParameters] as Array<keyof ListQuery & string>).pairs;
  }
}
