import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { TransactionHost } from '../common/database/transaction-host';
import { TICKET_PROVIDERS } from '../tickets/ticket.entity';
import { readPoolStats } from './pool-stats';
import { SqlDialect } from '../database/sql-dialect';
import { lockConflictsOf } from '../common/database/transactions';

/** Latency buckets in seconds: API answers take milliseconds; the top buckets catch stalls. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type HttpLabels = 'method' | 'route' | 'status_code';

/**
 * The service's Prometheus metrics. Each instance has its own registry rather than prom-client's
 * global one, so that several apps in one process (the e2e tests) do not register a metric twice.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<HttpLabels>;
  private readonly httpDuration: Histogram<HttpLabels>;
  private readonly ticketsSoldCounter: Counter<'provider'>;
  private readonly checkoutsFailedCounter: Counter<'reason'>;
  private readonly eventDocumentsCounter: Counter<'result'>;
  private readonly queueEtaErrorHistogram: Histogram;

  constructor(tx: TransactionHost) {
    const dataSource = tx.dataSource;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its response, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.ticketsSoldCounter = new Counter({
      name: 'cal_tickets_sold_total',
      help: 'Ticket units sold: free checkouts (RSVP "going" included) and paid orders when completed',
      labelNames: ['provider'],
      registers,
    });
    // Known label values start at 0, so that rate() sees the first sale.
    for (const provider of TICKET_PROVIDERS) this.ticketsSoldCounter.inc({ provider }, 0);
    this.checkoutsFailedCounter = new Counter({
      name: 'cal_checkouts_failed_total',
      help: 'Checkouts refused or failed, by the error code of the answer',
      labelNames: ['reason'],
      registers,
    });
    this.eventDocumentsCounter = new Counter({
      name: 'cal_event_document_cache_total',
      help: 'Event documents a response needed, looked up in the per-instance cache (hit, miss), missing there but read as stored (stored) or built from rows (built), and dropped from the cache to stay under its size (eviction)',
      labelNames: ['result'],
      registers,
    });
    for (const result of ['hit', 'miss', 'stored', 'built', 'eviction']) this.eventDocumentsCounter.inc({ result }, 0);
    this.queueEtaErrorHistogram = new Histogram({
      name: 'cal_queue_eta_error_ratio',
      help: 'Waiting rooms: |actual − predicted| / predicted wait of each entry admitted, the prediction made when it got its position (join or opening)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5],
      registers,
    });
    new Counter({
      name: 'cal_db_lock_conflicts_total',
      help: 'Transactions that met a deadlock or lock wait timeout (SQLite: a stale snapshot), run again (retried) or given up with 503 database-busy (gave_up)',
      labelNames: ['outcome'],
      registers,
      collect() {
        const tally = lockConflictsOf(dataSource);
        this.reset();
        this.inc({ outcome: 'retried' }, tally.retried);
        this.inc({ outcome: 'gave_up' }, tally.gaveUp);
      },
    });
    if (SqlDialect.of(dataSource).pooled) this.registerPoolGauges(dataSource);
  }

  recordRequest(method: string, route: string, statusCode: number, seconds: number): void {
    const labels = { method, route, status_code: String(statusCode) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  ticketsSold(provider: string, units: number): void {
    if (units > 0) this.ticketsSoldCounter.inc({ provider }, units);
  }

  checkoutFailed(reason: string): void {
    this.checkoutsFailedCounter.inc({ reason });
  }

  eventDocuments(result: 'hit' | 'miss' | 'stored' | 'built' | 'eviction', count = 1): void {
    if (count > 0) this.eventDocumentsCounter.inc({ result }, count);
  }

  /**
   * What the event-document cache holds now, read when scraped: entries and the bytes they are
   * counted as (what EVENT_DOCUMENT_CACHE_MB bounds), per rendering (a list item, a single GET's
   * response), so that an operator can size the cache for a catalogue (docs/performance.md).
   */
  eventDocumentCache(read: () => Array<{ rendering: string; entries: number; bytes: number }>): void {
    const registers = [this.registry];
    new Gauge({
      name: 'cal_event_document_cache_entries',
      help: 'Event documents held by the per-instance cache, by rendering (list, single)',
      labelNames: ['rendering'],
      registers,
      collect() {
        for (const { rendering, entries } of read()) this.set({ rendering }, entries);
      },
    });
    new Gauge({
      name: 'cal_event_document_cache_bytes',
      help: 'Bytes the per-instance event-document cache counts its documents as (at most EVENT_DOCUMENT_CACHE_MB), by rendering (list, single)',
      labelNames: ['rendering'],
      registers,
      collect() {
        for (const { rendering, bytes } of read()) this.set({ rendering }, bytes);
      },
    });
  }

  /** An admitted entry's wait against the one predicted (milliseconds; predictions under a second count as one). */
  queueEtaError(predictedMs: number, actualMs: number): void {
    this.queueEtaErrorHistogram.observe(Math.abs(actualMs - predictedMs) / Math.max(predictedMs, 1_000));
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * The MySQL pools' use, read when scraped. SQLite has no pool (one connection, writes queued
   * in the process), so these series exist on MySQL only.
   */
  private registerPoolGauges(dataSource: DataSource): void {
    const registers = [this.registry];
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of the MySQL pool, in use or idle; pool is primary or replicaN',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const stats of readPoolStats(dataSource)) {
          this.set({ pool: stats.pool, state: 'in_use' }, stats.inUse);
          this.set({ pool: stats.pool, state: 'idle' }, stats.idle);
        }
      },
    });
    new Gauge({
      name: 'db_pool_queued_requests',
      help: 'Requests waiting for a free connection of the MySQL pool',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const stats of readPoolStats(dataSource)) this.set({ pool: stats.pool }, stats.queued);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'Most connections the MySQL pool opens (DATABASE_POOL_SIZE)',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const stats of readPoolStats(dataSource)) this.set({ pool: stats.pool }, stats.limit);
      },
    });
  }
}
