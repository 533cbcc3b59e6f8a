import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxMessage } from '../outbox/outbox-message.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/** Webhook endpoints, and their deliveries as the outbox keeps them. */
@Injectable()
export class WebhooksRepository {
  // ---------------------------------------------------------------- endpoints

  endpoints(manager: EntityManager): Promise<WebhookEndpoint[]> {
    return manager.find(WebhookEndpoint, { order: { id: 'ASC' } });
  }

  enabledEndpoints(manager: EntityManager): Promise<WebhookEndpoint[]> {
    return manager.find(WebhookEndpoint, { where: { enabled: true } });
  }

  findEndpoint(manager: EntityManager, id: number): Promise<WebhookEndpoint | null> {
    return manager.findOne(WebhookEndpoint, { where: { id } });
  }

  insertEndpoint(manager: EntityManager, values: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint> {
    return manager.save(manager.create(WebhookEndpoint, values));
  }

  saveEndpoint(manager: EntityManager, endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    return manager.save(endpoint);
  }

  /** Deletes the endpoint and its deliveries, in the caller's transaction. */
  async deleteEndpoint(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(OutboxMessage, { endpointId: id, channel: 'webhook' });
    await manager.delete(WebhookEndpoint, { id });
  }

  async disable(manager: EntityManager, id: number, reason: string, now: Date): Promise<void> {
    await manager.update(WebhookEndpoint, { id }, { enabled: false, disabledReason: reason, updatedAt: now });
  }

  // ---------------------------------------------------------------- deliveries

  /** A page of the endpoint's deliveries, newest first, and how many it has. */
  deliveryPage(manager: EntityManager, endpointId: number, offset: number, limit: number): Promise<[OutboxMessage[], number]> {
    return manager.findAndCount(OutboxMessage, {
      where: { endpointId, channel: 'webhook' },
      order: { id: 'DESC' },
      skip: offset,
      take: limit,
    });
  }

  findDelivery(manager: EntityManager, endpointId: number, id: number): Promise<OutboxMessage | null> {
    return manager.findOne(OutboxMessage, { where: { id, endpointId, channel: 'webhook' } });
  }

  /** The endpoint's newest delivery. */
  latestDelivery(manager: EntityManager, endpointId: number): Promise<OutboxMessage | null> {
    return manager.findOne(OutboxMessage, { where: { endpointId, channel: 'webhook' }, order: { id: 'DESC' } });
  }
}
