import { ArgumentMetadata, Injectable, PipeTransform, Type } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { SizedValidationPipe } from '../common/http/sized-validation.pipe';
import { VALIDATION_OPTIONS } from '../common/http/validation-options';

/** How a tec/v1 input becomes the input of the events or tickets namespace: its fields renamed and reshaped. */
export interface TecTranslation {
  /** The other namespace's input (body or query) from tec/v1's, unknown fields dropped. */
  translate(input: Record<string, unknown>): Record<string, unknown>;
  /** tec/v1's name of a field of the other namespace, for the errors that name it. */
  tecName: Record<string, string>;
}

const validation = new SizedValidationPipe(VALIDATION_OPTIONS);

/**
 * Turns a tec/v1 body or query into the DTO the events and tickets namespaces validate, and
 * validates it with their rules (the global pipe's, DTO decorators included): tec/v1 states no
 * rule of its own about a field. Errors name the fields as tec/v1 calls them.
 */
@Injectable()
export class TecInputPipe implements PipeTransform {
  constructor(
    private readonly translation: TecTranslation,
    private readonly target: Type<unknown>,
  ) {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const input = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    try {
      return await validation.transform(this.translation.translate(input), { ...metadata, metatype: this.target });
    } catch (error) {
      throw error instanceof ApiError ? renameParams(error, this.translation.tecName) : error;
    }
  }
}

function rename(name: string, tecName: Record<string, string>): string {
  if (tecName[name]) return tecName[name];
  const [head, ...rest] = name.split('[');
  const renamed = tecName[head] ?? head;
  return rest.length ? `${renamed}[${rest.join('[')}` : renamed;
}

/** The same error with the fields it names (`params`, the message) as tec/v1 calls them. */
export function renameParams(error: ApiError, tecName: Record<string, string>): ApiError {
  const params = error.extraData.params as string[] | Record<string, string> | undefined;
  if (!params) return error;
  const renamed = Array.isArray(params)
    ? params.map((name: string) => rename(name, tecName))
    : Object.fromEntries(Object.entries(params).map(([name, reason]) => [rename(name, tecName), reason]));
  const names = Array.isArray(renamed) ? renamed : Object.keys(renamed);
  const message = error.message.replace(/:.*$/, `: ${names.join(', ')}`);
  return new ApiError(error.code, message, error.getStatus(), { ...error.extraData, params: renamed });
}

/**
 * A handler parameter filled by TecInputPipe. Typed as an intersection so that TypeScript records
 * no class for it: the global pipe leaves the raw tec/v1 input alone, the TecInputPipe validates it.
 */
export type Translated<T> = T & { readonly [translated]?: never };
declare const translated: unique symbol;
