import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequireAuthentication } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { NoTokens } from '../auth/scope-decorators';
import { ApiErrorResponse } from '../common/errors/api-error.response';
import { RouteIdPipe } from '../common/http/route-params';
import { CreateTokenDto, ListTokensQuery } from './dto/create-token.dto';
import { TokenCreatedResponse, TokenListResponse, TokenResponse } from './dto/token.response';
import { TokensService } from './tokens.service';

const ID = ApiParam({ name: 'id', description: 'Token id', schema: { type: 'integer' } });
const SIGNED_IN = { forbidden: 'rest_forbidden: a caller authenticated by an API token (tokens never manage tokens)' };

/** API tokens (cal/auth/v1, docs/tokens.md): managed with an application password, never with a token. */
@ApiTags('auth')
@NoTokens()
@Controller('auth/v1/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  @HttpCode(200)
  @RequireAuthentication(SIGNED_IN)
  @ApiOperation({ summary: "List API tokens: every user's for administrators (or one owner's), one's own for others" })
  @ApiOkResponse({ type: TokenListResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (owner, page, per_page)' })
  list(@Query() query: ListTokensQuery, @RequestContext() context: SignedInContext): Promise<TokenListResponse> {
    return this.tokens.list(query, context.user);
  }

  @Post()
  @HttpCode(201)
  @RequireAuthentication(SIGNED_IN)
  @ApiOperation({ summary: 'Create an API token; the answer shows its secret once' })
  @ApiCreatedResponse({ type: TokenCreatedResponse })
  @ApiBadRequestResponse({
    description:
      'rest_missing_callback_param or rest_invalid_param naming the field (name, scopes, preset, limit_events, expires_at, allowed_ips, owner)',
  })
  @ApiForbiddenResponse({
    type: ApiErrorResponse,
    description: 'rest_forbidden: a token of another user (administrators only), or a token caller',
  })
  create(@Body() body: CreateTokenDto, @RequestContext() context: SignedInContext): Promise<TokenCreatedResponse> {
    return this.tokens.create(body, context.user);
  }

  @Get(':id')
  @HttpCode(200)
  @RequireAuthentication(SIGNED_IN)
  @ID
  @ApiOperation({ summary: 'Read an API token (never its secret)' })
  @ApiOkResponse({ type: TokenResponse })
  @ApiNotFoundResponse({ description: "token-not-found (also another user's token, for non-administrators)" })
  get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<TokenResponse> {
    return this.tokens.get(id, context.user);
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @RequireAuthentication(SIGNED_IN)
  @ID
  @ApiOperation({ summary: 'Revoke an API token: its next request is 401 invalid_token, on every instance' })
  @ApiOkResponse({ type: TokenResponse })
  @ApiNotFoundResponse({ description: 'token-not-found' })
  revoke(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<TokenResponse> {
    return this.tokens.revoke(id, context.user);
  }

  @Delete(':id')
  @HttpCode(200)
  @RequireAuthentication(SIGNED_IN)
  @ID
  @ApiOperation({ summary: 'Delete an API token (it stops working at once); answers it as it was' })
  @ApiOkResponse({ type: TokenResponse })
  @ApiNotFoundResponse({ description: 'token-not-found' })
  remove(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<TokenResponse> {
    return this.tokens.remove(id, context.user);
  }
}
