import { Injectable } from '@nestjs/common';
import { Brackets, In, LessThanOrEqual, MoreThan, SelectQueryBuilder } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import { ApiToken } from '../auth/api-token.entity';
import { grantOf, isTokenLive } from '../auth/token-grant';
import { User } from '../auth/user.entity';
import type { AuthenticatedUser } from '../auth/roles';
import { isRole } from '../auth/roles';
import { CheckinList } from '../checkin/checkin-list.entity';
import { CheckinPosition } from '../checkin/checkin-position.entity';
import { Event } from '../events/event.entity';
import { Order, OrderItem } from '../orders/order.entity';
import { Ticket } from '../tickets/ticket.entity';
import { ExportChunk, ExportJob } from './export-job.entity';
import { TransactionHost } from '../common/database/transaction-host';
import { managedEventRestriction } from '../access/event-access';

/** An order line with its ticket's name and event. */
export interface OrderLine {
  orderId: number;
  ticketId: number;
  ticketName: string;
  eventId: number;
  quantity: number;
  unitPriceMinor: number;
}

/** The statements of exports: keyset pages of the rows exported, their relations, the jobs and their files. */
@Injectable()
export class ExportsRepository {
  constructor(private readonly tx: TransactionHost) {}

  // ---------------------------------------------------------------- rows

  /** The next page of `base` after `afterId`, by id: an index range, however far the export has got. */
  nextAttendees(base: SelectQueryBuilder<Attendee>, afterId: number, size: number): Promise<Attendee[]> {
    return base
      .clone()
      .andWhere('attendee.id > :exportAfterId', { exportAfterId: afterId })
      .orderBy('attendee.id', 'ASC')
      .limit(size)
      .getMany();
  }

  /**
   * Orders the caller manages, as the orders list filters them: every order for managers of every
   * event, else the orders holding an attendee of an event the caller manages.
   */
  managedOrders(user: AuthenticatedUser): SelectQueryBuilder<Order> {
    const builder = this.tx.dataSource.getRepository(Order).createQueryBuilder('purchase');
    const managedEvent = managedEventRestriction(user, builder, 'managed_event');
    if (managedEvent !== null) {
      const managed = builder
        .subQuery()
        .select('1')
        .from(Attendee, 'managed_attendee')
        .innerJoin(Event, 'managed_event', 'managed_event.id = managed_attendee.eventId')
        .where('managed_attendee.orderId = purchase.id')
        .andWhere(managedEvent)
        .getQuery();
      builder.where(new Brackets((where) => where.where(`EXISTS ${managed}`)));
    }
    return builder;
  }

  nextOrders(base: SelectQueryBuilder<Order>, afterId: number, size: number): Promise<Order[]> {
    return base
      .clone()
      .andWhere('purchase.id > :exportAfterId', { exportAfterId: afterId })
      .orderBy('purchase.id', 'ASC')
      .limit(size)
      .getMany();
  }

  /** The lines of a page of orders, with ticket names and events; only those of the events `user` manages. */
  async orderLines(orderIds: number[], user: AuthenticatedUser): Promise<OrderLine[]> {
    if (orderIds.length === 0) return [];
    const query = this.tx.dataSource
      .createQueryBuilder(OrderItem, 'item')
      .innerJoin(Ticket, 'ticket', 'ticket.id = item.ticketId')
      .select('item.orderId', 'orderId')
      .addSelect('item.ticketId', 'ticketId')
      .addSelect('ticket.name', 'ticketName')
      .addSelect('ticket.eventId', 'eventId')
      .addSelect('item.quantity', 'quantity')
      .addSelect('item.unitPriceMinor', 'unitPriceMinor')
      .where('item.orderId IN (:...orderIds)', { orderIds })
      .orderBy('item.orderId', 'ASC')
      .addOrderBy('item.ticketId', 'ASC');
    const managedEvent = managedEventRestriction(user, query);
    if (managedEvent !== null) query.innerJoin(Event, 'event', 'event.id = ticket.eventId').andWhere(managedEvent);
    const rows = await query.getRawMany<Record<keyof OrderLine, string | number>>();
    return rows.map((row) => ({
      orderId: Number(row.orderId),
      ticketId: Number(row.ticketId),
      ticketName: String(row.ticketName),
      eventId: Number(row.eventId),
      quantity: Number(row.quantity),
      unitPriceMinor: Number(row.unitPriceMinor),
    }));
  }

  /** Checked-in attendees per order of a page, of the events `user` manages. */
  async checkedInPerOrder(orderIds: number[], user: AuthenticatedUser): Promise<Map<number, number>> {
    if (orderIds.length === 0) return new Map();
    const query = this.tx.dataSource
      .createQueryBuilder(Attendee, 'attendee')
      .select('attendee.orderId', 'orderId')
      .addSelect('COUNT(*)', 'checkedIn')
      .where('attendee.orderId IN (:...orderIds)', { orderIds })
      .andWhere('attendee.checkedIn = :checkedIn', { checkedIn: true })
      .groupBy('attendee.orderId');
    const managedEvent = managedEventRestriction(user, query);
    if (managedEvent !== null) query.innerJoin(Event, 'event', 'event.id = attendee.eventId').andWhere(managedEvent);
    const rows = await query.getRawMany<{ orderId: string | number; checkedIn: string | number }>();
    return new Map(rows.map((row) => [Number(row.orderId), Number(row.checkedIn)]));
  }

  ordersByIds(ids: number[]): Promise<Order[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.tx.manager.find(Order, { where: { id: In(ids) } });
  }

  ticketNames(ids: number[]): Promise<Array<Pick<Ticket, 'id' | 'name'>>> {
    return ids.length === 0
      ? Promise.resolve([])
      : this.tx.manager.find(Ticket, { select: { id: true, name: true }, where: { id: In(ids) } });
  }

  eventTitles(ids: number[]): Promise<Array<Pick<Event, 'id' | 'title'>>> {
    return ids.length === 0
      ? Promise.resolve([])
      : this.tx.manager.find(Event, { select: { id: true, title: true }, where: { id: In(ids) } });
  }

  /** The authors of `ids`, for the check that the caller manages every event an export names. */
  eventAuthors(ids: number[]): Promise<Array<Pick<Event, 'id' | 'authorId'>>> {
    return ids.length === 0
      ? Promise.resolve([])
      : this.tx.manager.find(Event, { select: { id: true, authorId: true }, where: { id: In(ids) } });
  }

  /** Tickets with attendee questions of `eventIds` (of every event when empty), only of the events `user` manages. */
  questionTickets(eventIds: number[], user: AuthenticatedUser): Promise<Array<Pick<Ticket, 'id' | 'attendeeInformationFields'>>> {
    const query = this.tx.dataSource
      .createQueryBuilder(Ticket, 'ticket')
      .select(['ticket.id', 'ticket.attendeeInformationFields'])
      .where('ticket.attendeeInformationFields IS NOT NULL')
      .orderBy('ticket.id', 'ASC');
    if (eventIds.length > 0) query.andWhere('ticket.eventId IN (:...questionEventIds)', { questionEventIds: eventIds });
    const managedEvent = managedEventRestriction(user, query);
    if (managedEvent !== null) query.innerJoin(Event, 'event', 'event.id = ticket.eventId').andWhere(managedEvent);
    return query.getMany();
  }

  /** The check-in list positions with an entry of a page of attendees: one index read per page. */
  checkinPositions(attendeeIds: number[]): Promise<CheckinPosition[]> {
    if (attendeeIds.length === 0) return Promise.resolve([]);
    return this.tx.manager.find(CheckinPosition, {
      select: { attendeeId: true, listId: true, firstEntryAt: true, lastEntryAt: true },
      where: { attendeeId: In(attendeeIds), entries: MoreThan(0) },
      order: { attendeeId: 'ASC', listId: 'ASC' },
    });
  }

  checkinListNames(ids: number[]): Promise<Array<Pick<CheckinList, 'id' | 'name'>>> {
    return ids.length === 0
      ? Promise.resolve([])
      : this.tx.manager.find(CheckinList, { select: { id: true, name: true }, where: { id: In(ids) } });
  }

  /** The user a job runs for, with their current role; null when they are gone. */
  /**
   * Who runs a job: its user with the role they have now, and, for a job asked with an API token,
   * that token's grant; null when the user is gone or the token no longer works.
   */
  async jobUser(userId: number, tokenId: number | null, now: Date): Promise<AuthenticatedUser | null> {
    const user = await this.tx.manager.findOne(User, { where: { id: userId } });
    if (!user || !isRole(user.role)) return null;
    if (tokenId === null) return { id: user.id, login: user.login, role: user.role };
    const token = await this.tx.manager.findOne(ApiToken, { where: { id: tokenId, userId } });
    if (!token || !isTokenLive(token, now)) return null;
    return { id: user.id, login: user.login, role: user.role, token: grantOf(token) };
  }

  // ---------------------------------------------------------------- jobs

  async insertJob(job: Pick<ExportJob, 'kind' | 'format' | 'userId' | 'tokenId' | 'query' | 'createdAt'>): Promise<ExportJob> {
    const entity = Object.assign(new ExportJob(), job, { status: 'queued', updatedAt: job.createdAt });
    return this.tx.manager.save(entity);
  }

  findJob(id: number): Promise<ExportJob | null> {
    return this.tx.manager.findOne(ExportJob, { where: { id } });
  }

  /** The oldest job waiting to run, or running under a claim older than `staleBefore` (its worker died). */
  async nextClaimable(staleBefore: Date): Promise<number | null> {
    const job = await this.tx.dataSource
      .createQueryBuilder(ExportJob, 'job')
      .select('job.id')
      .where('job.status = :queued', { queued: 'queued' })
      .orWhere('(job.status = :running AND job.claimedAt < :staleBefore)', { running: 'running', staleBefore })
      .orderBy('job.id', 'ASC')
      .limit(1)
      .getOne();
    return job?.id ?? null;
  }

  /** Claims the job for one run with a conditional UPDATE: of several workers, exactly one gets it. */
  async claim(id: number, token: string, now: Date, staleBefore: Date): Promise<boolean> {
    const result = await this.tx.dataSource
      .createQueryBuilder()
      .update(ExportJob)
      .set({ status: 'running', claimToken: token, claimedAt: now, attempts: () => 'attempts + 1', updatedAt: now })
      .where('id = :id', { id })
      .andWhere(
        new Brackets((where) =>
          where.where('status = :queued', { queued: 'queued' }).orWhere('(status = :running AND claimed_at < :staleBefore)', {
            running: 'running',
            staleBefore,
          }),
        ),
      )
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Records a run's outcome, if its claim still holds. */
  async finishRun(id: number, token: string, outcome: Partial<ExportJob>): Promise<boolean> {
    const result = await this.tx.dataSource
      .createQueryBuilder()
      .update(ExportJob)
      .set({ ...outcome, claimToken: null })
      .where('id = :id AND claim_token = :token AND status = :running', { id, token, running: 'running' })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Gives a claimed job back to the queue (this instance is shutting down mid-run). */
  async release(id: number, token: string, now: Date): Promise<void> {
    await this.tx.dataSource
      .createQueryBuilder()
      .update(ExportJob)
      .set({ status: 'queued', claimToken: null, claimedAt: null, updatedAt: now })
      .where('id = :id AND claim_token = :token', { id, token })
      .execute();
  }

  // ---------------------------------------------------------------- files

  async deleteChunks(jobId: number): Promise<void> {
    await this.tx.manager.delete(ExportChunk, { jobId });
  }

  async insertChunk(jobId: number, seq: number, data: Buffer): Promise<void> {
    await this.tx.dataSource.createQueryBuilder().insert().into(ExportChunk).values({ jobId, seq, data }).updateEntity(false).execute();
  }

  /** The piece of the file after `afterSeq`, or null at its end: one row read at a time. */
  async nextChunk(jobId: number, afterSeq: number): Promise<ExportChunk | null> {
    return this.tx.dataSource
      .createQueryBuilder(ExportChunk, 'chunk')
      .where('chunk.jobId = :jobId AND chunk.seq > :afterSeq', { jobId, afterSeq })
      .orderBy('chunk.seq', 'ASC')
      .limit(1)
      .getOne();
  }

  /** Marks finished jobs whose download time is over as expired and deletes their files; answers how many. */
  async expireDue(now: Date): Promise<number> {
    const due = await this.tx.manager.find(ExportJob, {
      select: { id: true },
      where: { status: 'done', expiresAt: LessThanOrEqual(now) },
      take: 100,
    });
    for (const { id } of due) {
      await this.tx.dataSource.transaction(async (manager) => {
        const expired = await manager
          .createQueryBuilder()
          .update(ExportJob)
          .set({ status: 'expired', updatedAt: now })
          .where('id = :id AND status = :done', { id, done: 'done' })
          .execute();
        if (expired.affected) await manager.delete(ExportChunk, { jobId: id });
      });
    }
    return due.length;
  }
}
