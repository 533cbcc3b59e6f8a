import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/create-webhook.dto';
import { ListDeliveriesQuery } from './dto/list-deliveries.query';
import {
  CreatedWebhookResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookListResponse,
  WebhookResponse,
} from './dto/webhook.response';
import { WebhooksService } from './webhooks.service';
import { RequireScope } from '../auth/scope-decorators';

const ID_PARAM = ApiParam({ name: 'id', description: 'Webhook id', schema: { type: 'integer' } });
const NOT_FOUND = ApiNotFoundResponse({ description: 'webhook-not-found' });

/** Administrators only (`manage_users`): anonymous callers get 401, other roles 403 rest_forbidden. */
const AdminOnly = () => RequireCapability('manage_users', { forbidden: 'rest_forbidden: administrators only' });

@ApiTags('tickets')
@Controller('tickets/v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @RequireScope('webhooks:write')
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({ summary: 'List webhook endpoints (secrets are never shown again)' })
  @ApiOkResponse({ type: WebhookListResponse })
  async list(): Promise<WebhookListResponse> {
    return { webhooks: await this.webhooks.list() };
  }

  @Post()
  @RequireScope('webhooks:write')
  @HttpCode(201)
  @AdminOnly()
  @ApiOperation({ summary: 'Add a webhook endpoint; the response carries its signing secret, shown this once' })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  @ApiBadRequestResponse({
    description:
      'rest_invalid_param / rest_missing_callback_param: url (not http(s), does not resolve, private address), event_types, description, enabled',
  })
  create(@Body() body: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(body);
  }

  @Get(':id')
  @RequireScope('webhooks:write')
  @HttpCode(200)
  @AdminOnly()
  @ID_PARAM
  @ApiOperation({ summary: 'Read a webhook endpoint' })
  @ApiOkResponse({ type: WebhookResponse })
  @NOT_FOUND
  get(@Param('id', RouteIdPipe) id: number): Promise<WebhookResponse> {
    return this.webhooks.get(id);
  }

  @Patch(':id')
  @RequireScope('webhooks:write')
  @HttpCode(200)
  @AdminOnly()
  @ID_PARAM
  @ApiOperation({ summary: 'Change a webhook endpoint (url, event_types, description, enabled)' })
  @ApiOkResponse({ type: WebhookResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param naming the field' })
  @NOT_FOUND
  patch(@Param('id', RouteIdPipe) id: number, @Body() body: UpdateWebhookDto): Promise<WebhookResponse> {
    return this.webhooks.update(id, body);
  }

  @Put(':id')
  @RequireScope('webhooks:write')
  @HttpCode(200)
  @AdminOnly()
  @ID_PARAM
  @ApiOperation({ summary: 'Change a webhook endpoint (as PATCH)' })
  @ApiOkResponse({ type: WebhookResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param naming the field' })
  @NOT_FOUND
  put(@Param('id', RouteIdPipe) id: number, @Body() body: UpdateWebhookDto): Promise<WebhookResponse> {
    return this.webhooks.update(id, body);
  }

  @Delete(':id')
  @RequireScope('webhooks:write')
  @HttpCode(200)
  @AdminOnly()
  @ID_PARAM
  @ApiOperation({ summary: 'Delete a webhook endpoint and its pending deliveries' })
  @ApiOkResponse({ type: WebhookResponse, description: 'The endpoint as it was' })
  @NOT_FOUND
  remove(@Param('id', RouteIdPipe) id: number): Promise<WebhookResponse> {
    return this.webhooks.remove(id);
  }

  @Get(':id/deliveries')
  @RequireScope('webhooks:write')
  @HttpCode(200)
  @AdminOnly()
  @ID_PARAM
  @ApiOperation({ summary: 'The delivery log of an endpoint, newest first (kept OUTBOX_RETENTION_DAYS)' })
  @ApiOkResponse({ type: WebhookDeliveryListResponse, description: 'Headers X-ET-TOTAL and X-ET-TOTAL-PAGES carry the totals' })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (page, per_page outside 1..100) or invalid-page-number' })
  @NOT_FOUND
  async deliveries(
    @Param('id', RouteIdPipe) id: number,
    @Query() query: ListDeliveriesQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookDeliveryListResponse> {
    const page = await this.webhooks.deliveries(id, query);
    setTotalHeaders(response, 'tickets', page.total, page.total_pages);
    return page;
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @RequireScope('webhooks:write')
  @HttpCode(202)
  @AdminOnly()
  @ID_PARAM
  @ApiParam({ name: 'deliveryId', description: 'Delivery id, from the log', schema: { type: 'integer' } })
  @ApiOperation({ summary: 'Send a logged delivery again: a new delivery with the same webhook-id and body' })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse, description: 'The new delivery, pending' })
  @ApiNotFoundResponse({ description: 'webhook-not-found or webhook-delivery-not-found' })
  @ApiConflictResponse({ description: 'webhook-disabled: enable the endpoint first' })
  redeliver(@Param('id', RouteIdPipe) id: number, @Param('deliveryId', RouteIdPipe) deliveryId: number): Promise<WebhookDeliveryResponse> {
    return this.webhooks.redeliver(id, deliveryId);
  }
}
