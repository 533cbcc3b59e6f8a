import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { invalidParam } from '../errors/api-error';

/** Validators whose first constraint is the most items a list property may hold, and what they call the items. */
const LIST_SIZE_VALIDATORS = new Map([
  ['arrayMaxSize', 'items'],
  ['maxListValues', 'values'],
]);

interface ListSizeLimit {
  max: number;
  items: string;
}

/** The list size limits of a DTO class (its own and those inherited through mapped types), by property. */
function listSizeLimits(metatype: new (...args: unknown[]) => unknown): Map<string, ListSizeLimit> {
  const limits = new Map<string, ListSizeLimit>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false)) {
    const max = rule.constraints?.[0] as unknown;
    const items = rule.name ? LIST_SIZE_VALIDATORS.get(rule.name) : undefined;
    if (items && !rule.each && typeof max === 'number') limits.set(rule.propertyName, { max, items });
  }
  return limits;
}

/**
 * The global ValidationPipe, with list sizes checked first: class-transformer converts, and
 * class-validator walks, every item of a list before ArrayMaxSize looks at its length, so a 1 MB
 * body of 36 000 cart lines cost about a second of CPU to refuse. Here a list longer than its
 * limit is a 400 naming the field before anything reads its items.
 */
export class SizedValidationPipe extends ValidationPipe {
  private readonly limitsByType = new WeakMap<object, Map<string, ListSizeLimit>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    if (metatype && typeof value === 'object' && value !== null && !Array.isArray(value) && this.toValidate(metadata)) {
      let limits = this.limitsByType.get(metatype);
      if (!limits) {
        limits = listSizeLimits(metatype as new (...args: unknown[]) => unknown);
        this.limitsByType.set(metatype, limits);
      }
      for (const [property, { max, items }] of limits) {
        const list = (value as Record<string, unknown>)[property];
        if (Array.isArray(list) && list.length > max) throw invalidParam(property, `${property} may hold at most ${max} ${items}`);
      }
    }
    return super.transform(value, metadata);
  }
}
