import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CLOCK, Clock } from '../common/clock';
import { invalidParam } from '../common/errors/api-error';
import { assertPageInRange, countPages, parsePageRequest } from '../common/pagination/pagination';
import { appConfig } from '../config/app.config';
import type { EventType } from '../outbox/event-types';
import { DeliveryAttemptError, PermanentDeliveryError } from '../outbox/delivery-errors';
import type { OutboxMessage } from '../outbox/outbox-message.entity';
import { DirectMessage, EventData, OutboxService } from '../outbox/outbox.service';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/create-webhook.dto';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { CreatedWebhookResponse, WebhookDeliveryListResponse, WebhookDeliveryResponse, WebhookResponse } from './dto/webhook.response';
import { WebhookSecretBox } from './webhook-secret-box';
import { sendWebhook } from './webhook-sender';
import { resolveWebhookTarget, WebhookTargetError } from './webhook-target';
import type { WebhookEndpoint } from './webhook-endpoint.entity';
import { deliveryNotFound, webhookDisabled, webhookNotFound } from './webhook-errors';
import { WebhooksRepository } from './webhooks.repository';
import { TransactionHost } from '../common/database/transaction-host';

/** Secret bytes: 24 random bytes, as `whsec_<base64>` (the Standard Webhooks form). */
const SECRET_BYTES = 24;

export function toWebhookResponse(endpoint: WebhookEndpoint): WebhookResponse {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes === null ? null : (JSON.parse(endpoint.eventTypes) as string[]),
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    created: endpoint.createdAt.toISOString(),
    modified: endpoint.updatedAt.toISOString(),
  };
}

export function toDeliveryResponse(message: OutboxMessage): WebhookDeliveryResponse {
  return {
    id: message.id,
    message_id: message.messageId ?? '',
    event_type: message.type,
    status: message.status,
    attempts: message.attempts,
    response_status: message.responseStatus,
    last_error: message.lastError,
    next_attempt: message.status === 'pending' ? message.nextAttemptAt.toISOString() : null,
    created: message.createdAt.toISOString(),
    delivered: message.deliveredAt ? message.deliveredAt.toISOString() : null,
    payload: JSON.parse(message.payload) as Record<string, unknown>,
  };
}

/**
 * Webhook endpoints (administrators), the deliveries the worker makes to them and their log.
 * Each notification becomes one delivery per subscribed endpoint, with the Standard Webhooks body
 * `{type, timestamp, data}` and a `webhook-id` that stays the same across retries and redeliveries.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly repository: WebhooksRepository,
  ) {
    this.secrets = new WebhookSecretBox(config.nonceSecret);
  }

  private readonly secrets: WebhookSecretBox;

  // ---------------------------------------------------------------- endpoints

  async list(): Promise<WebhookResponse[]> {
    const endpoints = await this.repository.endpoints();
    return endpoints.map(toWebhookResponse);
  }

  async get(id: number): Promise<WebhookResponse> {
    return toWebhookResponse(await this.findOrFail(id));
  }

  async create(input: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    await this.checkUrl(input.url);
    const now = this.clock.now();
    const secret = `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
    const endpoint = await this.repository.insertEndpoint({
      url: input.url,
      description: input.description ?? '',
      eventTypes: input.event_types ? JSON.stringify(input.event_types) : null,
      secret: this.secrets.seal(secret),
      enabled: input.enabled ?? true,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    });
    return { ...toWebhookResponse(endpoint), secret };
  }

  async update(id: number, input: UpdateWebhookDto): Promise<WebhookResponse> {
    const endpoint = await this.findOrFail(id);
    if (input.url !== undefined) {
      await this.checkUrl(input.url);
      endpoint.url = input.url;
    }
    if (input.event_types !== undefined) endpoint.eventTypes = input.event_types === null ? null : JSON.stringify(input.event_types);
    if (input.description !== undefined) endpoint.description = input.description;
    if (input.enabled !== undefined) {
      endpoint.enabled = input.enabled;
      if (input.enabled) endpoint.disabledReason = null;
    }
    endpoint.updatedAt = this.clock.now();
    return toWebhookResponse(await this.repository.saveEndpoint(endpoint));
  }

  /** Deletes the endpoint and its pending deliveries; answers with the endpoint as it was. */
  async remove(id: number): Promise<WebhookResponse> {
    return this.tx.run(async () => {
      const endpoint = await this.findOrFail(id);
      const response = toWebhookResponse(endpoint);
      await this.repository.deleteEndpoint(id);
      return response;
    });
  }

  async deliveries(id: number, query: ListDeliveriesQuery): Promise<WebhookDeliveryListResponse> {
    await this.findOrFail(id);
    const page = parsePageRequest(query, 'tickets');
    const [rows, total] = await this.repository.deliveryPage(id, page.offset, page.perPage);
    const totalPages = countPages(total, page.perPage);
    assertPageInRange(page.page, totalPages, { kind: 'invalid' });
    return { total, total_pages: totalPages, deliveries: rows.map(toDeliveryResponse) };
  }

  /** Sends a logged delivery again, as a new delivery with the same `webhook-id` and body. */
  async redeliver(id: number, deliveryId: number): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.findOrFail(id);
    if (!endpoint.enabled) throw webhookDisabled();
    return this.tx.run(async () => {
      const original = await this.repository.findDelivery(id, deliveryId);
      if (!original) throw deliveryNotFound();
      await this.outbox.queue([
        { channel: 'webhook', type: original.type, payload: original.payload, endpointId: id, messageId: original.messageId },
      ]);
      const queued = await this.repository.latestDelivery(id);
      return toDeliveryResponse(queued as OutboxMessage);
    });
  }

  // ---------------------------------------------------------------- fan-out and delivery

  /** One delivery per enabled endpoint subscribed to `type`, read in the worker's transaction. */
  async deliveriesFor(event: OutboxMessage, type: EventType, data: EventData): Promise<DirectMessage[]> {
    const endpoints = await this.repository.enabledEndpoints();
    const payload = JSON.stringify({ type, timestamp: event.createdAt.toISOString(), data });
    return endpoints
      .filter((endpoint) => endpoint.eventTypes === null || (JSON.parse(endpoint.eventTypes) as string[]).includes(type))
      .map((endpoint) => ({ channel: 'webhook', type, payload, endpointId: endpoint.id, messageId: `msg_${event.id}` }));
  }

  /** One attempt; a 410 answer disables the endpoint. Returns the receiver's status. */
  async deliver(message: OutboxMessage): Promise<number> {
    const endpoint = message.endpointId === null ? null : await this.repository.findEndpoint(message.endpointId);
    if (!endpoint) throw new PermanentDeliveryError('the endpoint was deleted');
    if (!endpoint.enabled) throw new PermanentDeliveryError(endpoint.disabledReason ?? 'the endpoint is disabled');
    let secret: string;
    try {
      secret = this.secrets.open(endpoint.secret);
    } catch {
      throw new PermanentDeliveryError('the signing secret cannot be decrypted: NONCE_SECRET changed since the endpoint was created');
    }
    let target;
    try {
      target = await resolveWebhookTarget(endpoint.url, this.config.notifications.webhookAllowPrivate);
    } catch (error) {
      throw new DeliveryAttemptError((error as Error).message, null);
    }
    try {
      return await sendWebhook({
        target,
        secret,
        messageId: message.messageId ?? `msg_${message.id}`,
        payload: message.payload,
        timeoutMs: this.config.notifications.webhookTimeoutMs,
        now: this.clock.now(),
      });
    } catch (error) {
      if (error instanceof PermanentDeliveryError && error.responseStatus === 410) {
        await this.repository.disable(endpoint.id, 'The endpoint answered 410 Gone.', this.clock.now());
      }
      throw error;
    }
  }

  // ---------------------------------------------------------------- helpers

  private async checkUrl(url: string): Promise<void> {
    try {
      await resolveWebhookTarget(url, this.config.notifications.webhookAllowPrivate);
    } catch (error) {
      if (error instanceof WebhookTargetError) throw invalidParam('url', error.message);
      throw error;
    }
  }

  private async findOrFail(id: number): Promise<WebhookEndpoint> {
    const endpoint = await this.repository.findEndpoint(id);
    if (!endpoint) throw webhookNotFound();
    return endpoint;
  }
}
