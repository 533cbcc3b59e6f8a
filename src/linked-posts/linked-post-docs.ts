import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
} from '@nestjs/swagger';
import { RequireCapability } from '../auth/decorators';
import { ApiErrorResponse } from '../common/errors/api-error.response';

/**
 * OpenAPI declarations and access rules shared by the venue and organizer routes, as term-docs.ts
 * is for categories and tags: the two resources are one shape with other nouns.
 */
export interface LinkedPostKind {
  /** `venue` or `organizer`: error codes and descriptions are built from it. */
  noun: 'venue' | 'organizer';
  /** The single resource, as the routes return it. */
  type: Type<unknown>;
  /** One page of the list. */
  listType: Type<unknown>;
}

const UNAUTHORIZED = '`rest_forbidden`: anonymous caller; `incorrect_password`: wrong credentials';

const capitalized = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);
const withArticle = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

const NotFound = (noun: string) =>
  ApiNotFoundResponse({
    type: ApiErrorResponse,
    description: `\`${noun}-not-found\`: no ${noun} has this id or slug; \`rest_no_route\`: an id that is not a number`,
  });

const BadRequest = () =>
  ApiBadRequestResponse({
    type: ApiErrorResponse,
    description: '`rest_missing_callback_param` or `rest_invalid_param` naming the fields',
  });

export const LinkedPostIdParam = (noun: string) =>
  ApiParam({ name: 'id', description: `${capitalized(noun)} id`, schema: { type: 'integer' } });

export const LinkedPostSlugParam = (noun: string) =>
  ApiParam({ name: 'slug', description: `${capitalized(noun)} slug`, schema: { type: 'string' } });

export const LinkedPostListDocs = ({ noun, listType }: LinkedPostKind) =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: `${capitalized(noun)}s the caller may see, newest first` }),
    ApiOkResponse({ type: listType, description: 'One page; X-TEC-Total and X-TEC-TotalPages carry the totals' }),
    ApiBadRequestResponse({ type: ApiErrorResponse, description: '`rest_invalid_param`: a bad page, per_page, status or event' }),
    ApiNotFoundResponse({ type: ApiErrorResponse, description: `\`${noun}-archive-page-not-found\`: a page past the last one` }),
  );

export const LinkedPostCreateDocs = ({ noun, type }: LinkedPostKind) =>
  applyDecorators(
    HttpCode(201),
    RequireCapability('edit_events', {
      unauthorized: UNAUTHORIZED,
      forbidden: `\`rest_forbidden\`: the caller may not create ${noun}s (or name another author)`,
    }),
    ApiOperation({
      summary: `Create ${withArticle(noun)}; a visible ${noun} matching every field sent is returned instead of a duplicate`,
    }),
    ApiCreatedResponse({ type, description: `The ${noun}, with its URL in Location` }),
    BadRequest(),
  );

export const LinkedPostReadDocs = ({ noun, type }: LinkedPostKind) =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: `One ${noun}, with its schema.org JSON-LD` }),
    ApiOkResponse({ type }),
    ApiForbiddenResponse({
      type: ApiErrorResponse,
      description: `\`${noun}-not-accessible\`: not published and not readable by the caller`,
    }),
    NotFound(noun),
  );

/** POST, PUT and PATCH alike. */
export const LinkedPostUpdateDocs = ({ noun, type }: LinkedPostKind) =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('edit_events', {
      unauthorized: UNAUTHORIZED,
      forbidden: `\`rest_forbidden\`: not allowed to edit this ${noun} (or to name another author)`,
    }),
    ApiOperation({
      summary: `Update ${withArticle(noun)} (POST, PUT and PATCH alike): fields left out keep their values, "" clears one`,
    }),
    ApiOkResponse({ type, description: `The updated ${noun}` }),
    BadRequest(),
    NotFound(noun),
  );

export const LinkedPostDeleteDocs = ({ noun, type }: LinkedPostKind) =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('delete_events', { unauthorized: UNAUTHORIZED, forbidden: `\`rest_forbidden\`: not allowed to delete this ${noun}` }),
    ApiOperation({
      summary: `Move ${withArticle(noun)} to the trash, or delete it for good with force=true (its links to events go with it)`,
    }),
    ApiQuery({
      name: 'force',
      required: false,
      description: 'true: delete for good instead of trashing',
      schema: { type: 'boolean', default: false },
    }),
    ApiOkResponse({ type, description: `The ${noun} as it was last: trashed, or before its removal` }),
    ApiGoneResponse({ type: ApiErrorResponse, description: `\`${noun}-is-in-trash\`: already trashed (use force=true)` }),
    NotFound(noun),
  );
