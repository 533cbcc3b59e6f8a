import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { CreateQueueDto, UpdateQueueDto } from './dto/create-queue.dto';
import { ClaimAdmissionDto, JoinQueueDto } from './dto/join-queue.dto';
import {
  QueueAdmissionResponse,
  QueueEntryResponse,
  QueueMetricsResponse,
  QueueResponse,
  QueueSharedStatusResponse,
} from './dto/queue.response';
import { QueuesService } from './queues.service';
import { RequestIdPipe } from './request-id.pipe';
import { AnyScope, RequireScope } from '../auth/scope-decorators';

const MANAGERS = RequireCapability('publish_events', {
  forbidden: 'rest_forbidden: the role lacks publish_events, or the caller does not manage the event',
});
const QUEUE_ID = ApiParam({ name: 'id', description: 'Queue id', schema: { type: 'integer' } });
const REQUEST_ID = ApiParam({ name: 'request_id', description: 'The client-made id the entry joined with', schema: { type: 'string' } });
const NOT_FOUND = ApiNotFoundResponse({ description: 'queue-not-found, or queue-entry-not-found' });

/** Shared by every entry: a second or two in Varnish under the queue's surrogate key, never in browsers for longer. */
const SHARED_STATUS_MAX_AGE = 1;

/** The shared status's caching headers (this handler's, and QueuePollMiddleware's for the same route). */
export function sharedStatusHeaders(response: Response, id: number): void {
  response.setHeader('Cache-Control', `public, max-age=${SHARED_STATUS_MAX_AGE}`);
  response.setHeader('Surrogate-Key', `queue-${id}`);
}

/**
 * An entry's place, kept by shared caches (Varnish) for as long as the shared status, so that a
 * client polling faster than `refresh_after_seconds` (a bot) is answered from the cache: the
 * request id is no credential (claiming the admission needs the secret), and the place a second
 * old is what the service's own copy of the queue answers anyway. This handler's, and
 * QueuePollMiddleware's.
 */
export function entryPollHeaders(response: Response, id: number): void {
  sharedStatusHeaders(response, id);
}

@ApiTags('tickets')
@Controller('tickets/v1/queues')
export class QueuesController {
  constructor(private readonly queues: QueuesService) {}

  @Post()
  @RequireScope('events:write')
  @HttpCode(201)
  @MANAGERS
  @ApiOperation({ summary: 'Create a waiting room for an on-sale (an event, or some of its tickets)' })
  @ApiCreatedResponse({ type: QueueResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param / rest_missing_callback_param naming the field; queue-tickets-invalid' })
  create(@Body() body: CreateQueueDto, @RequestContext() context: SignedInContext): Promise<QueueResponse> {
    return this.queues.create(body, context);
  }

  @Get(':id')
  @RequireScope('events:read')
  @HttpCode(200)
  @QUEUE_ID
  @ApiOperation({ summary: "A queue's settings and state (anyone: the queue page reads it)" })
  @ApiOkResponse({ type: QueueResponse })
  @NOT_FOUND
  get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<QueueResponse> {
    return this.queues.get(id, context);
  }

  @Patch(':id')
  @RequireScope('events:write')
  @HttpCode(200)
  @MANAGERS
  @QUEUE_ID
  @ApiOperation({ summary: 'Change the settings, pause or resume (paused), or close the queue (closed: true)' })
  @ApiOkResponse({ type: QueueResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param naming the field' })
  @NOT_FOUND
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateQueueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<QueueResponse> {
    return this.queues.update(id, body, context);
  }

  @Get(':id/status')
  @AnyScope()
  @HttpCode(200)
  @QUEUE_ID
  @ApiOperation({
    summary: 'What every entry shares (serving counter, rate, size): cacheable for a second under the surrogate key queue-{id}',
  })
  @ApiOkResponse({ type: QueueSharedStatusResponse })
  @NOT_FOUND
  async sharedStatus(
    @Param('id', RouteIdPipe) id: number,
    @Res({ passthrough: true }) response: Response,
  ): Promise<QueueSharedStatusResponse> {
    const status = await this.queues.sharedStatus(id);
    sharedStatusHeaders(response, id);
    return status;
  }

  @Get(':id/metrics')
  @RequireScope('events:read')
  @HttpCode(200)
  @MANAGERS
  @QUEUE_ID
  @ApiOperation({ summary: 'Waiting, active, admitted per minute, abandonment' })
  @ApiOkResponse({ type: QueueMetricsResponse })
  @NOT_FOUND
  metrics(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<QueueMetricsResponse> {
    return this.queues.metrics(id, context);
  }

  @Post(':id/entries')
  @AnyScope()
  @HttpCode(202)
  @QUEUE_ID
  @ApiOperation({ summary: 'Join the queue (anyone); a retry with the same request_id and secret_hash gets the same entry' })
  @ApiAcceptedResponse({ type: QueueEntryResponse })
  @ApiBadRequestResponse({ description: 'rest_invalid_param / rest_missing_callback_param (request_id, secret_hash)' })
  @ApiConflictResponse({
    description: 'queue-not-open (before prequeue_opens_at), queue-closed, queue-entry-exists (request_id taken with another secret)',
  })
  @ApiTooManyRequestsResponse({ description: 'queue-join-limit: this address or account holds as many entries as it may' })
  @NOT_FOUND
  join(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: JoinQueueDto,
    @RequestContext() context: RequestContext,
  ): Promise<QueueEntryResponse> {
    return this.queues.join(id, body, context);
  }

  @Get(':id/entries/:request_id')
  @AnyScope()
  @HttpCode(200)
  @QUEUE_ID
  @REQUEST_ID
  @ApiOperation({ summary: "An entry's place: status, position, ahead, ETA (p50/p90) and when to ask again" })
  @ApiOkResponse({ type: QueueEntryResponse })
  @NOT_FOUND
  async entry(
    @Param('id', RouteIdPipe) id: number,
    @Param('request_id', RequestIdPipe) requestId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<QueueEntryResponse> {
    const status = await this.queues.entryStatus(id, requestId);
    entryPollHeaders(response, id);
    return status;
  }

  @Post(':id/entries/:request_id/admission')
  @AnyScope()
  @HttpCode(200)
  @QUEUE_ID
  @REQUEST_ID
  @ApiOperation({ summary: "Claim an admitted entry's token with its secret (once; a retry gets the same token)" })
  @ApiOkResponse({ type: QueueAdmissionResponse })
  @ApiBadRequestResponse({ description: 'rest_missing_callback_param / rest_invalid_param (secret)' })
  @ApiForbiddenResponse({ description: 'queue-secret-mismatch: the secret does not hash to the secret_hash the entry joined with' })
  @ApiConflictResponse({ description: 'queue-not-admitted: the turn has not come, or is over (data.entry_status)' })
  @NOT_FOUND
  claim(
    @Param('id', RouteIdPipe) id: number,
    @Param('request_id', RequestIdPipe) requestId: string,
    @Body() body: ClaimAdmissionDto,
  ): Promise<QueueAdmissionResponse> {
    return this.queues.claimAdmission(id, requestId, body.secret);
  }

  @Delete(':id/entries/:request_id/admission')
  @AnyScope()
  @HttpCode(200)
  @MANAGERS
  @QUEUE_ID
  @REQUEST_ID
  @ApiOperation({ summary: "Revoke the entry's admission (its token is refused from now on) and end its turn" })
  @ApiOkResponse({ type: QueueEntryResponse })
  @NOT_FOUND
  revoke(
    @Param('id', RouteIdPipe) id: number,
    @Param('request_id', RequestIdPipe) requestId: string,
    @RequestContext() context: SignedInContext,
  ): Promise<QueueEntryResponse> {
    return this.queues.revokeAdmission(id, requestId, context);
  }
}
