import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/roles';
import { Clock, CLOCK } from '../common/clock';
import { invalidParam } from '../common/errors/api-error';
import { ApiUrls } from '../common/http/api-urls.service';
import type { RequestContext } from '../auth/request-context';
import { buildPageLinks, PageLinks } from '../common/pagination/pagination';
import { trashOrRemove } from '../posts/post-lifecycle';
import type { PostEntity } from '../posts/post.entity-base';
import type { LinkedPostFieldsDto } from './linked-post-fields.dto';
import {
  assertCanReadPost,
  findPostOr404,
  LinkedPostListQuery,
  LinkedPostResource,
  listLinkedPosts,
  PostKey,
} from './linked-post-resource';
import {
  applyColumns,
  applyPostMeta,
  assertAuthorExists,
  assertCanAssignAuthor,
  ColumnValue,
  findMatchingPost,
  LinkedPostWrite,
  validateInlineFields,
} from './linked-post-writes';
import { LinkedPostsRepository } from './linked-posts.repository';
import { TransactionHost } from '../common/database/transaction-host';
import { assertCanCreatePost, assertCanDelete, assertCanEdit } from '../access/post-access';

/** One page of the list: the posts under their collection's name (`venues`, `organizers`), then the page links and totals. */
export type LinkedPostListPage<Collection extends string, Response> = { [key in Collection]: Response[] } & PageLinks & {
    total: number;
    total_pages: number;
  };

/**
 * The rules venues and organizers share (as the original, with our decisions where it is silent): listing,
 * reading, creating with duplicate avoidance, updating, trashing and deleting, and the inline
 * objects of event bodies. Each resource says which columns its fields set and how it is shown.
 */
@Injectable()
export abstract class LinkedPostsService<T extends PostEntity, Input extends LinkedPostFieldsDto, Response, Collection extends string> {
  protected abstract readonly resource: LinkedPostResource<T>;
  /** The create DTO, whose rules inline objects are checked with. */
  protected abstract readonly createInput: new () => Input;
  /** The list's path below the namespace and the key of its posts in a page (`venues`). */
  protected abstract readonly collection: Collection;

  constructor(
    protected readonly tx: TransactionHost,
    protected readonly urls: ApiUrls,
    @Inject(CLOCK) protected readonly clock: Clock,
    protected readonly repository: LinkedPostsRepository,
  ) {}

  /** The columns a write sets from the fields sent; validation errors name fields with `write.fieldName`. */
  protected abstract columns(input: Partial<Input>, write: LinkedPostWrite): ColumnValue[];

  /** A new row with every optional column empty and every flag at its default. */
  protected abstract blank(): T;

  protected abstract toResponse(post: T, context: RequestContext, options?: { jsonLd?: boolean }): Response;

  /** Columns that follow others (a venue's `stateprovince`), after the sent ones are applied. */
  protected deriveColumns(_post: T, _input: Partial<Input>, _existing: boolean): void {}

  async list(query: LinkedPostListQuery, context: RequestContext): Promise<LinkedPostListPage<Collection, Response>> {
    const page = await listLinkedPosts(this.tx.manager, this.resource, query, context.user, this.clock.now());
    const posts = { [this.collection]: page.posts.map((post) => this.toResponse(post, context)) } as { [key in Collection]: Response[] };
    return {
      ...posts,
      ...buildPageLinks(context.namespaceUrl('events', `${this.collection}/`), page.queryPairs, page.page.page, page.totalPages),
      total: page.total,
      total_pages: page.totalPages,
    };
  }

  async findOne(key: PostKey, context: RequestContext): Promise<Response> {
    const post = await findPostOr404(this.tx.manager, this.resource, key);
    assertCanReadPost(this.resource, context.user, post);
    return this.toResponse(post, context, { jsonLd: true });
  }

  /** Creates the post, or returns the visible one that already matches every field sent. */
  async create(input: Input, user: AuthenticatedUser, context: RequestContext): Promise<Response> {
    assertCanCreatePost(user);
    const post = await this.tx.run(() =>
      this.findOrCreate(
        this.writeFor(user, (field) => field),
        input,
      ),
    );
    return this.toResponse(post, context);
  }

  async update(key: PostKey, input: Partial<Input>, user: AuthenticatedUser, context: RequestContext): Promise<Response> {
    const post = await this.tx.run(async () => {
      const write = this.writeFor(user, (field) => field);
      const columns = this.columns(input, write);
      await assertAuthorExists(write, input.author);
      const existing = await findPostOr404(this.tx.manager, this.resource, key);
      assertCanEdit(user, existing);
      assertCanAssignAuthor(write, input.author);
      applyColumns(existing, columns);
      this.deriveColumns(existing, input, true);
      await applyPostMeta(write, this.resource, existing, input, true);
      return this.repository.save(existing);
    });
    return this.toResponse(post, context);
  }

  /** Trashes the post, or with `force` deletes it and, by the foreign keys, its links to events. */
  async remove(key: PostKey, force: boolean, user: AuthenticatedUser, context: RequestContext): Promise<Response> {
    const post = await this.tx.run(async () => {
      const existing = await findPostOr404(this.tx.manager, this.resource, key);
      assertCanDelete(user, existing);
      return trashOrRemove(this.tx.manager, existing, this.resource.type, force);
    });
    return this.toResponse(post, context);
  }

  /**
   * An object of fields inside an event body: checked with the create rules (400
   * `rest_invalid_param` naming `venue[city]`...), an exact match reused, else created in the
   * event's transaction.
   */
  async findOrCreateForEvent(fields: Record<string, unknown>, user: AuthenticatedUser): Promise<T> {
    const name = this.resource.type;
    const input = await validateInlineFields(this.createInput, fields, name);
    return this.findOrCreate(
      this.writeFor(user, (field) => `${name}[${field}]`),
      input,
    );
  }

  /**
   * Ids an event body links to (`field`, venue or organizer): each must exist (400 naming the
   * field) and be readable by `user` (403 `{type}-not-accessible`), so that an event cannot show
   * another user's draft.
   */
  async assertLinkable(ids: number[], field: string, user: AuthenticatedUser): Promise<void> {
    const posts = await this.repository.linkablePosts(this.resource, ids);
    const missing = ids.filter((id) => !posts.some((post) => post.id === id));
    if (missing.length) throw invalidParam(field, `${field} refers to nothing: ${missing.join(', ')}`);
    for (const post of posts) assertCanReadPost(this.resource, user, post);
  }

  private writeFor(user: AuthenticatedUser, fieldName: (field: string) => string): LinkedPostWrite {
    const manager = this.tx.manager;
    return { manager, user, now: this.clock.now(), siteTimezone: this.urls.siteTimezone, fieldName };
  }

  private async findOrCreate(write: LinkedPostWrite, input: Input): Promise<T> {
    const columns = this.columns(input, write);
    await assertAuthorExists(write, input.author);
    assertCanAssignAuthor(write, input.author);
    const match = await findMatchingPost(write, this.resource, columns);
    if (match) return match;
    const post = this.blank();
    applyColumns(post, columns);
    this.deriveColumns(post, input, false);
    await applyPostMeta(write, this.resource, post, input, false);
    return this.repository.save(post);
  }
}
