import { ValidateBy } from 'class-validator';

/**
 * Most values a list parameter of a query (`include`, `exclude`, `categories`, `status`, ...) may
 * hold. Each value becomes a bound SQL parameter, and some lists an ORDER BY CASE branch, so an
 * unbounded list is an unbounded query; 100 is a full page of ids.
 */
export const MAX_LIST_VALUES = 100;

/**
 * 400 `rest_invalid_param` naming `field` when its list holds more than MAX_LIST_VALUES values.
 * A value that is not a list is left to the field's other checks, which say what is wrong with it.
 */
export const MaxListValues = (field: string) =>
  ValidateBy({
    name: 'maxListValues',
    // Read by SizedValidationPipe, which refuses a longer list before anything reads it.
    constraints: [MAX_LIST_VALUES],
    validator: {
      validate: (value: unknown) => !Array.isArray(value) || value.length <= MAX_LIST_VALUES,
      defaultMessage: () => `${field} may hold at most ${MAX_LIST_VALUES} values`,
    },
  });
