import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { DevicesService } from './devices.service';
import { DeviceCreatedResponse, DeviceInitializedResponse, DeviceListResponse, DeviceResponse } from './dto/checkin.response';
import { CreateDeviceDto, InitializeDeviceDto } from './dto/device.dto';
import { AnyScope, RequireScope } from '../auth/scope-decorators';

const MANAGERS = { forbidden: 'rest_forbidden: the caller does not manage the lists’ events' };

@ApiTags('tickets')
@Controller('tickets/v1/devices')
export class DevicesController {
  constructor(private readonly devices: DevicesService) {}

  @Post()
  @RequireScope('checkin:write')
  @HttpCode(201)
  @RequireCapability('publish_events', MANAGERS)
  @ApiOperation({ summary: 'Register a scanner device for check-in lists; answers its initialization token once' })
  @ApiCreatedResponse({ type: DeviceCreatedResponse })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param or rest_invalid_param (name, list_ids)' })
  create(@Body() body: CreateDeviceDto, @RequestContext() context: SignedInContext): Promise<DeviceCreatedResponse> {
    return this.devices.create(body, context.user);
  }

  @Get()
  @RequireScope('checkin:read')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ApiOperation({ summary: 'List devices: all for editors and administrators, the ones they registered for authors' })
  @ApiOkResponse({ type: DeviceListResponse })
  list(@RequestContext() context: SignedInContext): Promise<DeviceListResponse> {
    return this.devices.list(context.user);
  }

  @Post('initialize')
  @AnyScope()
  @HttpCode(201)
  @ApiOperation({ summary: 'Pair a device: exchange its initialization token (once) for its API token' })
  @ApiCreatedResponse({ type: DeviceInitializedResponse })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param or rest_invalid_param (token, hardware, software)' })
  @ApiUnauthorizedResponse({ description: 'device-token-invalid: unknown, used, expired or revoked' })
  initialize(@Body() body: InitializeDeviceDto): Promise<DeviceInitializedResponse> {
    return this.devices.initialize(body);
  }

  @Post(':id/revoke')
  @RequireScope('checkin:write')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ApiParam({ name: 'id', description: 'Device id', schema: { type: 'integer' } })
  @ApiOperation({ summary: 'Revoke a device: its token stops working at once' })
  @ApiOkResponse({ type: DeviceResponse })
  @ApiNotFoundResponse({ description: 'device-not-found' })
  revoke(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<DeviceResponse> {
    return this.devices.revoke(id, context.user);
  }
}
