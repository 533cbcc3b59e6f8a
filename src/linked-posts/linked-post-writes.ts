import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { EntityManager, ObjectLiteral, Repository } from 'typeorm';
import { User } from '../auth/user.entity';
import type { AuthenticatedUser } from '../auth/roles';
import { parseDateInput } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { forbidden, invalidParam, invalidParams } from '../common/errors/api-error';
import type { PostEntity } from '../posts/post.entity-base';
import { sanitizeRichText } from '../posts/rich-text';
import { uniqueSlug } from '../posts/slugs';
import type { LinkedPostFieldsDto } from './linked-post-fields.dto';
import type { LinkedPostResource } from './linked-post-resource';
import { applyPostVisibility, canAssignAuthor, resolveWriteStatus } from '../access/post-access';

/** Who writes, in which transaction, and the clock and zone that dates are read with. */
export interface LinkedPostWrite {
  manager: EntityManager;
  user: AuthenticatedUser;
  now: Date;
  siteTimezone: string;
  /** How errors name a field: `city` for the venue routes, `venue[city]` inside an event body. */
  fieldName: (field: string) => string;
}

/**
 * One column a write sets. `matches` marks the columns that duplicate avoidance compares:
 * the descriptive ones, not presentation flags. `text` columns compare
 * case-insensitively, and `null` there also matches an empty string.
 */
export interface ColumnValue {
  property: string;
  value: string | number | boolean | null;
  kind: 'text' | 'exact';
  matches: boolean;
}

/** A plain text field as stored: trimmed, `""` and `null` clear it. Undefined when not sent. */
export function plainTextValue(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function richTextValue(value: string | null | undefined, field: string, write: LinkedPostWrite): string | null | undefined {
  if (value === undefined) return undefined;
  const sanitized = value === null ? '' : sanitizeRichText(value, write.fieldName(field));
  // Sanitising escapes characters (& becomes &amp;), so the stored text can outgrow its column.
  if (Buffer.byteLength(sanitized) > 65535) throw invalidParam(write.fieldName(field), `${field} must be at most 65535 bytes long`);
  return sanitized === '' ? null : sanitized;
}

/** The columns every linked post has besides its name: description, excerpt and image. */
export function sharedContentColumns(input: LinkedPostFieldsDto, write: LinkedPostWrite): ColumnValue[] {
  const columns: ColumnValue[] = [];
  const description = richTextValue(input.description, 'description', write);
  if (description !== undefined) columns.push({ property: 'description', value: description, kind: 'text', matches: true });
  const excerpt = richTextValue(input.excerpt, 'excerpt', write);
  if (excerpt !== undefined) columns.push({ property: 'excerpt', value: excerpt, kind: 'text', matches: true });
  const image = plainTextValue(input.image);
  if (image !== undefined) columns.push({ property: 'image', value: image, kind: 'text', matches: true });
  return columns;
}

export function applyColumns(post: ObjectLiteral, columns: ColumnValue[]): void {
  for (const column of columns) post[column.property] = column.value;
}

/** `author` must name an existing user (400, a validation error, checked before the post is looked up). */
export async function assertAuthorExists(write: LinkedPostWrite, authorId: number | null | undefined): Promise<void> {
  if (authorId === undefined || authorId === null) return;
  if (!(await write.manager.existsBy(User, { id: authorId }))) {
    throw invalidParam(write.fieldName('author'), 'author must be the id of an existing user');
  }
}

/** Naming someone else as author needs editor rights (403, a permission checked after existence). */
export function assertCanAssignAuthor(write: LinkedPostWrite, authorId: number | null | undefined): void {
  if (authorId !== undefined && authorId !== null && !canAssignAuthor(write.user, authorId)) {
    throw forbidden(false, 'Sorry, you are not allowed to write posts as this user.');
  }
}

/**
 * The existing post, visible to the writer and not trashed, whose every compared column equals
 * what the write supplies (the original's duplicate avoidance). The oldest such post wins.
 */
export async function findMatchingPost<T extends PostEntity>(
  write: LinkedPostWrite,
  resource: LinkedPostResource<T>,
  columns: ColumnValue[],
): Promise<T | null> {
  const alias = resource.type;
  const query = write.manager.createQueryBuilder(resource.entity, alias);
  applyPostVisibility(query, alias, write.user, undefined);
  columns
    .filter((column) => column.matches)
    .forEach((column, index) => {
      const target = `${alias}.${column.property}`;
      const parameter = `matchValue${index}`;
      if (column.value === null) {
        query.andWhere(column.kind === 'text' ? `(${target} IS NULL OR ${target} = '')` : `${target} IS NULL`);
      } else if (column.kind === 'text') {
        query.andWhere(`LOWER(${target}) = LOWER(:${parameter})`, { [parameter]: column.value });
      } else {
        query.andWhere(`${target} = :${parameter}`, { [parameter]: column.value });
      }
    });
  return query.orderBy(`${alias}.id`, 'ASC').getOne();
}

function requestedPublicationDate(input: LinkedPostFieldsDto, siteTimezone: string): Date | undefined {
  // `date` (site time) wins over `date_utc`, as in the original; "" and null count as absent.
  const [raw, zoneName] =
    input.date !== undefined && input.date !== null && input.date !== '' ? [input.date, siteTimezone] : [input.date_utc, 'UTC'];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const zone = resolveTimeZone(zoneName) ?? resolveTimeZone('UTC');
  const parsed = zone ? parseDateInput(raw, zone) : null;
  // Post dates keep whole seconds, as the DATETIME columns do.
  return parsed ? new Date(Math.floor(parsed.instant.getTime() / 1000) * 1000) : undefined;
}

/**
 * Author, status, publication date and slug of a post being created (`existing` false) or
 * updated (`assertCanAssignAuthor` has passed): the status is scaled back for callers who cannot
 * publish; the slug comes from `slug` or the name and is made unique.
 */
export async function applyPostMeta<T extends PostEntity>(
  write: LinkedPostWrite,
  resource: LinkedPostResource<T>,
  post: T,
  input: LinkedPostFieldsDto,
  existing: boolean,
): Promise<void> {
  if (input.author !== undefined && input.author !== null) post.authorId = input.author;
  else if (!existing) post.authorId = write.user.id;
  post.status = resolveWriteStatus(write.user, input.status ?? undefined, existing ? post.status : undefined);
  const publishedAt = requestedPublicationDate(input, write.siteTimezone);
  if (publishedAt) post.publishedAt = publishedAt;
  else if (!existing) post.publishedAt = new Date(Math.floor(write.now.getTime() / 1000) * 1000);
  if (!existing || (input.slug !== undefined && input.slug !== null)) {
    const repository = write.manager.getRepository(resource.entity) as unknown as Repository<{ id: number; slug: string }>;
    post.slug = await uniqueSlug(repository, input.slug?.trim() || post.title, existing ? post.id : undefined);
  }
}

/**
 * Checks an inline object of fields (a venue or organizer given inside an event body) with the
 * rules of `dtoClass`, naming fields as `venue[city]`. Every failure, a missing name included,
 * is a 400 `rest_invalid_param`.
 */
export async function validateInlineFields<T extends object>(dtoClass: new () => T, fields: unknown, name: string): Promise<T> {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw invalidParam(name, `${name} must be an id or an object of ${name} fields`);
  }
  const input = plainToInstance(dtoClass, fields);
  const errors = await validate(input, { whitelist: true, forbidNonWhitelisted: false });
  if (errors.length === 0) return input;
  const reasons: Record<string, string> = {};
  for (const error of errors) {
    reasons[`${name}[${error.property}]`] ??= Object.values(error.constraints ?? {})[0] ?? 'Invalid parameter.';
  }
  throw invalidParams(reasons);
}
