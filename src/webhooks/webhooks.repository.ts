import { Injectable } from '@nestjs/common';
import { OutboxMessage } from '../outbox/outbox-message.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** Webhook endpoints, and their deliveries as the outbox keeps them. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly tx: TransactionHost) {}

  // ---------------------------------------------------------------- endpoints

  endpoints(): Promise<WebhookEndpoint[]> {
    const manager = this.tx.manager;
    return manager.find(WebhookEndpoint, { order: { id: 'ASC' } });
  }

  enabledEndpoints(): Promise<WebhookEndpoint[]> {
    const manager = this.tx.manager;
    return manager.find(WebhookEndpoint, { where: { enabled: true } });
  }

  findEndpoint(id: number): Promise<WebhookEndpoint | null> {
    const manager = this.tx.manager;
    return manager.findOne(WebhookEndpoint, { where: { id } });
  }

  insertEndpoint(values: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint> {
    const manager = this.tx.manager;
    return manager.save(manager.create(WebhookEndpoint, values));
  }

  saveEndpoint(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    const manager = this.tx.manager;
    return manager.save(endpoint);
  }

  /** Deletes the endpoint and its deliveries, in the caller's transaction. */
  async deleteEndpoint(id: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.delete(OutboxMessage, { endpointId: id, channel: 'webhook' });
    await manager.delete(WebhookEndpoint, { id });
  }

  async disable(id: number, reason: string, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(WebhookEndpoint, { id }, { enabled: false, disabledReason: reason, updatedAt: now });
  }

  // ---------------------------------------------------------------- deliveries

  /** A page of the endpoint's deliveries, newest first, and how many it has. */
  deliveryPage(endpointId: number, offset: number, limit: number): Promise<[OutboxMessage[], number]> {
    const manager = this.tx.manager;
    return manager.findAndCount(OutboxMessage, {
      where: { endpointId, channel: 'webhook' },
      order: { id: 'DESC' },
      skip: offset,
      take: limit,
    });
  }

  findDelivery(endpointId: number, id: number): Promise<OutboxMessage | null> {
    const manager = this.tx.manager;
    return manager.findOne(OutboxMessage, { where: { id, endpointId, channel: 'webhook' } });
  }

  /** The endpoint's newest delivery. */
  latestDelivery(endpointId: number): Promise<OutboxMessage | null> {
    const manager = this.tx.manager;
    return manager.findOne(OutboxMessage, { where: { endpointId, channel: 'webhook' }, order: { id: 'DESC' } });
  }
}
