import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { QueryRunner } from 'typeorm';
import type { DomainEvent } from './domain-event';
import { TransactionHost } from '../database/transaction-host';

export type DomainEventKind = DomainEvent['kind'];
export type DomainEventOf<K extends DomainEventKind> = Extract<DomainEvent, { kind: K }>;

/**
 * When a listener runs, relative to the writer's transaction:
 * - `in-transaction` (default): at once, inside it (TransactionHost's manager is the writer's). What the listener writes
 *   commits or rolls back with the write; a listener that throws fails the write.
 * - `before-commit`: once per transaction, inside it, just before COMMIT, with every event of its
 *   kinds the transaction published (to gather many writes into one act, such as a purge message).
 * - `after-commit`: once per transaction, after COMMIT, with its events and the transaction's
 *   runner as TransactionHost's manager (it reads what committed); nothing when the transaction rolls back. For what
 *   must not hold the transaction's locks. A failure there cannot undo the write: log it.
 * Outside a transaction all three run at once.
 */
export type DomainEventPhase = 'in-transaction' | 'before-commit' | 'after-commit';

/** A listener reads and writes through TransactionHost, which holds the writer's transaction in the in-transaction and before-commit phases. */
export type DomainEventListener<E extends DomainEvent = DomainEvent> = (events: readonly E[]) => Promise<void>;

interface Subscription {
  kinds: ReadonlySet<DomainEventKind> | null;
  phase: DomainEventPhase;
  listener: DomainEventListener;
  name: string;
}

interface ListenerMetadata {
  kinds: readonly DomainEventKind[];
  phase: DomainEventPhase;
}

const LISTENER_METADATA = Symbol('cal:on-domain-event');

/** Kinds published once the writer's transaction may have committed by itself (UnitsTaken): only after-commit listeners may have them. */
const AFTER_COMMIT_ONLY: ReadonlySet<DomainEventKind> = new Set(['UnitsTaken']);

/**
 * Marks a provider's method `(events) => Promise<void>` as a listener of these kinds of
 * domain events; DomainEvents finds it at start-up. This is the one way the code reacts to a write
 * (CONTRIBUTING.md, "Reacting to a write").
 */
export function OnDomainEvent<K extends DomainEventKind>(
  kinds: K | readonly K[],
  options: { phase?: DomainEventPhase } = {},
): <T extends DomainEventListener<DomainEventOf<K>>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<T>,
) => TypedPropertyDescriptor<T> {
  const metadata: ListenerMetadata = {
    kinds: typeof kinds === 'string' ? [kinds] : [...kinds],
    phase: options.phase ?? 'in-transaction',
  };
  return (_target, _key, descriptor) => {
    Reflect.defineMetadata(LISTENER_METADATA, metadata, descriptor.value as object);
    return descriptor;
  };
}

/** What a transaction published for its deferred listeners, and how far the before-commit ones have read. */
interface Pending {
  events: DomainEvent[];
  deliveredBeforeCommit: number;
}

/**
 * Writes publish what happened (`publish`) instead of calling whatever must follow; listeners are
 * the providers' methods marked @OnDomainEvent, found at start-up (or `subscribe`d by hand in unit
 * tests). In-transaction listeners run in the order they were found; the deferred phases are driven
 * by the transaction's commit (DomainEventsTransactionBridge tells this service of it).
 */
@Injectable()
export class DomainEvents implements OnModuleInit {
  private readonly subscriptions: Subscription[] = [];
  private readonly pending = new WeakMap<QueryRunner, Pending>();

  constructor(
    private readonly tx: TransactionHost,
    @Optional() private readonly discovery?: DiscoveryService,
    @Optional() private readonly scanner?: MetadataScanner,
  ) {}

  onModuleInit(): void {
    if (!this.discovery) return;
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as unknown;
      if (instance && typeof instance === 'object' && wrapper.isDependencyTreeStatic()) this.subscribeListenersOf(instance);
    }
  }

  /** Subscribes the @OnDomainEvent methods of `instance` (start-up does it for every provider; unit tests for theirs). */
  subscribeListenersOf(instance: object): void {
    const prototype = Object.getPrototypeOf(instance) as object | null;
    if (!prototype) return;
    const scanner = this.scanner ?? new MetadataScanner();
    for (const method of scanner.getAllMethodNames(prototype)) {
      const handler = (instance as Record<string, unknown>)[method];
      if (typeof handler !== 'function') continue;
      const metadata = Reflect.getMetadata(LISTENER_METADATA, handler) as ListenerMetadata | undefined;
      if (!metadata) continue;
      this.subscribe((handler as DomainEventListener).bind(instance), {
        kinds: metadata.kinds,
        phase: metadata.phase,
        name: `${instance.constructor.name}.${method}`,
      });
    }
  }

  /** Adds a listener of `kinds` (every kind when left out). */
  subscribe(
    listener: DomainEventListener,
    options: { kinds?: readonly DomainEventKind[]; phase?: DomainEventPhase; name?: string } = {},
  ): void {
    const late = options.kinds?.find((kind) => AFTER_COMMIT_ONLY.has(kind));
    if (late && (options.phase ?? 'in-transaction') !== 'after-commit') {
      throw new Error(
        `${options.name ?? 'A listener'} listens to ${late}, which only an after-commit listener may: add { phase: 'after-commit' }`,
      );
    }
    this.subscriptions.push({
      kinds: options.kinds ? new Set(options.kinds) : null,
      phase: options.phase ?? 'in-transaction',
      listener,
      name: options.name ?? (listener.name || 'listener'),
    });
  }

  /** The listeners subscribed, as `Class.method (phase: kinds)`: for the docs' table and its test. */
  listeners(): string[] {
    return this.subscriptions.map((entry) => `${entry.name} (${entry.phase}: ${entry.kinds ? [...entry.kinds].join(', ') : 'every kind'})`);
  }

  /** Whether any listener wants events of this kind (lets a frequent publisher skip building them). */
  isListenedTo(kind: DomainEventKind): boolean {
    return this.subscriptions.some((entry) => entry.kinds === null || entry.kinds.has(kind));
  }

  /** Publishes `events` in the current transaction (TransactionHost), or at once for all phases outside one. */
  async publish(...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.deliver('in-transaction', events);
    const runner = this.tx.manager.queryRunner;
    if (runner?.isTransactionActive) {
      const pending = this.pending.get(runner);
      if (pending) pending.events.push(...events);
      else this.pending.set(runner, { events: [...events], deliveredBeforeCommit: 0 });
      return;
    }
    await this.deliver('before-commit', events);
    await this.deliver('after-commit', events);
  }

  /** The transaction is about to commit: its before-commit listeners run, until they publish nothing more. */
  async transactionCommitting(runner: QueryRunner): Promise<void> {
    const pending = this.pending.get(runner);
    while (pending && pending.deliveredBeforeCommit < pending.events.length) {
      const fresh = pending.events.slice(pending.deliveredBeforeCommit);
      pending.deliveredBeforeCommit = pending.events.length;
      await this.tx.withManager(runner.manager, () => this.deliver('before-commit', fresh));
    }
  }

  /** The transaction committed (the outermost one: a savepoint's commit leaves it open). */
  async transactionCommitted(runner: QueryRunner): Promise<void> {
    if (runner.isTransactionActive) return;
    const pending = this.pending.get(runner);
    if (!pending) return;
    this.pending.delete(runner);
    await this.tx.withManager(runner.manager, () => this.deliver('after-commit', pending.events));
  }

  transactionRolledBack(runner: QueryRunner): void {
    if (!runner.isTransactionActive) this.pending.delete(runner);
  }

  private async deliver(phase: DomainEventPhase, events: readonly DomainEvent[]): Promise<void> {
    for (const subscription of this.subscriptions) {
      if (subscription.phase !== phase) continue;
      const kinds = subscription.kinds;
      const wanted = kinds ? events.filter((event) => kinds.has(event.kind)) : events;
      if (wanted.length > 0) await subscription.listener(wanted);
    }
  }
}
