import { Injectable } from '@nestjs/common';
import { KeptInserts } from '../common/database/kept-statements';
import { IdempotencyKey } from './idempotency-key.entity';
import { TransactionHost } from '../common/database/transaction-host';

/** Every statement on `idempotency_keys`. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly tx: TransactionHost) {}

  private readonly inserts = new KeptInserts();

  find(scope: string, key: string): Promise<IdempotencyKey | null> {
    const manager = this.tx.manager;
    return manager.findOne(IdempotencyKey, { where: { scope, idempotencyKey: key } });
  }

  /**
   * Inserts the row; fails on the unique index (scope, key) when another holds it. Held with the
   * checkout's other writes while its transaction holds them: the answer's ids are then stand-ins
   * in `responseBody`, replaced in the statement that writes it.
   */
  async insert(row: Omit<IdempotencyKey, 'id'>): Promise<void> {
    const manager = this.tx.manager;
    await this.inserts.insert(manager, IdempotencyKey, [row], { json: ['responseBody'] });
  }

  /** Deletes the key's row if it was created at or before `cutoff`. */
  async deleteIfCreatedBy(scope: string, key: string, cutoff: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .delete()
      .from(IdempotencyKey)
      .where('scope = :scope AND idempotency_key = :key AND created_at <= :cutoff', { scope, key, cutoff })
      .execute();
  }

  /** Stores the response (its body as JSON) in the key's row. */
  async setResponse(scope: string, key: string, response: { statusCode: number; body: unknown }): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(IdempotencyKey)
      .set({ statusCode: response.statusCode, responseBody: JSON.stringify(response.body) })
      .where('scope = :scope AND idempotency_key = :key', { scope, key })
      .execute();
  }

  /** Deletes every row created at or before `cutoff`; answers how many. */
  async deleteCreatedBy(cutoff: Date): Promise<number> {
    const manager = this.tx.manager;
    const result = await manager.createQueryBuilder().delete().from(IdempotencyKey).where('created_at <= :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
