import { Get, HttpCode, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequireAuthentication, RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { BesideNamespaces } from '../common/http/api-root-mount';
import { WpSettingsResponse, WpUserResponse } from './dto/wp-discovery.response';
import { WpDiscoveryService } from './wp-discovery.service';
import { AnyScope } from '../auth/scope-decorators';

/** WordPress's `wp/v2` routes a client calls at start-up (TEC's MCP server does), under the API root. */
@ApiTags('wp')
@BesideNamespaces('wp/v2')
export class WpDiscoveryController {
  constructor(private readonly discovery: WpDiscoveryService) {}

  @Get('users/me')
  @AnyScope()
  @HttpCode(200)
  @RequireAuthentication()
  @ApiQuery({ name: 'context', required: false, enum: ['view', 'embed', 'edit'], description: 'edit adds username, email and roles' })
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiOkResponse({ type: WpUserResponse })
  me(@RequestContext() context: SignedInContext, @Query('context') scope?: unknown): Promise<WpUserResponse> {
    return this.discovery.me(context, scope);
  }

  @Get('settings')
  @AnyScope()
  @HttpCode(200)
  @RequireCapability('manage_users', { forbidden: 'rest_forbidden: administrators only (WordPress: manage_options)' })
  @ApiOperation({ summary: 'Site settings' })
  @ApiOkResponse({ type: WpSettingsResponse })
  settings(@RequestContext() context: RequestContext): WpSettingsResponse {
    return this.discovery.settings(context);
  }
}
