import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { TransactionHost } from '../common/database/transaction-host';
import { ApiToken } from './api-token.entity';

export type NewApiTokenRow = Pick<
  ApiToken,
  'userId' | 'name' | 'prefix' | 'secretHash' | 'scopes' | 'preset' | 'limitEvents' | 'pii' | 'expiresAt' | 'allowedIps'
>;

/** API tokens: the per-request lookup and the management routes' reads and writes. */
@Injectable()
export class ApiTokensRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * The token with this prefix and its owner, read from the database on every request (no copy kept
   * between requests): a revoke, an expiry or the owner's new role holds at once, on every instance.
   */
  findByPrefixWithOwner(prefix: string): Promise<ApiToken | null> {
    return this.tx.manager.findOne(ApiToken, { where: { prefix }, relations: { owner: true } });
  }

  /**
   * Sets `last_used_at` unless another request did within the resolution: one conditional UPDATE,
   * so instances racing on the same token write it once.
   */
  async touchLastUsed(id: number, now: Date, notSince: Date): Promise<void> {
    await this.tx.manager
      .createQueryBuilder()
      .update(ApiToken)
      .set({ lastUsedAt: now })
      .where('id = :id', { id })
      .andWhere('(last_used_at IS NULL OR last_used_at < :notSince)', { notSince })
      .execute();
  }

  findById(id: number): Promise<ApiToken | null> {
    return this.tx.manager.findOne(ApiToken, { where: { id } });
  }

  /** A page of tokens, newest first; of one owner, or of everyone (`ownerId` undefined). */
  page(ownerId: number | undefined, offset: number, limit: number): Promise<[ApiToken[], number]> {
    return this.tx.manager.findAndCount(ApiToken, {
      where: ownerId === undefined ? {} : { userId: ownerId },
      order: { id: 'DESC' },
      skip: offset,
      take: limit,
    });
  }

  insert(values: NewApiTokenRow): Promise<ApiToken> {
    const manager = this.tx.manager;
    return manager.save(manager.create(ApiToken, { ...values, lastUsedAt: null, revokedAt: null }));
  }

  /** Revokes the token unless already revoked; returns whether this call did. */
  async revoke(id: number, now: Date): Promise<boolean> {
    const result = await this.tx.manager.update(ApiToken, { id, revokedAt: IsNull() }, { revokedAt: now });
    return (result.affected ?? 0) > 0;
  }

  async delete(id: number): Promise<void> {
    await this.tx.manager.delete(ApiToken, { id });
  }
}
