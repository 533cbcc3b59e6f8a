import type { Type } from '@nestjs/common';
import type { ToolRequirement } from '../access/tool-access';
import type { RequestContext, SignedInContext } from '../auth/request-context';
import type { AuthenticatedUser } from '../auth/roles';
import { forbidden, invalidParam, missingParams } from '../common/errors/api-error';
import { SizedValidationPipe } from '../common/http/sized-validation.pipe';
import { VALIDATION_OPTIONS } from '../common/http/validation-options';

/** A JSON Schema object, as `tools/list` shows a tool's arguments. */
export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  additionalProperties?: boolean;
}

/** Who calls a tool and on which request: what the service behind it needs. */
export interface ToolCall {
  context: RequestContext;
  user: AuthenticatedUser | undefined;
}

/** A signed-in tool call: the tool's requirement let it through. */
export interface SignedInToolCall {
  context: SignedInContext;
  user: AuthenticatedUser;
}

/**
 * One MCP tool: a thin adapter over the service a REST route calls. `requirement` is what the
 * caller needs (role and scope, `access/tool-access.ts`); tools whose requirement depends on the
 * arguments (TEC's, by `postType`) say so with `requirementFor`, and are listed when any of
 * `requirements` is met.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /** Every requirement the tool may have; listed when the caller meets any. */
  requirements: ToolRequirement[];
  /** The requirement of one call (by default the only one). */
  requirementFor?(args: Record<string, unknown>): ToolRequirement;
  /** Whether it only reads (MCP's readOnlyHint), and whether it destroys or moves money (then it needs a confirmation handle). */
  readOnly: boolean;
  confirm?: ConfirmedAction;
  run(args: Record<string, unknown>, call: ToolCall): Promise<unknown>;
}

/** A destructive or money-moving tool's first step: what it would do, shown before a second call does it. */
export interface ConfirmedAction {
  preview(args: Record<string, unknown>, call: SignedInToolCall): Promise<unknown>;
}

export function requirementOf(tool: McpTool, args: Record<string, unknown>): ToolRequirement {
  return tool.requirementFor ? tool.requirementFor(args) : tool.requirements[0];
}

const validation = new SizedValidationPipe(VALIDATION_OPTIONS);

/**
 * A tool's arguments as the REST route's DTO, validated with the same rules (the global pipe's):
 * a bad argument is the route's 400, `rest_invalid_param` naming the field.
 */
export async function validated<T>(dto: Type<T>, args: Record<string, unknown>, type: 'query' | 'body' = 'body'): Promise<T> {
  return (await validation.transform({ ...args }, { type, metatype: dto })) as T;
}

/** The caller of a tool whose requirement needs one (the requirement was checked before). */
export function signedIn(call: ToolCall): SignedInToolCall {
  const { user, context } = call;
  if (!user) throw forbidden(true);
  return { user, context: { ...context, user } };
}

/** Arguments as the JSON Schema describes them; the DTOs do the checking. */
export const integer = (description: string, extra: object = {}) => ({ type: 'integer', minimum: 1, description, ...extra });
export const text = (description: string, extra: object = {}) => ({ type: 'string', description, ...extra });
export const flag = (description: string) => ({ type: 'boolean', description });
export const integers = (description: string) => ({ type: 'array', items: { type: 'integer', minimum: 1 }, description });
export const PAGING = {
  page: { type: 'integer', minimum: 1, description: 'Page number, from 1' },
  per_page: { type: 'integer', minimum: 1, maximum: 100, description: 'Items per page (1..100)' },
};

export function objectSchema(properties: Record<string, object>, required: string[] = []): JsonSchemaObject {
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** A scalar as the query string has it; objects stay as they are, for the DTO to refuse. */
function queryValue(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : value;
}

/** Query DTOs take their numbers as the query string does: as text. */
export function asQuery(args: Record<string, unknown>): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query[key] = Array.isArray(value) ? value.map(queryValue) : queryValue(value);
  }
  return query;
}

/** An id argument (`id`, `order_id`...): a positive integer, else the 400 naming it. */
export function idArgument(args: Record<string, unknown>, name: string): number {
  const value = args[name];
  if (value === undefined || value === null) throw missingParams([name]);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647)
    throw invalidParam(name, `${name} must be an id`);
  return value;
}
