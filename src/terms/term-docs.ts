import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiErrorResponse } from '../common/errors/api-error.response';

/** OpenAPI declarations shared by the category and tag routes. `noun` is "category" or "tag". */

const UNAUTHORIZED_READ = 'Credentials sent and wrong (incorrect_password)';

/** The 401 and 403 of the write routes, guarded by `@RequireCapability('manage_terms', TERM_WRITE_ACCESS)`. */
export const TERM_WRITE_ACCESS = {
  unauthorized: 'Anonymous caller (rest_forbidden) or wrong credentials (incorrect_password)',
  forbidden: 'The caller may not manage terms (rest_forbidden): editors and administrators only',
};
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

export const TermIdParam = () =>
  ApiParam({ name: 'id', description: 'Term id (digits only; anything else is no route)', schema: { type: 'integer', minimum: 1 } });

export const TermSlugParam = () => ApiParam({ name: 'slug', description: 'Term slug', schema: { type: 'string' } });

export const TermListDocs = (noun: string, type: Type<unknown>) =>
  applyDecorators(
    ApiOperation({ summary: `List event ${noun === 'category' ? 'categories' : 'tags'}` }),
    ApiOkResponse({
      type,
      description: 'One page of the list; a page past the end is empty',
      headers: {
        'X-TEC-Total': { description: 'Number of matching terms', schema: { type: 'integer' } },
        'X-TEC-TotalPages': { description: 'Number of pages', schema: { type: 'integer' } },
      },
    }),
    ApiBadRequestResponse({ type: ApiErrorResponse, description: 'Invalid parameter, or an id naming nothing (rest_invalid_param)' }),
    ApiUnauthorizedResponse({ type: ApiErrorResponse, description: UNAUTHORIZED_READ }),
  );

export const TermReadDocs = (noun: string, type: Type<unknown>) =>
  applyDecorators(
    ApiOperation({ summary: `Read one event ${noun}` }),
    ApiOkResponse({ type }),
    ApiNotFoundResponse({ type: ApiErrorResponse, description: `No such ${noun} (term-not-found)` }),
    ApiUnauthorizedResponse({ type: ApiErrorResponse, description: UNAUTHORIZED_READ }),
  );

export const TermCreateDocs = (noun: string, type: Type<unknown>) =>
  applyDecorators(
    ApiOperation({ summary: `Create an event ${noun} (editors and administrators)` }),
    ApiConsumes(...BODY_TYPES),
    ApiCreatedResponse({
      type,
      description: `The new ${noun}`,
      headers: { Location: { description: `URL of the new ${noun}`, schema: { type: 'string' } } },
    }),
    ApiBadRequestResponse({
      type: ApiErrorResponse,
      description:
        'Missing name (rest_missing_callback_param), invalid field (rest_invalid_param) or a name already taken (term_exists, with data.term_id)',
    }),
  );

export const TermUpdateDocs = (noun: string, type: Type<unknown>) =>
  applyDecorators(
    ApiOperation({ summary: `Update an event ${noun} (editors and administrators); fields left out keep their values` }),
    ApiConsumes(...BODY_TYPES),
    ApiOkResponse({ type, description: `The updated ${noun}` }),
    ApiBadRequestResponse({
      type: ApiErrorResponse,
      description: 'Invalid field (rest_invalid_param) or a name already taken (term_exists)',
    }),
    ApiNotFoundResponse({ type: ApiErrorResponse, description: `No such ${noun} (term-not-found)` }),
  );

export const TermDeleteDocs = (noun: string, type: Type<unknown>) =>
  applyDecorators(
    ApiOperation({ summary: `Delete an event ${noun} for good, with its links to events (editors and administrators)` }),
    ApiOkResponse({ type, description: `The deleted ${noun}, as it was` }),
    ApiNotFoundResponse({ type: ApiErrorResponse, description: `No such ${noun} (term-not-found)` }),
  );
