import { ValidationError } from 'class-validator';
import { ApiError, invalidParams, missingParams } from './api-error';

interface FlatError {
  path: string;
  value: unknown;
  constraints: Record<string, string>;
}

function flatten(errors: ValidationError[], parentPath = ''): FlatError[] {
  return errors.flatMap((error) => {
    const path = parentPath ? `${parentPath}[${error.property}]` : error.property;
    const own = error.constraints ? [{ path, value: error.value as unknown, constraints: error.constraints }] : [];
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

function isMissing(error: FlatError): boolean {
  return (error.value === undefined || error.value === null) && 'isDefined' in error.constraints;
}

/**
 * Turns class-validator's findings into the original's two argument errors: missing required
 * fields first (`rest_missing_callback_param`), otherwise `rest_invalid_param` with one reason
 * per field. Nested fields are named as forms send them: `ticket[capacity]`.
 */
export function buildValidationError(errors: ValidationError[]): ApiError {
  const flat = flatten(errors);
  const missing = flat.filter(isMissing).map((error) => error.path);
  if (missing.length > 0) return missingParams([...new Set(missing)]);
  const reasons: Record<string, string> = {};
  for (const error of flat) {
    reasons[error.path] ??= Object.values(error.constraints)[0] ?? 'Invalid parameter.';
  }
  if (Object.keys(reasons).length === 0) reasons.body = 'Invalid parameter.';
  return invalidParams(reasons);
}
