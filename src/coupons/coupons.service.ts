import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { RequestContext, SignedInContext } from '../auth/request-context';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { CodeAttempts, CodeAttemptSource } from '../common/throttling/code-attempts.service';
import { parseDateInput } from '../common/dates/date-input';
import { resolveTimeZone } from '../common/dates/timezone';
import { isUniqueViolation } from '../common/database/transactions';
import { forbidden, invalidParam, invalidParams } from '../common/errors/api-error';
import { describeMoneyProblem, formatMoney, MoneyRules, parseMoney } from '../common/money';
import { appConfig } from '../config/app.config';
import { assertPageInRange, countPages, parsePageRequest } from '../common/pagination/pagination';
import { Event } from '../events/event.entity';
import type { Order } from '../orders/order.entity';
import { moneyRules } from '../payments/payment-amounts';
import { Coupon, couponTicketIds } from './coupon.entity';
import {
  codeKey,
  couponProblem,
  DiscountType,
  FULL_PERCENT_BASIS_POINTS,
  LineDiscounts,
  lineDiscounts,
  parsePercent,
  PricedLine,
} from './coupon-discount';
import { couponCodeTaken, couponForbidden, couponHasUses, couponNotFound, couponNotValid, couponUnusable } from './coupon-errors';
import { CouponsRepository } from './coupons.repository';
import { toCouponResponse } from './coupons.mapper';
import { CreateCouponDto } from './dto/create-coupon.dto';
import type { CouponListResponse, CouponResponse } from './dto/coupon.response';
import { UpdateCouponDto } from './dto/update-coupon.dto';
import { TransactionHost } from '../common/database/transaction-host';
import { CouponScope, canManageCoupon } from '../access/coupon-access';
import { canManageEvent } from '../access/event-access';

/** Units the coupon may still be used for; null: no limit. */
export function usesLeft(coupon: Pick<Coupon, 'maxUses' | 'uses'>): number | null {
  return coupon.maxUses === null ? null : Math.max(coupon.maxUses - coupon.uses, 0);
}

export function couponScope(coupon: Coupon): CouponScope {
  return { eventId: coupon.eventId, authorId: coupon.authorId, ticketIds: couponTicketIds(coupon) };
}

/** A ticket of a cart or an order as the coupon rules see it. */
export interface CouponLine extends PricedLine {
  hidden: boolean;
}

/** What a coupon does to a checkout: the discounts and the uses to take. */
export interface CheckoutCoupon {
  coupon: Coupon;
  discounts: LineDiscounts;
}

/**
 * Coupons and access codes (docs/coupons.md): their managers' CRUD, and the checks that carts,
 * checkouts, ticket lists and order transitions call. Uses count ticket units.
 */
@Injectable()
export class CouponsService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly coupons: CouponsRepository,
    @Inject(appConfig.KEY) private readonly config: Pick<ConfigType<typeof appConfig>, 'currency' | 'payments'>,
    private readonly attempts: CodeAttempts,
  ) {}

  // ---------------------------------------------------------------- managers' routes

  async list(query: { page?: string; per_page?: string; post_id?: number }, context: SignedInContext): Promise<CouponListResponse> {
    const paging = parsePageRequest(query, 'tickets');
    if (query.post_id !== undefined) {
      // As the reports: an event the caller does not manage is refused, not answered with an empty list.
      const event = await this.eventOrFail(query.post_id);
      if (!canManageEvent(context.user, event)) throw forbidden(false, 'Sorry, you are not allowed to see the coupons of this event.');
    }
    const [coupons, total] = await this.coupons.page({ managedBy: context.user, eventId: query.post_id }, paging.offset, paging.perPage);
    const totalPages = countPages(total, paging.perPage);
    assertPageInRange(paging.page, totalPages, { kind: 'invalid' });
    return {
      rest_url: context.namespaceUrl('tickets', 'coupons'),
      total,
      total_pages: totalPages,
      coupons: coupons.map((coupon) => toCouponResponse(coupon, context, this.config.currency.exponent)),
    };
  }

  async get(id: number, context: SignedInContext): Promise<CouponResponse> {
    const coupon = await this.findManaged(id, context.user);
    return toCouponResponse(coupon, context, this.config.currency.exponent);
  }

  async create(input: CreateCouponDto, context: SignedInContext): Promise<CouponResponse> {
    const now = this.clock.now();
    const terms = readTerms(input.discount_type as DiscountType, input.amount, true, moneyRules(this.config));
    const window = readWindow(input, null, context);
    const eventId = input.post_id === undefined || input.post_id === null || input.post_id === '' ? null : input.post_id;
    return this.writeUnique(input.code, async () => {
      const event = eventId === null ? null : await this.eventOrFail(eventId);
      if (event && !canManageEvent(context.user, event)) throw couponForbidden();
      const scope: CouponScope = { eventId, authorId: context.user.id, ticketIds: [...new Set(input.ticket_ids ?? [])] };
      await this.assertTicketsInScope(scope);
      if (await this.coupons.codeTaken(input.code)) throw couponCodeTaken(input.code);
      const id = await this.coupons.insert({
        code: input.code,
        codeKey: codeKey(input.code),
        authorId: context.user.id,
        eventId,
        ticketIds: scope.ticketIds.length ? JSON.stringify(scope.ticketIds) : null,
        discountType: terms.discountType,
        amount: terms.amount,
        maxUses: input.max_uses === undefined || input.max_uses === null || input.max_uses === '' ? null : input.max_uses,
        uses: 0,
        startsAt: window.startsAt ?? null,
        endsAt: window.endsAt ?? null,
        revealsHidden: input.reveals_hidden ?? false,
        createdAt: now,
        updatedAt: now,
      });
      return toCouponResponse(await this.mustFind(id), context, this.config.currency.exponent);
    });
  }

  async update(id: number, input: UpdateCouponDto, context: SignedInContext): Promise<CouponResponse> {
    return this.writeUnique(input.code ?? '', async () => {
      const coupon = await this.findManaged(id, context.user, true);
      const discountType = (input.discount_type ?? coupon.discountType) as DiscountType;
      const terms =
        input.amount === undefined && discountType === coupon.discountType
          ? { discountType, amount: coupon.amount }
          : readTerms(
              discountType,
              input.amount === undefined ? storedAmount(coupon, this.config.currency.exponent) : input.amount,
              true,
              moneyRules(this.config),
            );
      const window = readWindow(input, coupon, context);
      const changes: Partial<Coupon> = { discountType: terms.discountType, amount: terms.amount, updatedAt: this.clock.now() };
      if (window.startsAt !== undefined) changes.startsAt = window.startsAt;
      if (window.endsAt !== undefined) changes.endsAt = window.endsAt;
      Object.assign(changes, await this.scopeChanges(coupon, input, context));
      if (input.max_uses !== undefined) changes.maxUses = input.max_uses === null || input.max_uses === '' ? null : input.max_uses;
      if (input.reveals_hidden !== undefined) changes.revealsHidden = input.reveals_hidden;
      if (input.code !== undefined && input.code !== coupon.code) {
        if (await this.coupons.codeTaken(input.code, coupon.id)) throw couponCodeTaken(input.code);
        changes.code = input.code;
        changes.codeKey = codeKey(input.code);
      }
      await this.coupons.update(coupon.id, changes);
      return toCouponResponse(await this.mustFind(coupon.id), context, this.config.currency.exponent);
    });
  }

  /** 409 once the coupon has uses: orders refer to it. */
  async remove(id: number, context: SignedInContext): Promise<CouponResponse> {
    return this.tx.run(async () => {
      const coupon = await this.findManaged(id, context.user, true);
      if (coupon.uses > 0 || !(await this.coupons.deleteUnused(coupon.id))) throw couponHasUses(coupon.uses);
      return toCouponResponse(coupon, context, this.config.currency.exponent);
    });
  }

  // ---------------------------------------------------------------- carts, checkouts, lists, orders

  /**
   * The coupon a cart write or a ticket read names, usable now (400 `coupon-not-valid` naming
   * `coupon` otherwise). Codes that fail count against the source's address and cart; while either
   * is paused the code is not looked up (429 `too-many-coupon-failures`, CodeAttempts).
   */
  async usableByCode(code: string, source: CodeAttemptSource): Promise<Coupon> {
    await this.attempts.assertAllowed(source);
    const coupon = await this.coupons.findByCode(code);
    const problem = coupon ? couponProblem(coupon, this.clock.now()) : 'unknown';
    if (!coupon || problem) {
      await this.attempts.recordFailure(source);
      throw couponNotValid(problem ?? 'unknown');
    }
    return coupon;
  }

  findById(id: number): Promise<Coupon | null> {
    return this.coupons.findById(id);
  }

  /** Of `ticketIds`, those the coupon covers (one query). */
  coveredTickets(coupon: Coupon, ticketIds: number[]): Promise<Set<number>> {
    return this.coupons.coveredTicketIds(couponScope(coupon), ticketIds);
  }

  /** What the coupon takes off each line, for showing a cart (no checks on uses: checkout decides). */
  async cartDiscounts(coupon: Coupon, lines: PricedLine[]): Promise<LineDiscounts> {
    const covered = await this.coveredTickets(
      coupon,
      lines.map((line) => line.ticketId),
    );
    return lineDiscounts(lines, (ticketId) => covered.has(ticketId), coupon, moneyRules(this.config).step);
  }

  /**
   * For a cart write: whether one checkout of the cart's lines of a provider would need more uses
   * than the coupon has left (units of the tickets it covers, as `priceCheckout` counts them). Null
   * when they fit or the coupon has no limit; else the uses left and the covered tickets. Checkout
   * checks again and takes the uses atomically: this is only the early, friendly refusal.
   */
  async shortOfUses(
    coupon: Coupon,
    lines: Array<{ ticketId: number; quantity: number; provider: string }>,
  ): Promise<{ usesLeft: number; covered: Set<number> } | null> {
    const left = usesLeft(coupon);
    if (left === null) return null;
    const covered = await this.coveredTickets(
      coupon,
      lines.map((line) => line.ticketId),
    );
    const unitsByProvider = new Map<string, number>();
    for (const line of lines) {
      if (line.quantity > 0 && covered.has(line.ticketId))
        unitsByProvider.set(line.provider, (unitsByProvider.get(line.provider) ?? 0) + line.quantity);
    }
    return Math.max(0, ...unitsByProvider.values()) > left ? { usesLeft: left, covered } : null;
  }

  /**
   * The cart's coupon at checkout: still there, in its window, with uses left for the units it
   * covers, and revealing every hidden ticket of the order; 409 otherwise. Null when the cart has
   * no coupon (hidden tickets then refused). Reads the coupon only when the cart names one.
   */
  async priceCheckout(couponId: number | null, lines: CouponLine[]): Promise<CheckoutCoupon | null> {
    if (couponId === null) {
      const hidden = lines.find((line) => line.hidden);
      if (hidden) throw couponUnusable('hidden-ticket', hidden.ticketId);
      return null;
    }
    const coupon = await this.coupons.findById(couponId);
    if (!coupon) throw couponUnusable('unknown');
    const covered = await this.coveredTickets(
      coupon,
      lines.map((line) => line.ticketId),
    );
    const hidden = lines.find((line) => line.hidden && !(coupon.revealsHidden && covered.has(line.ticketId)));
    if (hidden) throw couponUnusable('hidden-ticket', hidden.ticketId);
    const discounts = lineDiscounts(lines, (ticketId) => covered.has(ticketId), coupon, moneyRules(this.config).step);
    // A code that covers nothing of this order is not used by it: no check, no use taken.
    if (discounts.units === 0) return null;
    const problem = couponProblem(coupon, this.clock.now(), discounts.units);
    if (problem) throw couponUnusable(problem, undefined, usesLeft(coupon) ?? undefined);
    return { coupon, discounts };
  }

  /** Takes the checkout's uses with a conditional UPDATE in the caller's transaction; 409 when they are gone. */
  async takeUses(couponId: number, units: number): Promise<void> {
    if (units <= 0) return;
    await this.coupons.takeUsesOrFail(couponId, units, () => couponUnusable('used-up'));
  }

  /**
   * Takes again the uses an expired order gave back, when a late payment completes it: false when
   * the code has been used up meanwhile (the payment is then refunded, as when its tickets are gone).
   */
  async retakeUses(order: Pick<Order, 'couponId' | 'couponUses'>): Promise<boolean> {
    if (order.couponId === null || order.couponUses <= 0) return true;
    return this.coupons.takeUses(order.couponId, order.couponUses);
  }

  /** Gives back an order's uses (cancelled or expired); pass the order when it is at hand. */
  async giveBackUses(order: number | Pick<Order, 'couponId' | 'couponUses'>): Promise<void> {
    const coupon = typeof order === 'number' ? await this.coupons.orderCoupon(order) : order;
    if (coupon) await this.coupons.giveBackUses(coupon);
  }

  /**
   * For ticket lists and single reads: the scope of tickets a revealing code shows, or 400
   * `coupon-not-valid` for a code that cannot be used now or reveals nothing.
   */
  async revealingScope(code: string, source: CodeAttemptSource): Promise<CouponScope> {
    const coupon = await this.usableByCode(code, source);
    if (!coupon.revealsHidden) return { eventId: -1, authorId: -1, ticketIds: [] };
    return couponScope(coupon);
  }

  // ---------------------------------------------------------------- helpers

  /** The event and ticket list an update sets, checked against each other and the caller's rights. */
  private async scopeChanges(
    coupon: Coupon,
    input: UpdateCouponDto,
    context: SignedInContext,
  ): Promise<Pick<Partial<Coupon>, 'eventId' | 'ticketIds'>> {
    const changes: Pick<Partial<Coupon>, 'eventId' | 'ticketIds'> = {};
    if (input.post_id !== undefined) {
      const eventId = input.post_id === null || input.post_id === '' ? null : input.post_id;
      const event = eventId === null ? null : await this.eventOrFail(eventId);
      if (event && !canManageEvent(context.user, event)) throw couponForbidden();
      changes.eventId = eventId;
    }
    if (input.ticket_ids !== undefined) {
      const ids = [...new Set(input.ticket_ids)];
      changes.ticketIds = ids.length ? JSON.stringify(ids) : null;
    }
    if (input.post_id === undefined && input.ticket_ids === undefined) return changes;
    await this.assertTicketsInScope({
      eventId: changes.eventId === undefined ? coupon.eventId : changes.eventId,
      authorId: coupon.authorId,
      ticketIds: couponTicketIds({ ticketIds: changes.ticketIds === undefined ? coupon.ticketIds : changes.ticketIds }),
    });
    return changes;
  }

  private async findManaged(id: number, user: AuthenticatedUser, lock = false): Promise<Coupon> {
    const coupon = await this.coupons.findForManager(id, lock);
    if (!coupon) throw couponNotFound(id);
    const event = coupon.eventId === null ? null : await this.coupons.event(coupon.eventId);
    if (canManageCoupon(user, coupon, event)) return coupon;
    throw couponForbidden();
  }

  private async mustFind(id: number): Promise<Coupon> {
    const coupon = await this.coupons.findById(id);
    if (!coupon) throw couponNotFound(id);
    return coupon;
  }

  private async eventOrFail(eventId: number): Promise<Event> {
    const event = await this.coupons.event(eventId);
    if (!event) throw invalidParam('post_id', `post_id ${eventId} is not an event`);
    return event;
  }

  /** Every listed ticket must exist within the coupon's scope (its event, or its author's events). */
  private async assertTicketsInScope(scope: CouponScope): Promise<void> {
    if (scope.ticketIds.length === 0) return;
    const covered = await this.coupons.coveredTicketIds({ ...scope, ticketIds: [] }, scope.ticketIds);
    const outside = scope.ticketIds.filter((id) => !covered.has(id));
    if (outside.length > 0) {
      throw invalidParam(
        'ticket_ids',
        `tickets ${outside.join(', ')} are not tickets of ${scope.eventId === null ? "the coupon author's events" : `event ${scope.eventId}`}`,
      );
    }
  }

  /** A write whose unique code may meet a concurrent one's: the loser gets 409 `coupon-code-taken`. */
  private async writeUnique<T>(code: string, work: () => Promise<T>): Promise<T> {
    try {
      return await this.tx.run(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw couponCodeTaken(code);
      throw error;
    }
  }
}

/** A coupon's stored amount as it was sent, for re-reading it under another discount type. */
function storedAmount(coupon: Coupon, exponent: number): string {
  if (coupon.discountType === 'flat') return formatMoney(coupon.amount, exponent);
  return `${Math.floor(coupon.amount / 100)}.${String(coupon.amount % 100).padStart(2, '0')}`;
}

/**
 * The discount type and amount, checked together: 400 naming `amount`. Percentages in basis points
 * (two decimals); flat amounts are money, in minor units, with no more decimals than the currency
 * has (src/common/money.ts).
 */
function readTerms(
  discountType: DiscountType,
  raw: unknown,
  sent: boolean,
  rules: MoneyRules,
): { discountType: DiscountType; amount: number } {
  if (discountType === 'none') {
    if (!sent || raw === undefined || raw === null || raw === '') return { discountType, amount: 0 };
    if (parsePercent(raw) !== 0) throw invalidParam('amount', 'an access code (discount_type none) has no amount');
    return { discountType, amount: 0 };
  }
  if (raw === undefined || raw === null || raw === '') throw invalidParam('amount', `amount is required for a ${discountType} discount`);
  if (discountType === 'percent') {
    const amount = parsePercent(raw);
    if (amount === null || amount < 1 || amount > FULL_PERCENT_BASIS_POINTS)
      throw invalidParam('amount', 'amount must be a percentage above 0 and at most 100, with two decimals at most');
    return { discountType, amount };
  }
  const parsed = parseMoney(raw, rules);
  if (parsed.problem) throw invalidParam('amount', describeMoneyProblem('amount', parsed.problem, rules));
  if (parsed.minor < 1) throw invalidParam('amount', 'amount must be more than 0');
  return { discountType, amount: parsed.minor };
}

/** starts_at / ends_at in the site time zone; undefined when not sent, null when cleared. */
function readWindow(
  input: { starts_at?: string | null; ends_at?: string | null },
  existing: Coupon | null,
  context: RequestContext,
): { startsAt?: Date | null; endsAt?: Date | null } {
  const zone = resolveTimeZone(context.siteTimezone) ?? resolveTimeZone('UTC')!;
  const reasons: Record<string, string> = {};
  const read = (field: 'starts_at' | 'ends_at'): Date | null | undefined => {
    const raw = input[field];
    if (raw === undefined) return undefined;
    if (raw === null || raw.trim() === '') return null;
    const parsed = parseDateInput(raw, zone);
    if (!parsed) {
      reasons[field] = `${field} must be a date (YYYY-MM-DD HH:MM:SS)`;
      return undefined;
    }
    return parsed.instant;
  };
  const startsAt = read('starts_at');
  const endsAt = read('ends_at');
  const start = startsAt === undefined ? existing?.startsAt : startsAt;
  const end = endsAt === undefined ? existing?.endsAt : endsAt;
  if (!reasons.ends_at && start && end && end.getTime() <= start.getTime()) reasons.ends_at = 'ends_at must be after starts_at';
  if (Object.keys(reasons).length > 0) throw invalidParams(reasons);
  return { startsAt, endsAt };
}
