import type { ValidationPipeOptions } from '@nestjs/common';
import { buildValidationError } from '../errors/validation-error.factory';

/** The global validation pipe's options (app.setup.ts), for pipes that validate a body the same way. */
export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: false,
  exceptionFactory: buildValidationError,
  validationError: { target: false, value: true },
};
