import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Response } from 'express';
import { storedInformation } from '../attendees/attendees.mapper';
import { AttendeesService } from '../attendees/attendees.service';
import type { RequestContext } from '../auth/request-context';
import type { AuthenticatedUser } from '../auth/roles';
import { redactExportCell, shouldRedact } from '../auth/personal-data';
import { CLOCK, Clock } from '../common/clock';
import { forbidden } from '../common/errors/api-error';
import { formatInZone } from '../common/dates/date-format';
import { appConfig } from '../config/app.config';
import type { CheckinPosition } from '../checkin/checkin-position.entity';
import type { Event } from '../events/event.entity';
import { filterOrderList } from '../orders/orders.repository';
import type { Ticket } from '../tickets/ticket.entity';
import { ChunkSink } from './chunk-sink';
import type { CellValue } from './export-cells';
import {
  ATTENDEE_COLUMNS,
  AttendeeCheckins,
  AttendeeExportRow,
  ExportColumn,
  ExportScope,
  ORDER_COLUMNS,
  OrderExportRow,
  resolveColumns,
} from './export-columns';
import { exportExpired, exportFailed, exportNotFound, exportNotReady } from './export-errors';
import { ExportFormat, ExportJob, ExportKind } from './export-job.entity';
import { CONTENT_TYPES, createTableWriter, exportFileName } from './export-writers';
import { downloadToken, isValidDownloadToken } from './download-token';
import { ExportAttendeesQuery, ExportOrdersQuery } from './dto/export.query';
import type { ExportJobResponse } from './dto/export-job.response';
import { ExportsRepository } from './exports.repository';
import { canManageEvent } from '../access/event-access';

/** Attendees read per page: one index range and three lookups of its orders, tickets and events. */
const ATTENDEE_PAGE = 1000;
const ORDER_PAGE = 500;

export type ExportQuery = ExportAttendeesQuery | ExportOrdersQuery;

/** What an export writes: its columns and its rows, a page at a time. */
interface ExportPlan {
  kind: ExportKind;
  format: ExportFormat;
  columns: Array<ExportColumn<unknown>>;
  pages: AsyncGenerator<CellValue[][]>;
}

/** How a run ended: rows and bytes written. */
export interface ExportOutcome {
  rows: number;
  bytes: number;
}

/**
 * Attendee and order exports, written as they are read: pages of rows by id (keyset: each page an
 * index range after the last id, so the 200th page costs what the first did), each page turned
 * into rows and handed to the CSV or XLSX writer, which waits for the output before the next page.
 * The filters and access rules are the list routes' own (managers see what they manage). Directly
 * to the response (GET), or as a job a worker writes into the database in pieces (POST).
 */
@Injectable()
export class ExportsService {
  private readonly logger = new Logger(ExportsService.name);

  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly attendees: AttendeesService,
    private readonly repository: ExportsRepository,
  ) {}

  // ---------------------------------------------------------------- streamed now

  /** Writes the export to the response as it reads it; bad filters are answered before the first byte. */
  async stream(kind: ExportKind, query: ExportQuery, user: AuthenticatedUser, response: Response): Promise<void> {
    const plan = await this.plan(kind, query, user);
    response.status(200);
    response.setHeader('Content-Type', CONTENT_TYPES[plan.format]);
    response.setHeader('Content-Disposition', `attachment; filename="${exportFileName(kind, plan.format, this.clock.now())}"`);
    response.setHeader('Cache-Control', 'no-store');
    try {
      await this.write(plan, response, user);
    } catch (error) {
      // Headers are gone: the client sees a cut-off transfer rather than a file that looks complete.
      // A client that went away is not the service's failure.
      if (response.destroyed) this.logger.warn(`${kind} export ended early: the client closed the connection`);
      else this.logger.error({ err: error }, `${kind} export failed while streaming`);
      response.destroy(error as Error);
    }
  }

  // ---------------------------------------------------------------- jobs

  /** Checks the filters as the streamed export would, then queues the job. */
  async createJob(kind: ExportKind, query: ExportQuery, user: AuthenticatedUser, context: RequestContext): Promise<ExportJobResponse> {
    const plan = await this.plan(kind, query, user);
    await plan.pages.return(undefined);
    const job = await this.repository.insertJob({
      kind,
      format: plan.format,
      userId: user.id,
      tokenId: user.token?.id ?? null,
      query: JSON.stringify(query),
      createdAt: this.clock.now(),
    });
    return this.toResponse(job, context);
  }

  /** The job for the user who asked for it; 404 for everyone else. */
  async getJob(id: number, user: AuthenticatedUser, context: RequestContext): Promise<ExportJobResponse> {
    const job = await this.repository.findJob(id);
    if (!job || job.userId !== user.id) throw exportNotFound();
    return this.toResponse(job, context);
  }

  /** Sends the finished file of a job to whoever holds its signed link: 409 until done, 410 once expired or failed. */
  async download(id: number, token: string, response: Response): Promise<void> {
    const job = await this.repository.findJob(id);
    if (!job || !isValidDownloadToken(this.config.nonceSecret, job.id, job.createdAt, token)) throw exportNotFound();
    if (job.status === 'queued' || job.status === 'running') throw exportNotReady(job.status);
    if (job.status === 'failed') throw exportFailed(job.error);
    if (job.status === 'expired' || !job.expiresAt || job.expiresAt <= this.clock.now()) throw exportExpired();
    response.status(200);
    response.setHeader('Content-Type', CONTENT_TYPES[job.format]);
    response.setHeader('Content-Disposition', `attachment; filename="${exportFileName(job.kind, job.format, job.createdAt)}"`);
    response.setHeader('Content-Length', String(job.sizeBytes));
    response.setHeader('Cache-Control', 'no-store');
    let seq = 0;
    try {
      for (;;) {
        const chunk = await this.repository.nextChunk(job.id, seq);
        if (!chunk) break;
        seq = chunk.seq;
        if (!response.write(chunk.data)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
        if (response.destroyed) return;
      }
      response.end();
    } catch (error) {
      this.logger.error({ err: error }, `download of export ${job.id} failed`);
      response.destroy(error as Error);
    }
  }

  /**
   * Runs a claimed job into the database, with the access its user has now. Answers what it wrote;
   * throws when the export cannot be made (the worker records the failure).
   */
  async runJob(job: ExportJob): Promise<ExportOutcome> {
    const user = await this.repository.jobUser(job.userId, job.tokenId, this.clock.now());
    if (!user) throw new Error('the user (or the API token) who asked for the export no longer exists or was revoked');
    const query = Object.assign(
      job.kind === 'attendees' ? new ExportAttendeesQuery() : new ExportOrdersQuery(),
      JSON.parse(job.query) as object,
    );
    const plan = await this.plan(job.kind, query, user);
    await this.repository.deleteChunks(job.id);
    const sink = new ChunkSink((seq, data) => this.repository.insertChunk(job.id, seq, data));
    const rows = await this.write(plan, sink, user);
    return { rows, bytes: sink.bytes };
  }

  toResponse(job: ExportJob, context: RequestContext): ExportJobResponse {
    const url = context.namespaceUrl('tickets', `exports/${job.id}`);
    const token = downloadToken(this.config.nonceSecret, job.id, job.createdAt);
    const response: ExportJobResponse = {
      id: job.id,
      kind: job.kind,
      format: job.format,
      status: job.status,
      created: formatInZone(job.createdAt, 'UTC'),
      url,
      download_url: `${url}/download?token=${token}`,
    };
    if (job.completedAt) response.completed = formatInZone(job.completedAt, 'UTC');
    if (job.expiresAt) response.expires = formatInZone(job.expiresAt, 'UTC');
    if (job.status === 'done' || job.status === 'expired') {
      response.rows = job.rowCount;
      response.size = job.sizeBytes;
    }
    if (job.error) response.error = job.error;
    return response;
  }

  // ---------------------------------------------------------------- writing

  private async write(plan: ExportPlan, output: Writable, user: AuthenticatedUser): Promise<number> {
    const writer = await createTableWriter(plan.format, plan.kind, output, plan.columns, this.config.currency.exponent);
    // An API token with pii redacted: names, emails and answers masked in every cell (auth/personal-data.ts).
    const keys = shouldRedact(user) ? plan.columns.map((column) => column.key) : null;
    let rows = 0;
    for await (const page of plan.pages) {
      await writer.writeRows(keys ? page.map((row) => row.map((cell, index) => redactExportCell(keys[index], cell))) : page);
      rows += page.length;
      if (output.destroyed) throw new Error('the output was closed before the export ended');
    }
    await writer.finish();
    return rows;
  }

  /** Checks the filters (400 naming the field, as the list routes) and prepares the pages; reads no row yet. */
  private async plan(kind: ExportKind, query: ExportQuery, user: AuthenticatedUser): Promise<ExportPlan> {
    const format = query.format ?? 'csv';
    const eventIds = scopeEvents(query);
    const scope: ExportScope = { user, eventIds, questionTickets: () => this.repository.questionTickets(eventIds, user) };
    if (kind === 'attendees') {
      // Filters first (400 naming the field, unknown events included), then the right to the events named.
      const base = await this.attendees.managedAttendeesQuery(query, user);
      await this.assertManagesEvents(eventIds, user);
      const columns = await resolveColumns(ATTENDEE_COLUMNS, scope);
      return { kind, format, columns: columns, pages: this.attendeePages(base, columns) };
    }
    const base = this.repository.managedOrders(user);
    filterOrderList(base, 'purchase', query as ExportOrdersQuery);
    const columns = await resolveColumns(ORDER_COLUMNS, scope);
    return { kind, format, columns: columns, pages: this.orderPages(base, columns, user) };
  }

  /**
   * 403 `rest_forbidden` when the export names an event (`post_id`, `include_post`) the caller does
   * not manage, as the reports answer, rather than an empty file that reads as "no attendees".
   */
  private async assertManagesEvents(eventIds: number[], user: AuthenticatedUser): Promise<void> {
    if (eventIds.length === 0) return;
    const events = await this.repository.eventAuthors([...new Set(eventIds)]);
    if (events.some((event) => !canManageEvent(user, event))) {
      throw forbidden(false, 'Sorry, you are not allowed to export the attendees of this event.');
    }
  }

  private async *attendeePages(
    base: Awaited<ReturnType<AttendeesService['managedAttendeesQuery']>>,
    columns: Array<ExportColumn<AttendeeExportRow>>,
  ): AsyncGenerator<CellValue[][]> {
    // Tickets and events repeat from page to page: each is read once.
    const tickets = new Map<number, Pick<Ticket, 'id' | 'name'>>();
    const events = new Map<number, Pick<Event, 'id' | 'title'>>();
    const lists = new Map<number, string>();
    let afterId = 0;
    for (;;) {
      const attendees = await this.repository.nextAttendees(base, afterId, ATTENDEE_PAGE);
      if (attendees.length === 0) return;
      afterId = attendees[attendees.length - 1].id;
      const missingTickets = [...new Set(attendees.map((attendee) => attendee.ticketId))].filter((id) => !tickets.has(id));
      for (const ticket of await this.repository.ticketNames(missingTickets)) tickets.set(ticket.id, ticket);
      const missingEvents = [...new Set(attendees.map((attendee) => attendee.eventId))].filter((id) => !events.has(id));
      for (const event of await this.repository.eventTitles(missingEvents)) events.set(event.id, event);
      const orders = new Map(
        (await this.repository.ordersByIds([...new Set(attendees.map((attendee) => attendee.orderId))])).map((order) => [order.id, order]),
      );
      const positions = await this.repository.checkinPositions(attendees.map((attendee) => attendee.id));
      const missingLists = [...new Set(positions.map((position) => position.listId))].filter((id) => !lists.has(id));
      for (const list of await this.repository.checkinListNames(missingLists)) lists.set(list.id, list.name);
      const checkins = attendeeCheckins(positions, lists);
      yield attendees.map((attendee) => {
        const row: AttendeeExportRow = {
          attendee,
          ticket: tickets.get(attendee.ticketId),
          order: orders.get(attendee.orderId),
          event: events.get(attendee.eventId),
          answers: storedInformation(attendee.meta),
          checkins: checkins.get(attendee.id) ?? { first: null, last: null, lists: [] },
          exponent: this.config.currency.exponent,
        };
        return columns.map((column) => column.value(row));
      });
    }
  }

  private async *orderPages(
    base: ReturnType<ExportsRepository['managedOrders']>,
    columns: Array<ExportColumn<OrderExportRow>>,
    user: AuthenticatedUser,
  ): AsyncGenerator<CellValue[][]> {
    let afterId = 0;
    for (;;) {
      const orders = await this.repository.nextOrders(base, afterId, ORDER_PAGE);
      if (orders.length === 0) return;
      afterId = orders[orders.length - 1].id;
      const ids = orders.map((order) => order.id);
      const [lines, checkedIn] = await Promise.all([this.repository.orderLines(ids, user), this.repository.checkedInPerOrder(ids, user)]);
      const linesByOrder = new Map<number, OrderExportRow['items']>();
      for (const line of lines) {
        const list = linesByOrder.get(line.orderId) ?? [];
        list.push(line);
        linesByOrder.set(line.orderId, list);
      }
      yield orders.map((order) => {
        const row: OrderExportRow = {
          order,
          items: linesByOrder.get(order.id) ?? [],
          checkedIn: checkedIn.get(order.id) ?? 0,
          exponent: this.config.currency.exponent,
        };
        return columns.map((column) => column.value(row));
      });
    }
  }
}

/** Per attendee: its first and last entry over the check-in lists, and the names of the lists it entered. */
export function attendeeCheckins(
  positions: Array<Pick<CheckinPosition, 'attendeeId' | 'listId' | 'firstEntryAt' | 'lastEntryAt'>>,
  listNames: ReadonlyMap<number, string>,
): Map<number, AttendeeCheckins> {
  const result = new Map<number, AttendeeCheckins>();
  for (const position of positions) {
    const entry = result.get(position.attendeeId) ?? { first: null, last: null, lists: [] };
    if (position.firstEntryAt && (!entry.first || position.firstEntryAt < entry.first)) entry.first = position.firstEntryAt;
    if (position.lastEntryAt && (!entry.last || position.lastEntryAt > entry.last)) entry.last = position.lastEntryAt;
    entry.lists.push(listNames.get(position.listId) ?? `#${position.listId}`);
    result.set(position.attendeeId, entry);
  }
  return result;
}

/** The events an attendee export's filters name, for columns that depend on them. */
function scopeEvents(query: ExportQuery): number[] {
  if (!('post_id' in query) && !('include_post' in query)) return [];
  const attendeeQuery = query;
  if (attendeeQuery.include_post?.length) return attendeeQuery.include_post;
  return attendeeQuery.post_id !== undefined ? [attendeeQuery.post_id] : [];
}
