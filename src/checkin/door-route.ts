import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBasicAuth, ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { AuthenticatedRequest } from '../auth/decorators';
import type { DoorCaller as AnyDoorCaller } from '../access/door-access';
import type { AuthenticatedUser } from '../auth/roles';
import { forbidden } from '../common/errors/api-error';
import { ApiErrorResponse } from '../common/errors/api-error.response';
import { deviceNotAllowed } from './checkin-errors';
import type { Device } from './device.entity';
import { DevicesService } from './devices.service';
import { parseIdList } from './id-list';

/** Who scans, as the door's routes see it: the access rules' caller with the registered device. */
export type DoorCaller = AnyDoorCaller<Device>;

const DOOR_ROUTE = 'cal:door-route';

/** Whose nonces a caller's are: the scope redeem stores them under (and annul and walk-in sales look them up in). */
export function nonceScope(caller: DoorCaller): string {
  return caller.kind === 'device' ? `device:${caller.device.id}` : `user:${caller.user.id}`;
}

interface DoorRequest extends AuthenticatedRequest {
  device?: Device;
}

const DEVICE_SCHEME = /^device\s+(\S+)$/i;

/**
 * A check-in route: devices (`Authorization: Device <api_token>`, their own lists only) and signed-in
 * users may call it (401 anonymous); the service decides per list. Sets the guard metadata and the
 * OpenAPI security and 401/403 responses.
 */
export const DoorRoute = () =>
  applyDecorators(
    SetMetadata(DOOR_ROUTE, true),
    ApiBasicAuth('basic'),
    ApiSecurity('device'),
    ApiUnauthorizedResponse({
      type: ApiErrorResponse,
      description: 'rest_forbidden (anonymous), incorrect_password, device-token-invalid',
    }),
    ApiForbiddenResponse({
      type: ApiErrorResponse,
      description: 'rest_forbidden: a device of other lists, or a user neither managing the event nor door staff',
    }),
  );

/**
 * Global guard: resolves `Authorization: Device …` on check-in routes (401 device-token-invalid for
 * an unknown or revoked token) and refuses it everywhere else (401 device-not-allowed), so a
 * device's token opens nothing but the door. Check-in routes refuse anonymous callers.
 */
@Injectable()
export class DoorGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly devices: DevicesService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<DoorRequest>();
    const door = this.reflector.getAllAndOverride<boolean | undefined>(DOOR_ROUTE, [context.getHandler(), context.getClass()]) === true;
    const device = DEVICE_SCHEME.exec(request.headers.authorization?.trim() ?? '');
    if (device) {
      if (!door) throw deviceNotAllowed();
      request.device = await this.devices.authenticate(device[1]);
      return true;
    }
    if (door && !request.user) throw forbidden(true);
    return true;
  }
}

/** The handler parameter naming who scans: `@Door() caller: DoorCaller`. */
export const Door = createParamDecorator((_data: unknown, context: ExecutionContext): DoorCaller => {
  const request = context.switchToHttp().getRequest<DoorRequest>();
  if (request.device) return { kind: 'device', device: request.device, listIds: parseIdList(request.device.listIds) };
  return { kind: 'user', user: request.user as AuthenticatedUser };
});
