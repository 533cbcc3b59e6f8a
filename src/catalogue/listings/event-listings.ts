import { Injectable } from '@nestjs/common';
import { Brackets, In, SelectQueryBuilder } from 'typeorm';
import { CountCache } from '../caching/count-cache';
import type { PostStatus } from '../../posts/post-status';
import type { ListedEvent } from '../documents/event-documents';
import { EventListing, EventListingDimension } from './event-listing.entity';
import { Event } from '../../events/event.entity';
import { SqlDialect } from '../../database/sql-dialect';
import { TransactionHost } from '../../common/database/transaction-host';

/**
 * What one events list asks of the read model: the listed events of one dimension having any of
 * `values`, in the window, that the caller may see in the statuses asked for.
 */
export interface ListingSelection {
  dim: EventListingDimension;
  values: number[];
  /** Statuses every caller who asked sees. */
  statuses: PostStatus[];
  /** Statuses seen only on the caller's own events (authors and contributors). */
  ownStatuses: PostStatus[];
  authorId?: number;
  windowStart: Date;
  windowEnd: Date;
}

/** One ordered range of the read model's primary key: a value and a status. */
interface ListingRange {
  value: number;
  status: PostStatus;
  authorId?: number;
}

interface RangeRow {
  eventId: number | string;
  documentVersion: number | string;
  /** `id:count,...` of the event's categories and tags. */
  categoryCounts: string | null;
  tagCounts: string | null;
  startUtc: Date | string;
  publishedAt: Date | string;
}

/**
 * What a total counts: the read model's rows of one value, or the pairs' rows of two values (the
 * events listed under both), each with its day counters.
 */
interface CountedRows {
  listings: 'event_listings' | 'event_listing_pairs';
  days: 'event_listing_days' | 'event_listing_pair_days';
  match: string;
  parameters: Record<string, number>;
}

function rowsOfValue(value: number): CountedRows {
  return { listings: 'event_listings', days: 'event_listing_days', match: 'value = :value', parameters: { value } };
}

function rowsOfPair(first: number, second: number): CountedRows {
  return {
    listings: 'event_listing_pairs',
    days: 'event_listing_pair_days',
    match: 'low = :low AND high = :high',
    parameters: { low: Math.min(first, second), high: Math.max(first, second) },
  };
}

/** Dimensions with pair counters (migration EventListingPairs1765100000000): their two-value totals come from counters. */
const PAIRED_DIMENSIONS = new Set([
  EventListingDimension.Category,
  EventListingDimension.Tag,
  EventListingDimension.Venue,
  EventListingDimension.Organizer,
]);

/** Pages read by merging more ordered ranges than this fall back to the events table. */
export const MAX_LISTING_RANGES = 60;

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant in UTC, as the counters' `day` (DATE of a UTC datetime). */
function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The terms' stored counts as read with an event's row (termCountsSelect): `category:3` → count. */
export function parseTermCounts(categoryCounts: string | null, tagCounts: string | null): Map<string, number> {
  return new Map([...termCounts('category', categoryCounts), ...termCounts('tag', tagCounts)]);
}

/**
 * The stored counts of an event's terms of one kind, as `id:count,...`, for a select list where
 * `eventId` names the event's id column: read with the row, they are as fresh as it.
 */
export function termCountsSelect(dialect: SqlDialect, kind: 'category' | 'tag', eventId: string): string {
  const [links, column, terms] =
    kind === 'category' ? ['event_category_links', 'category_id', 'event_categories'] : ['event_tag_links', 'tag_id', 'event_tags'];
  const pair = dialect.concat('term.id', "':'", 'term.published_event_count');
  return `(SELECT GROUP_CONCAT(${pair}) FROM ${links} link INNER JOIN ${terms} term ON term.id = link.${column} WHERE link.event_id = ${eventId})`;
}

function termCounts(kind: 'category' | 'tag', pairs: string | null): Array<[string, number]> {
  if (!pairs) return [];
  return pairs.split(',').map((pair) => {
    const [id, count] = pair.split(':');
    return [`${kind}:${Number(id)}`, Number(count)];
  });
}

function toListedEvent(row: RangeRow): ListedEvent {
  return {
    id: Number(row.eventId),
    documentVersion: Number(row.documentVersion),
    termCounts: parseTermCounts(row.categoryCounts, row.tagCounts),
  };
}

function sortKey(value: Date | string): number | string {
  return value instanceof Date ? value.getTime() : value;
}

function compareRows(a: RangeRow, b: RangeRow): number {
  for (const column of ['startUtc', 'publishedAt'] as const) {
    const left = sortKey(a[column]);
    const right = sortKey(b[column]);
    if (left < right) return -1;
    if (left > right) return 1;
  }
  return Number(a.eventId) - Number(b.eventId);
}

/**
 * Reads events lists from the read model (EventListing): a page is one ordered range of its
 * primary key per value and status, merged when there are several (`categories=3,7`, or the
 * statuses a signed-in caller sees), without a semi-join, temporary table or sort in the database.
 */
@Injectable()
export class EventListingsReader {
  /**
   * The statement of one range, by whether it is of the caller's own statuses (readRange): its text
   * before and after the page's `LIMIT … OFFSET …`.
   */
  private readonly rangeSql = new Map<boolean, { head: string; tail: string }>();

  constructor(
    private readonly tx: TransactionHost,
    private readonly counts: CountCache,
  ) {}

  /** How many ranges a page of `selection` merges. */
  rangeCount(selection: ListingSelection): number {
    return selection.values.length * (selection.statuses.length + selection.ownStatuses.length);
  }

  /**
   * The number of events the selection lists. One value: from the day counters (see countRows),
   * exact at every commit without a cache. Two values: an event listed under both counts once,
   * |A| + |B| − |A ∩ B|, each term from counters (the pairs' for the last). More values would need
   * every intersection: the rows are counted (through the count cache).
   */
  async count(selection: ListingSelection): Promise<number> {
    if (selection.statuses.length + selection.ownStatuses.length === 0) return 0;
    const values = [...new Set(selection.values)];
    if (values.length === 1) return this.countOneValue(selection, values[0]);
    if (values.length === 2 && PAIRED_DIMENSIONS.has(selection.dim)) {
      const [first, second, both] = await Promise.all([
        this.countRows(selection, rowsOfValue(values[0])),
        this.countRows(selection, rowsOfValue(values[1])),
        this.countRows(selection, rowsOfPair(values[0], values[1])),
      ]);
      return first.total + second.total - both.total;
    }
    // An event listed under several of the values counts once.
    const listed = this.rows(selection).select('listing.eventId');
    const events = this.tx.manager
      .createQueryBuilder(Event, 'event')
      .where(`event.id IN (${listed.getQuery()})`)
      .setParameters(listed.getParameters());
    return this.counts.count('events', events);
  }

  /**
   * Listed events of one value in the window [S, E]: those starting in the window, minus those
   * starting in it but ending after E. The first are the day counters' sum over the days strictly
   * inside the window plus the rows of its first and last (partial) days; the second can only
   * start within the longest duration (the counters' bound over the window's days) before E. Each
   * is a short range: at most one counter per day, and the rows of about two days plus that
   * longest duration. The caller's own events of other statuses (authors, contributors) are few
   * and counted from the rows. One statement, the longest duration bounding the last range inside it.
   */
  private async countOneValue(selection: ListingSelection, value: number): Promise<number> {
    return (await this.countRows(selection, rowsOfValue(value))).total;
  }

  /**
   * The listed events of `counted` in the selection's window and statuses (as countOneValue
   * explains), and where the count is one compound statement (MariaDB), `page` (a statement of its
   * rows) in the same round trip: its rows then come back with the total.
   */
  private async countRows(
    selection: ListingSelection,
    counted: CountedRows,
    page?: { sql: string; parameters: Record<string, unknown> },
  ): Promise<{ total: number; pageRows?: RangeRow[] }> {
    const start = selection.windowStart;
    const end = selection.windowEnd;
    if (end.getTime() < start.getTime()) return { total: 0 };
    const firstDay = utcDay(start);
    const lastDay = utcDay(end);
    const parameters: Record<string, unknown> = {
      dim: selection.dim,
      ...counted.parameters,
      statuses: selection.statuses.length ? selection.statuses : ['-'],
      ownStatuses: selection.ownStatuses.length ? selection.ownStatuses : ['-'],
      authorId: selection.authorId ?? 0,
      windowStart: start,
      windowEnd: end,
      firstDay,
      lastDay,
      afterFirstDay: new Date(Date.parse(`${firstDay}T00:00:00Z`) + DAY_MS),
      lastDayStart: new Date(Date.parse(`${lastDay}T00:00:00Z`)),
    };
    const rows = `FROM ${counted.listings} WHERE dim = :dim AND ${counted.match} AND status IN (:...statuses)`;
    const own = `(SELECT COUNT(1) FROM ${counted.listings} WHERE dim = :dim AND ${counted.match} AND status IN (:...ownStatuses) AND author_id = :authorId
      AND start_utc >= :windowStart AND end_utc <= :windowEnd)`;
    if (firstDay === lastDay) {
      const total = await this.scalar(
        `SELECT (SELECT COUNT(1) ${rows} AND start_utc >= :windowStart AND end_utc <= :windowEnd) + ${own} AS n`,
        parameters,
      );
      return { total };
    }
    const days = `FROM ${counted.days} WHERE dim = :dim AND ${counted.match} AND status IN (:...statuses) AND day >= :firstDay AND day <= :lastDay`;
    const inside = 'SUM(CASE WHEN day > :firstDay AND day < :lastDay THEN events ELSE 0 END)';
    const edges = (overrunStart: string) => `(SELECT COUNT(1) ${rows} AND start_utc >= :windowStart AND start_utc < :afterFirstDay)
        + (SELECT COUNT(1) ${rows} AND start_utc >= :lastDayStart AND start_utc <= :windowEnd)
        - (SELECT COUNT(1) ${rows} AND start_utc >= ${overrunStart} AND start_utc <= :windowEnd AND end_utc > :windowEnd)
        + ${own}`;
    const dialect = this.tx.dialect;
    if (dialect.rangesBoundedBySubquery) {
      const longest = `(SELECT COALESCE(MAX(longest), 0) + 1 ${days})`;
      const overrunStart = dialect.greatest(':windowStart', dialect.secondsBefore(':windowEnd', longest));
      return { total: await this.scalar(`SELECT COALESCE((SELECT ${inside} ${days}), 0) + ${edges(overrunStart)} AS n`, parameters) };
    }
    // MariaDB's range optimiser does not bound a range by a subquery's value, but by a variable
    // of a compound statement: one round trip still.
    const compound = [
      'BEGIN NOT ATOMIC',
      'DECLARE inside BIGINT; DECLARE overrun_start DATETIME(3);',
      `SELECT ${inside}, ${dialect.greatest(':windowStart', dialect.secondsBefore(':windowEnd', 'COALESCE(MAX(longest), 0) + 1'))} INTO inside, overrun_start ${days};`,
      `SELECT ${edges('overrun_start')} + COALESCE(inside, 0) AS n;`,
      ...(page ? [`${page.sql};`] : []),
      'END',
    ].join('\n');
    // A compound statement answers each SELECT's rows in order, then the statement's own result.
    const results = await dialect.compound(() => this.query<unknown>(compound, { ...parameters, ...page?.parameters }));
    if (results !== null) {
      const [countRows, pageRows] = results as [Array<{ n: string | number | null }>, RangeRow[]];
      return { total: Number(countRows[0]?.n ?? 0), pageRows: page ? pageRows : undefined };
    }
    // MySQL has no compound statements outside stored programs: the counters first, then the rows.
    const [counters] = await this.query<{ inside: string | number | null; longest: string | number | null }>(
      `SELECT ${inside} AS inside, MAX(longest) AS longest ${days}`,
      parameters,
    );
    const longestMs = Math.max(0, Number(counters?.longest ?? 0)) * 1000;
    parameters.overrunStart = new Date(Math.max(start.getTime(), end.getTime() - longestMs - 1000));
    return { total: Number(counters?.inside ?? 0) + (await this.scalar(`SELECT ${edges(':overrunStart')} AS n`, parameters)) };
  }

  private async scalar(sql: string, parameters: Record<string, unknown>): Promise<number> {
    const result = await this.query<{ n: string | number | null } | Array<{ n: string | number | null }>>(sql, parameters);
    // A compound statement answers its SELECT's rows first, then the statement's own result.
    const row = Array.isArray(result[0]) ? result[0][0] : result[0];
    return Number(row?.n ?? 0);
  }

  /** On the pool the page's query-builder reads use (a replica inside readFromReplicas). */
  private async query<T>(sql: string, parameters: Record<string, unknown>): Promise<T[]> {
    const [escaped, values] = this.tx.dataSource.driver.escapeQueryWithParameters(sql, parameters);
    const runner = this.tx.dataSource.createQueryRunner(this.tx.dataSource.defaultReplicationModeForReads());
    try {
      return (await runner.query(escaped, values)) as T[];
    } finally {
      await runner.release();
    }
  }

  /**
   * The list's total (as `count`) and the events of one page (as `page`). A page of one range whose
   * total is one compound statement (one value and one status, MariaDB) is read in that statement:
   * one round trip for the list.
   */
  async countAndPage(selection: ListingSelection, offset: number, limit: number): Promise<{ total: number; listed: ListedEvent[] }> {
    const ranges = this.ranges(selection);
    const values = new Set(selection.values);
    if (ranges.length === 1 && values.size === 1 && this.tx.dialect.mayRunCompound) {
      const { sql, parameters } = this.rangeStatement(selection, ranges[0], offset, limit);
      const { total, pageRows } = await this.countRows(selection, rowsOfValue(ranges[0].value), { sql, parameters });
      if (pageRows) return { total, listed: pageRows.sort(compareRows).map(toListedEvent) };
      return { total, listed: offset < total ? await this.page(selection, offset, limit) : [] };
    }
    const total = await this.count(selection);
    // A page past the last is refused by the caller: not read.
    return { total, listed: offset < total ? await this.page(selection, offset, limit) : [] };
  }

  /** The ordered ranges a page of `selection` merges: one per value and status. */
  private ranges(selection: ListingSelection): ListingRange[] {
    return [...new Set(selection.values)].flatMap((value) => [
      ...selection.statuses.map((status) => ({ value, status })),
      ...selection.ownStatuses.map((status) => ({ value, status, authorId: selection.authorId })),
    ]);
  }

  /** The events of one page (`offset`, `limit`), in the list's order, with their document versions. */
  async page(selection: ListingSelection, offset: number, limit: number): Promise<ListedEvent[]> {
    const ranges = this.ranges(selection);
    let rows: RangeRow[];
    if (ranges.length === 0) {
      rows = [];
    } else if (ranges.length === 1) {
      rows = (await this.readRange(selection, ranges[0], offset, limit)).sort(compareRows);
    } else {
      // Each range's first offset + limit rows hold the merged page's; an event listed under two
      // values comes with the same sort key from both, and is kept once.
      const merged = (await Promise.all(ranges.map((range) => this.readRange(selection, range, 0, offset + limit)))).flat();
      merged.sort(compareRows);
      const seen = new Set<number>();
      rows = [];
      for (const row of merged) {
        const id = Number(row.eventId);
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push(row);
      }
      rows = rows.slice(offset, offset + limit);
    }
    return rows.map(toListedEvent);
  }

  /** The rows of these events, in the order of `ids` (those found). */
  async events(ids: number[]): Promise<Event[]> {
    if (ids.length === 0) return [];
    const events = await this.tx.manager.find(Event, { where: { id: In(ids) } });
    const byId = new Map(events.map((event) => [event.id, event]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The rows of the selection, for counting; of one value when given. */
  private rows(selection: ListingSelection, value?: number): SelectQueryBuilder<EventListing> {
    const query = this.tx.manager
      .createQueryBuilder(EventListing, 'listing')
      .where('listing.dim = :dim', { dim: selection.dim })
      .andWhere(value === undefined ? 'listing.value IN (:...values)' : 'listing.value = :value', { values: selection.values, value })
      .andWhere(
        new Brackets((visible) => {
          visible.where('1 = 0');
          if (selection.statuses.length) visible.orWhere('listing.status IN (:...statuses)', { statuses: selection.statuses });
          if (selection.ownStatuses.length) {
            visible.orWhere('(listing.status IN (:...ownStatuses) AND listing.authorId = :authorId)', {
              ownStatuses: selection.ownStatuses,
              authorId: selection.authorId,
            });
          }
        }),
      );
    return this.inWindow(query, selection);
  }

  /**
   * The rows `offset` to `offset + limit` of one range, in no order. Its statement is the same text for every
   * page (one with the caller's own statuses, one without): built once, not by a query builder per request.
   */
  private async readRange(selection: ListingSelection, range: ListingRange, offset: number, limit: number): Promise<RangeRow[]> {
    const { sql, parameters } = this.rangeStatement(selection, range, offset, limit);
    return this.query<RangeRow>(sql, parameters);
  }

  /** The statement of readRange, with its named parameters (those of `count` where they mean the same). */
  private rangeStatement(
    selection: ListingSelection,
    range: ListingRange,
    offset: number,
    limit: number,
  ): { sql: string; parameters: Record<string, unknown> } {
    const own = range.authorId !== undefined;
    let sql = this.rangeSql.get(own);
    if (sql === undefined) {
      sql = this.pageOfRange(selection, range);
      this.rangeSql.set(own, sql);
    }
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(limit)) throw new RangeError('page bounds must be whole numbers');
    return {
      sql: `${sql.head} LIMIT ${limit} OFFSET ${offset}${sql.tail}`,
      parameters: {
        dim: selection.dim,
        value: range.value,
        status: range.status,
        authorId: range.authorId ?? selection.authorId ?? 0,
        windowStart: selection.windowStart,
        windowEnd: selection.windowEnd,
      },
    };
  }

  /**
   * The statement of a page of one range, around its bounds: the page's rows are picked from the
   * read model alone (a derived table), and only they are joined to their events and terms. Joined
   * in the range's own SELECT, each skipped row was joined too: 5 000 primary-key reads of `events`
   * for page 200 (7.0 against 1.3 ms of MariaDB's time at a million events). The derived rows come
   * back unordered: their callers sort them (at most a page; the merged path sorts all its ranges once).
   */
  private pageOfRange(selection: ListingSelection, range: ListingRange): { head: string; tail: string } {
    const driver = this.tx.dataSource.driver;
    const name = (identifier: string) => driver.escape(identifier);
    const column = (table: string, identifier: string) => `${name(table)}.${name(identifier)}`;
    const dialect = this.tx.dialect;
    const events = this.tx.dataSource.getMetadata(Event);
    const documentVersion = events.findColumnWithPropertyName('documentVersion')!.databaseName;
    const eventId = column('page', 'eventId');
    const selected = [
      `${eventId} AS ${name('eventId')}`,
      `${column('page', 'startUtc')} AS ${name('startUtc')}`,
      `${column('page', 'publishedAt')} AS ${name('publishedAt')}`,
      `${column('event', documentVersion)} AS ${name('documentVersion')}`,
      `${termCountsSelect(dialect, 'category', eventId)} AS ${name('categoryCounts')}`,
      `${termCountsSelect(dialect, 'tag', eventId)} AS ${name('tagCounts')}`,
    ];
    return {
      head: `SELECT ${selected.join(', ')} FROM (${this.range(selection, range).getQuery()}`,
      tail: `) ${name('page')} INNER JOIN ${name(events.tableName)} ${name('event')} ON ${column('event', 'id')} = ${eventId}`,
    };
  }

  /** One ordered range: its rows' ids and sort keys, in the list's order. */
  private range(selection: ListingSelection, range: ListingRange): SelectQueryBuilder<EventListing> {
    const query = this.tx.manager
      .createQueryBuilder(EventListing, 'listing')
      .select('listing.eventId', 'eventId')
      .addSelect('listing.startUtc', 'startUtc')
      .addSelect('listing.publishedAt', 'publishedAt')
      .where('listing.dim = :dim', { dim: selection.dim })
      .andWhere('listing.value = :value', { value: range.value })
      .andWhere('listing.status = :status', { status: range.status });
    if (range.authorId !== undefined) query.andWhere('listing.authorId = :authorId', { authorId: range.authorId });
    return this.inWindow(query, selection)
      .orderBy('listing.startUtc', 'ASC')
      .addOrderBy('listing.publishedAt', 'ASC')
      .addOrderBy('listing.eventId', 'ASC');
  }

  private inWindow(query: SelectQueryBuilder<EventListing>, selection: ListingSelection): SelectQueryBuilder<EventListing> {
    return query
      .andWhere('listing.startUtc >= :windowStart', { windowStart: selection.windowStart })
      .andWhere('listing.endUtc <= :windowEnd', { windowEnd: selection.windowEnd });
  }
}
