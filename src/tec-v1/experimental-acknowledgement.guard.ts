import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request } from 'express';
import { appConfig } from '../config/app.config';
import { missingAcknowledgement } from './tec-errors';

/** The sentence TEC requires in `X-TEC-EEA` (compared trimmed and lower-cased). */
export const TEC_ACKNOWLEDGEMENT =
  'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. ' +
  'I also understand that I am using this endpoint at my own risk, while support is not provided for it.';

const EXPECTED = TEC_ACKNOWLEDGEMENT.toLowerCase();

/**
 * TEC's experimental-endpoint gate. A controller guard, so it runs after the global guards: as in
 * TEC, where the check is inside the callback, the permission answers first (an anonymous write
 * without the header is 401), then this 400, then the validation of the input (pipes).
 */
@Injectable()
export class ExperimentalAcknowledgementGuard implements CanActivate {
  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.config.tecRequireAcknowledgement) return true;
    const header = context.switchToHttp().getRequest<Request>().headers['x-tec-eea'];
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || value.trim() === '') throw missingAcknowledgement(false);
    if (value.trim().toLowerCase() !== EXPECTED) throw missingAcknowledgement(true);
    return true;
  }
}
