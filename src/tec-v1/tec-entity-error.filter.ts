import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { TecEntityError } from './tec-errors';

/** TEC's `{"error": "..."}` bodies; every other error goes to the global filter and its envelope. */
@Catch(TecEntityError)
export class TecEntityErrorFilter implements ExceptionFilter<TecEntityError> {
  catch(error: TecEntityError, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    response.status(error.status).json({ error: error.error });
  }
}
