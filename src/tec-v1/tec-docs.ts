import { applyDecorators, HttpCode, Type, UseFilters, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiGoneResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { RequireCapability } from '../auth/decorators';
import type { Capability } from '../auth/roles';
import { ExperimentalAcknowledgementGuard, TEC_ACKNOWLEDGEMENT } from './experimental-acknowledgement.guard';
import { TecEntityErrorFilter } from './tec-entity-error.filter';

/**
 * Who may write: a capability, or `manager` for tickets: the role must be able to write events
 * (403 `rest_forbidden` before the header, as TEC's `create_posts`), then the tickets service
 * answers whether the caller manages this event (403 `forbidden`).
 */
export type WriteAccess = Capability | 'manager';

const access = (who: WriteAccess) =>
  who === 'manager'
    ? RequireCapability('edit_events', {
        forbidden: 'rest_forbidden: the role cannot write tickets; forbidden: the caller does not manage the event',
      })
    : RequireCapability(who);

/** A query parameter: name, JSON schema type, description. */
export type QueryParameter = [name: string, type: 'integer' | 'string' | 'boolean' | 'array', description: string];

export const PAGING: QueryParameter[] = [
  ['page', 'integer', 'Page, from 1 (a page past the last: 404 tec_rest_organizers_page_not_found)'],
  ['per_page', 'integer', 'Items per page, 1 to 100 (default 10)'],
];

const ENTITY_ERROR = { schema: { type: 'object', properties: { error: { type: 'string' } } } };

/** What every tec/v1 resource controller carries: its tag, the header gate (after the permissions) and TEC's error bodies. */
export const TecResource = () =>
  applyDecorators(
    ApiTags('tec'),
    UseGuards(ExperimentalAcknowledgementGuard),
    UseFilters(TecEntityErrorFilter),
    ApiHeader({ name: 'X-TEC-EEA', required: true, description: `TEC's acknowledgement, exactly: "${TEC_ACKNOWLEDGEMENT}"` }),
    ApiBadRequestResponse({
      description: 'missing_experimental_endpoint_acknowledgement; rest_invalid_param or rest_missing_callback_param naming the field',
    }),
  );

const ID = ApiParam({ name: 'id', schema: { type: 'integer' } });

export const ListDocs = (noun: string, response: Type<unknown>, parameters: QueryParameter[]) =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: `List ${noun}s: a bare array; X-WP-Total, X-WP-TotalPages and Link (next, prev) carry the paging` }),
    ...[...PAGING, ...parameters].map(([name, type, description]) =>
      ApiQuery({ name, required: false, description, schema: type === 'array' ? { type: 'array', items: { type: 'integer' } } : { type } }),
    ),
    ApiOkResponse({ type: response, isArray: true }),
    ApiNotFoundResponse({ description: "tec_rest_organizers_page_not_found: a page past the last (TEC's code for every type)" }),
  );

export const ReadDocs = (noun: string, response: Type<unknown>) =>
  applyDecorators(
    HttpCode(200),
    ID,
    ApiOperation({ summary: `Read a ${noun}` }),
    ApiOkResponse({ type: response }),
    ApiNotFoundResponse({ ...ENTITY_ERROR, description: '{"error": "The entity could not be read."}' }),
  );

export const CreateDocs = (noun: string, capability: WriteAccess, body: Type<unknown>, response: Type<unknown>) =>
  applyDecorators(
    HttpCode(201),
    access(capability),
    ApiOperation({ summary: `Create a ${noun}` }),
    ApiBody({ type: body }),
    ApiCreatedResponse({ type: response }),
  );

export const UpdateDocs = (noun: string, capability: WriteAccess, body: Type<unknown>, response: Type<unknown>) =>
  applyDecorators(
    HttpCode(200),
    access(capability),
    ID,
    ApiOperation({ summary: `Update a ${noun}; fields left out keep their values (PUT and PATCH alike)` }),
    ApiBody({ type: body }),
    ApiOkResponse({ type: response }),
    ApiNotFoundResponse({ ...ENTITY_ERROR, description: '{"error": "The entity could not be updated."}' }),
  );

export const DeleteDocs = (noun: string, trash: boolean) =>
  applyDecorators(
    HttpCode(200),
    access(trash ? 'delete_events' : 'manager'),
    ID,
    ApiQuery({
      name: 'force',
      required: false,
      schema: { type: 'boolean', default: false },
      description: trash ? 'true: delete for good instead of trashing' : 'Ignored: tickets are always deleted for good',
    }),
    ApiOperation({ summary: trash ? `Trash a ${noun}, or delete it for good with force=true` : `Delete a ${noun}` }),
    ApiOkResponse({ description: '[]', schema: { type: 'array', items: {}, maxItems: 0 } }),
    ApiNotFoundResponse({ ...ENTITY_ERROR, description: '{"error": "The entity could not be deleted."}' }),
    ...(trash ? [ApiGoneResponse({ ...ENTITY_ERROR, description: '{"error": "The entity has already been trashed."}' })] : []),
  );
