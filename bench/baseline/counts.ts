import type { Database } from './db';
import { countQueries } from './queries';

/** What a cached count depends on; a committed write to one of its tables renews its generation. */
export type CountScope = 'events' | 'tickets' | 'attendees';

interface Entry {
  generation: number;
  value: number;
  storedAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * The service's count cache (src/common/caching/count-cache.ts), so that both servers send the
 * same statements: list totals are kept in this process under their scope's
 * generation, a row of `cache_generations` read once per request and scope, for at most
 * COUNT_CACHE_SECONDS. Writes renew the generations after they commit (`scopesWrittenBy`, the checkout).
 */
export class CountCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly db: Database,
    private readonly seconds: number,
  ) {}

  /** The counts of one request, which read each scope's generation at most once. */
  forRequest(): RequestCounts {
    return new RequestCounts(this, this.db, this.seconds > 0);
  }

  private readonly inFlight = new Map<string, Promise<number>>();

  /** One computation for callers that miss the same key together (as the service's CountCache). */
  shared(key: string, compute: () => Promise<number>): Promise<number> {
    let flight = this.inFlight.get(key);
    if (!flight) {
      flight = compute().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, flight);
    }
    return flight;
  }

  fresh(key: string, generation: number): number | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation || Date.now() - entry.storedAt > this.seconds * 1000) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  store(key: string, generation: number, value: number): void {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { generation, value, storedAt: Date.now() });
  }
}

export class RequestCounts {
  private readonly generations = new Map<CountScope, Promise<number>>();

  constructor(
    private readonly cache: CountCache,
    private readonly db: Database,
    private readonly enabled: boolean,
  ) {}

  /** `compute()` (a COUNT statement), unless this exact statement was counted under the current generation. */
  async count(scope: CountScope, sql: string, values: unknown[], compute: () => Promise<number>): Promise<number> {
    if (!this.enabled) return compute();
    const key = `${scope}\n${sql}\n${JSON.stringify(values)}`;
    const generation = await this.generation(scope);
    const cached = this.cache.fresh(key, generation);
    if (cached !== undefined) return cached;
    const value = await this.cache.shared(`${generation}\n${key}`, compute);
    this.cache.store(key, generation, value);
    return value;
  }

  private generation(scope: CountScope): Promise<number> {
    let generation = this.generations.get(scope);
    if (!generation) {
      generation = this.db.select<{ generation: number | string }>(countQueries.generation, [scope]).then((rows) => Number(rows[0]?.generation ?? 0));
      this.generations.set(scope, generation);
    }
    return generation;
  }
}

/** The scopes whose counts a write to each table changes (the service's COUNT_SCOPE_TABLES, for the tables the baseline writes). */
const SCOPES_OF_TABLE: Readonly<Record<string, readonly CountScope[]>> = {
  tickets: ['tickets', 'attendees'],
  ticket_pools: ['tickets'],
  orders: ['attendees'],
  order_items: ['attendees'],
  attendees: ['attendees'],
};

/** The scopes a transaction writing `tables` (in that order) renews after its commit. */
export function scopesWrittenBy(tables: string[]): CountScope[] {
  const scopes = new Set<CountScope>();
  for (const table of tables) for (const scope of SCOPES_OF_TABLE[table] ?? []) scopes.add(scope);
  return [...scopes];
}
