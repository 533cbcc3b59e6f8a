import type {
  EntitySubscriberInterface,
  InsertEvent,
  QueryRunner,
  RemoveEvent,
  SoftRemoveEvent,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  UpdateEvent,
} from 'typeorm';

export type WriteEvent = InsertEvent<unknown> | UpdateEvent<unknown> | RemoveEvent<unknown> | SoftRemoveEvent<unknown>;

/**
 * A TypeORM subscriber that gathers what a transaction's writes touch and acts on it once per
 * transaction: inside it just before COMMIT (what it writes commits or rolls back with the rest),
 * or after the COMMIT (what it does must not hold the transaction's locks). A write outside a
 * transaction is acted on at once; a rolled-back transaction's gatherings are dropped.
 *
 * TypeORM reports entity saves and query-builder writes alike; writes run as raw SQL are reported
 * by announceRawWrites.
 */
export abstract class TransactionWriteCollector<Gathered> implements EntitySubscriberInterface {
  private readonly pending = new WeakMap<QueryRunner, Gathered>();

  protected abstract readonly actsOn: 'before-commit' | 'after-commit';

  /** Adds what `event` touched to `gathered` (undefined before the transaction's first write); undefined when nothing is to be done. */
  protected abstract gather(event: WriteEvent, gathered: Gathered | undefined): Gathered | undefined;

  /** Acts on one transaction's (or one lone write's) gatherings. */
  protected abstract act(runner: QueryRunner, gathered: Gathered): Promise<void>;

  afterInsert(event: InsertEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  afterUpdate(event: UpdateEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  afterRemove(event: RemoveEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  afterSoftRemove(event: SoftRemoveEvent<unknown>): Promise<void> {
    return this.touched(event);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    if (this.actsOn === 'before-commit') await this.release(event.queryRunner);
  }

  async afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    // A savepoint's commit leaves the transaction open: its writes wait for the outer COMMIT.
    if (this.actsOn === 'after-commit' && !event.queryRunner.isTransactionActive) await this.release(event.queryRunner);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }

  private async touched(event: WriteEvent): Promise<void> {
    const runner = event.queryRunner;
    const gathered = this.gather(event, this.pending.get(runner));
    if (gathered === undefined) return;
    if (runner.isTransactionActive) this.pending.set(runner, gathered);
    else await this.act(runner, gathered);
  }

  private async release(runner: QueryRunner): Promise<void> {
    const gathered = this.pending.get(runner);
    if (gathered === undefined) return;
    this.pending.delete(runner);
    await this.act(runner, gathered);
  }
}
