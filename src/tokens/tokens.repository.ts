import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { User } from '../auth/user.entity';
import { TransactionHost } from '../common/database/transaction-host';
import { Event } from '../events/event.entity';

/** What creating a token checks beyond the token table (ApiTokensRepository): that its owner and events exist. */
@Injectable()
export class TokensRepository {
  constructor(private readonly tx: TransactionHost) {}

  async existingEventIds(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.tx.manager.find(Event, { select: { id: true }, where: { id: In([...ids]) } });
    return new Set(rows.map((row) => row.id));
  }

  async userExists(id: number): Promise<boolean> {
    return (await this.tx.manager.count(User, { where: { id } })) > 0;
  }
}
