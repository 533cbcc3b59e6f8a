import { Injectable } from '@nestjs/common';
import { In, IsNull, Not, ObjectLiteral } from 'typeorm';
import { hydrate, KeptSelects } from '../common/database/kept-statements';
import { TransactionHost } from '../common/database/transaction-host';
import { Event } from '../events/event.entity';
import type { PoolCounts } from '../tickets/capacity';
import { Ticket } from '../tickets/ticket.entity';
import { TicketPool } from '../tickets/ticket-pool.entity';
import { EntryStatus, Queue, QueueAdmission, QueueEntry } from './queue.entity';

/** Positions written per UPDATE when the pre-queue is shuffled. */
const POSITION_BATCH = 500;

/** The queues' SQL: the queue rows and their counter, entries, admissions. Runs in the current transaction (TransactionHost). */
@Injectable()
export class QueuesRepository {
  /** The entry poll's SELECT, written once (every waiting buyer polls every few seconds). */
  private readonly selects = new KeptSelects();

  constructor(private readonly tx: TransactionHost) {}

  private get manager() {
    return this.tx.manager;
  }

  // ---------------------------------------------------------------- queues

  async insertQueue(queue: Omit<Queue, 'id'>): Promise<Queue> {
    return this.manager.save(Queue, queue);
  }

  findQueue(id: number): Promise<Queue | null> {
    return this.manager.findOne(Queue, { where: { id } });
  }

  async updateQueue(id: number, changes: Partial<Queue>): Promise<void> {
    await this.manager.update(Queue, { id }, changes);
  }

  /** Queues not closed yet: what the gate and the ticker work from. */
  openQueues(): Promise<Queue[]> {
    return this.manager.find(Queue, { where: { closedAt: IsNull() }, order: { id: 'ASC' } });
  }

  /** Open queues with their event's author (the gate's cache). */
  async openQueuesWithAuthors(): Promise<Array<{ queue: Queue; authorId: number | null }>> {
    const queues = await this.openQueues();
    if (queues.length === 0) return [];
    const events = await this.manager.find(Event, {
      where: { id: In([...new Set(queues.map((queue) => queue.eventId))]) },
      select: { id: true, authorId: true },
    });
    const authors = new Map(events.map((event) => [event.id, event.authorId]));
    return queues.map((queue) => ({ queue, authorId: authors.get(queue.eventId) ?? null }));
  }

  listForEvent(eventId: number): Promise<Queue[]> {
    return this.manager.find(Queue, { where: { eventId }, order: { id: 'ASC' } });
  }

  eventOwner(eventId: number): Promise<Pick<Event, 'id' | 'authorId'> | null> {
    return this.manager.findOne(Event, { where: { id: eventId }, select: { id: true, authorId: true } });
  }

  /** Of `ticketIds`, those of the event. */
  async ticketsOfEvent(eventId: number, ticketIds: number[]): Promise<Set<number>> {
    if (ticketIds.length === 0) return new Set();
    const rows = await this.manager.find(Ticket, { where: { eventId, id: In(ticketIds) }, select: { id: true } });
    return new Set(rows.map((row) => row.id));
  }

  /**
   * The tickets a queue guards (`ticketIds`, or every ticket of the event but trashed ones) with their
   * counts, and the event's pool: whether any unit is left. Read in the caller's transaction, so a
   * take it just made counts.
   */
  async guardedTicketCounts(eventId: number, ticketIds: number[] | null): Promise<{ tickets: Ticket[]; pool: PoolCounts | undefined }> {
    const where = ticketIds ? { eventId, id: In(ticketIds) } : { eventId, status: Not('trash') };
    const tickets = await this.manager.find(Ticket, { where });
    const pool = await this.manager.findOne(TicketPool, { where: { eventId } });
    return { tickets, pool: pool ? { capacity: pool.capacity, sold: pool.sold, pending: pool.pending } : undefined };
  }

  /**
   * Locks the queue row for a join (every join, and the opening, take it first): the join's count
   * moves, and the row is read back under the lock, so whether the pre-queue was shuffled and the
   * last position are what they are until the join commits.
   */
  async lockForJoin(id: number): Promise<Queue | null> {
    await this.manager
      .createQueryBuilder()
      .update(Queue)
      .set({ joinedCount: () => 'joined_count + 1' })
      .where('id = :id', { id })
      .execute();
    return this.lockQueue(id);
  }

  /** The queue row, locked until the transaction ends (the opening's lock, the same joins take). */
  lockQueue(id: number): Promise<Queue | null> {
    return this.manager.findOne(Queue, { where: { id }, ...this.tx.dialect.findForUpdate() });
  }

  /** The next position, under the join's lock of the queue row. */
  async takePosition(queue: Queue): Promise<number> {
    const position = queue.lastPosition + 1;
    await this.manager.update(Queue, { id: queue.id }, { lastPosition: position });
    queue.lastPosition = position;
    return position;
  }

  /** Marks the queue opened; false when another instance did first. */
  async markOpened(id: number, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(Queue)
      .set({ openedAt: now, updatedAt: now })
      .where('id = :id AND opened_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async markClosed(id: number, reason: 'closed' | 'sold_out', now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(Queue)
      .set({ closedAt: now, closedReason: reason, updatedAt: now })
      .where('id = :id AND closed_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * The counter's advance: written only when the row still has the version read (another instance
   * advancing meanwhile makes this one a no-op). Returns whether it was written.
   */
  async advanceCounter(
    id: number,
    readVersion: number,
    next: { servingCounter: number; counterAt: Date; rateSamples: string; autoRate?: number },
  ): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(Queue)
      .set({ ...next, counterVersion: readVersion + 1 })
      .where('id = :id AND counter_version = :readVersion', { id, readVersion })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  // ---------------------------------------------------------------- entries

  /** The entry a client joined with: one read of the unique index (queue_id, request_id). */
  async findEntry(queueId: number, requestId: string): Promise<QueueEntry | null> {
    const manager = this.manager;
    const [row] = await this.selects.rows<ObjectLiteral>(
      manager,
      'findEntry',
      () => manager.createQueryBuilder(QueueEntry, 'entry').where('entry.queueId = :queueId AND entry.requestId = :requestId').limit(1),
      { queueId, requestId },
    );
    return row ? hydrate(manager, QueueEntry, 'entry', row) : null;
  }

  findEntryById(id: number): Promise<QueueEntry | null> {
    return this.manager.findOne(QueueEntry, { where: { id } });
  }

  countByAddress(queueId: number, clientAddress: string): Promise<number> {
    return this.manager.count(QueueEntry, { where: { queueId, clientAddress } });
  }

  countByUser(queueId: number, userId: number): Promise<number> {
    return this.manager.count(QueueEntry, { where: { queueId, userId } });
  }

  insertEntry(entry: Omit<QueueEntry, 'id'>): Promise<QueueEntry> {
    return this.manager.save(QueueEntry, entry);
  }

  /** Ids of the pre-queue's entries, to shuffle. */
  async prequeueIds(queueId: number): Promise<number[]> {
    const rows = await this.manager.find(QueueEntry, {
      where: { queueId, status: 'prequeue' },
      select: { id: true },
      order: { id: 'ASC' },
    });
    return rows.map((row) => row.id);
  }

  /** Gives `orderedIds` positions from `first` on, and makes them waiting: a few UPDATEs of a CASE each. */
  async assignPositions(orderedIds: number[], first: number, etaOf: (position: number) => Date | null): Promise<void> {
    for (let start = 0; start < orderedIds.length; start += POSITION_BATCH) {
      const batch = orderedIds.slice(start, start + POSITION_BATCH);
      const params: Record<string, number | Date | null> = {};
      const positions: string[] = [];
      const etas: string[] = [];
      batch.forEach((id, index) => {
        params[`i${index}`] = id;
        params[`p${index}`] = first + start + index;
        params[`e${index}`] = etaOf(first + start + index);
        positions.push(`WHEN :i${index} THEN :p${index}`);
        etas.push(`WHEN :i${index} THEN :e${index}`);
      });
      await this.manager
        .createQueryBuilder()
        .update(QueueEntry)
        .set({ status: 'waiting', position: () => `CASE id ${positions.join(' ')} END`, etaAt: () => `CASE id ${etas.join(' ')} END` })
        .where('id IN (:...ids)', { ids: batch })
        .setParameters(params)
        .execute();
    }
  }

  /** Admits the waiting entries at positions in (from, to]. */
  async admitPositions(queueId: number, from: number, to: number, now: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(QueueEntry)
      .set({ status: 'admitted', admittedAt: now })
      .where('queue_id = :queueId AND position > :from AND position <= :to AND status = :waiting', {
        queueId,
        from,
        to,
        waiting: 'waiting',
      })
      .execute();
  }

  /** The predictions of the waiting entries at positions in (from, to], read before admitPositions admits them. */
  predictionsOf(queueId: number, from: number, to: number): Promise<Array<Pick<QueueEntry, 'joinedAt' | 'etaAt'>>> {
    return this.manager
      .createQueryBuilder(QueueEntry, 'entry')
      .select(['entry.joinedAt', 'entry.etaAt'])
      .where('entry.queueId = :queueId AND entry.position > :from AND entry.position <= :to AND entry.status = :waiting', {
        queueId,
        from,
        to,
        waiting: 'waiting',
      })
      .getMany();
  }

  /** Entries admitted whose turn is not over. */
  countActive(queueId: number): Promise<number> {
    return this.manager.count(QueueEntry, { where: { queueId, status: 'admitted' } });
  }

  /** Ends the turns of entries admitted before `cutoff`; returns how many. */
  async expireAdmittedBefore(queueId: number, cutoff: Date, now: Date): Promise<number> {
    const result = await this.manager
      .createQueryBuilder()
      .update(QueueEntry)
      .set({ status: 'expired', finishedAt: now })
      .where('queue_id = :queueId AND status = :admitted AND admitted_at < :cutoff', { queueId, admitted: 'admitted', cutoff })
      .execute();
    return result.affected ?? 0;
  }

  /** Ends an admitted entry's turn (`completed` or `revoked`). */
  async finishEntry(id: number, status: Extract<EntryStatus, 'completed' | 'revoked'>, now: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(QueueEntry)
      .set({ status, finishedAt: now })
      .where('id = :id AND status = :admitted', { id, admitted: 'admitted' })
      .execute();
  }

  /** Ends the turn of the admitted entry a client joined with (the admission token's `sub`), on the unique index (queue_id, request_id). */
  async finishEntryOf(queueId: number, requestId: string, status: Extract<EntryStatus, 'completed' | 'revoked'>, now: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(QueueEntry)
      .set({ status, finishedAt: now })
      .where('queue_id = :queueId AND request_id = :requestId AND status = :admitted', { queueId, requestId, admitted: 'admitted' })
      .execute();
  }

  /** Entries per status. */
  async statusCounts(queueId: number): Promise<Map<EntryStatus, number>> {
    const rows = await this.manager
      .createQueryBuilder(QueueEntry, 'entry')
      .select('entry.status', 'status')
      .addSelect('COUNT(*)', 'count')
      .where('entry.queueId = :queueId', { queueId })
      .groupBy('entry.status')
      .getRawMany<{ status: EntryStatus; count: string | number }>();
    return new Map(rows.map((row) => [row.status, Number(row.count)]));
  }

  // ---------------------------------------------------------------- admissions

  findAdmissionOfEntry(entryId: number): Promise<QueueAdmission | null> {
    return this.manager.findOne(QueueAdmission, { where: { entryId } });
  }

  findAdmission(jti: string): Promise<QueueAdmission | null> {
    return this.manager.findOne(QueueAdmission, { where: { jti } });
  }

  async insertAdmission(admission: QueueAdmission): Promise<void> {
    await this.manager.insert(QueueAdmission, admission);
  }

  /**
   * Spends the admission on an order of `units`, if it is still valid at `now` and has them left: one
   * conditional UPDATE, so concurrent checkouts with one admission never place more than one order
   * within its limit (an admission is one order; what the order leaves is not kept for another).
   */
  async takeUnits(jti: string, queueId: number, units: number, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(QueueAdmission)
      .set({ unitsUsed: () => 'unit_limit', lastCheckoutAt: now })
      .where('jti = :jti AND queue_id = :queueId AND units_used + :units <= unit_limit AND revoked_at IS NULL AND expires_at > :now', {
        jti,
        queueId,
        units,
        now,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async revokeAdmission(jti: string, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(QueueAdmission)
      .set({ revokedAt: now })
      .where('jti = :jti AND revoked_at IS NULL', { jti })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Admissions that checked out since `since` (the `auto` rate's measure; IDX_queue_admissions_checkout). */
  countCheckoutsSince(queueId: number, since: Date): Promise<number> {
    return this.manager
      .createQueryBuilder(QueueAdmission, 'admission')
      .where('admission.queueId = :queueId AND admission.lastCheckoutAt >= :since', { queueId, since })
      .getCount();
  }

  /** Admissions issued since `since` (claimed tokens), for the metrics. */
  countAdmissionsSince(queueId: number, since: Date): Promise<number> {
    return this.manager
      .createQueryBuilder(QueueAdmission, 'admission')
      .where('admission.queueId = :queueId AND admission.issuedAt >= :since', { queueId, since })
      .getCount();
  }
}
