import { ValidationError } from 'class-validator';
import { buildValidationError } from './validation-error.factory';

function error(property: string, value: unknown, constraints: Record<string, string>, children: ValidationError[] = []): ValidationError {
  return Object.assign(new ValidationError(), { property, value, constraints, children });
}

describe('buildValidationError', () => {
  it('reports missing required fields first, by name', () => {
    const result = buildValidationError([
      error('title', undefined, { isDefined: 'title should not be null or undefined', isString: 'title must be a string' }),
      error('start_date', null, { isDefined: 'start_date should not be null or undefined' }),
      error('venue', 'x', { isInt: 'venue must be an integer' }),
    ]);
    expect(result.toBody()).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date',
      data: { status: 400, params: ['title', 'start_date'] },
    });
  });

  it('reports invalid values with one reason per field', () => {
    const result = buildValidationError([error('venue', 'x', { isInt: 'venue must be an integer' })]);
    expect(result.toBody()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): venue',
      data: { status: 400, params: { venue: 'venue must be an integer' } },
    });
  });

  it('names nested fields as forms send them', () => {
    const nested = error('ticket', {}, undefined as unknown as Record<string, string>, [
      error('capacity', 'lots', { isInt: 'capacity must be an integer' }),
    ]);
    nested.constraints = undefined;
    expect(buildValidationError([nested]).toBody().data.params).toEqual({ 'ticket[capacity]': 'capacity must be an integer' });
  });
});
