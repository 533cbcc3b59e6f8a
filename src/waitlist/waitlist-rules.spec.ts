import { canCancel, emailKey, isOfferLive, joinProblem, offerExpiry, planOffers, splitRedeemed } from './waitlist-rules';
import { linePositions, toEntryResponse, toStatsResponse } from './waitlist.mapper';
import type { WaitlistEntry } from './waitlist-entry.entity';

describe('waitlist rules', () => {
  describe('planOffers', () => {
    const queue = [
      { id: 1, quantity: 2 },
      { id: 2, quantity: 1 },
      { id: 3, quantity: 3 },
    ];

    it('serves the line in order, each entry what it asked for', () => {
      expect(planOffers(3, queue)).toEqual([
        { entryId: 1, quantity: 2 },
        { entryId: 2, quantity: 1 },
      ]);
    });

    it('offers the head what is left when less than it asked for, and nobody behind it', () => {
      expect(planOffers(1, queue)).toEqual([{ entryId: 1, quantity: 1 }]);
      expect(planOffers(5, queue)).toEqual([
        { entryId: 1, quantity: 2 },
        { entryId: 2, quantity: 1 },
        { entryId: 3, quantity: 2 },
      ]);
    });

    it('offers nothing without free units, and at most a manual limit', () => {
      expect(planOffers(0, queue)).toEqual([]);
      expect(planOffers(-1, queue)).toEqual([]);
      expect(planOffers(10, queue, 2)).toEqual([{ entryId: 1, quantity: 2 }]);
      expect(planOffers(1, queue, 5)).toEqual([{ entryId: 1, quantity: 1 }]);
      expect(planOffers(10, [])).toEqual([]);
    });

    it('never hands out more than is free, whatever the line', () => {
      for (let available = 0; available < 12; available += 1) {
        const total = planOffers(available, queue).reduce((sum, offer) => sum + offer.quantity, 0);
        expect(total).toBe(Math.min(available, 6));
      }
    });
  });

  it('lets people join a ticket with its waitlist on and nothing left to buy', () => {
    expect(joinProblem(false, 0)).toBe('waitlist-disabled');
    expect(joinProblem(true, 2)).toBe('not-sold-out');
    expect(joinProblem(true, -1)).toBe('not-sold-out');
    expect(joinProblem(true, 0)).toBeNull();
  });

  it('cancels waiting and offered entries only', () => {
    expect(canCancel('waiting')).toBe(true);
    expect(canCancel('offered')).toBe(true);
    expect(canCancel('purchased')).toBe(false);
    expect(canCancel('expired')).toBe(false);
    expect(canCancel('cancelled')).toBe(false);
  });

  it('keeps an offer live until its deadline, exclusive', () => {
    const now = new Date('2030-01-01T12:00:00Z');
    const expires = offerExpiry(now, 12);
    expect(expires.toISOString()).toBe('2030-01-02T00:00:00.000Z');
    expect(isOfferLive({ status: 'offered', offerExpiresAt: expires }, now)).toBe(true);
    expect(isOfferLive({ status: 'offered', offerExpiresAt: expires }, expires)).toBe(false);
    expect(isOfferLive({ status: 'purchased', offerExpiresAt: expires }, now)).toBe(false);
    expect(isOfferLive({ status: 'offered', offerExpiresAt: null }, now)).toBe(false);
    expect(offerExpiry(now, 0.5).toISOString()).toBe('2030-01-01T12:30:00.000Z');
  });

  it('splits a redeemed offer into units covered, taken on top, and given back', () => {
    expect(splitRedeemed(3, 3)).toEqual({ covered: 3, extra: 0, unused: 0 });
    expect(splitRedeemed(3, 2)).toEqual({ covered: 2, extra: 0, unused: 1 });
    expect(splitRedeemed(2, 5)).toEqual({ covered: 2, extra: 3, unused: 0 });
    expect(splitRedeemed(2, 0)).toEqual({ covered: 0, extra: 0, unused: 2 });
  });

  it('compares addresses trimmed and case-insensitively', () => {
    expect(emailKey('  Ada@Example.ORG ')).toBe('ada@example.org');
  });
});

describe('waitlist mapper', () => {
  it('numbers each ticket’s waiting entries from 1 in line order', () => {
    const positions = linePositions([
      { id: 7, ticketId: 1 },
      { id: 3, ticketId: 1 },
      { id: 9, ticketId: 2 },
    ]);
    expect([...positions]).toEqual([
      [7, 1],
      [3, 2],
      [9, 1],
    ]);
  });

  const entry = (status: WaitlistEntry['status']): WaitlistEntry => ({
    id: 4,
    ticketId: 1,
    eventId: 2,
    name: 'Ada',
    email: 'ada@example.org',
    liveEmail: 'ada@example.org',
    quantity: 2,
    priority: 0,
    status,
    cancelToken: 'c'.repeat(48),
    offerToken: 'o'.repeat(48),
    offerQuantity: 2,
    offeredAt: new Date('2030-01-01T00:00:00Z'),
    offerExpiresAt: new Date('2030-01-01T12:00:00Z'),
    orderId: null,
    createdAt: new Date('2029-12-31T00:00:00Z'),
    updatedAt: new Date('2030-01-01T00:00:00Z'),
  });

  it('shows the offer token and deadline only while offered, never the cancel token', () => {
    const offered = toEntryResponse(entry('offered'), new Map());
    expect(offered).toMatchObject({
      status: 'offered',
      position: null,
      offer_token: 'o'.repeat(48),
      offer_expires_at: '2030-01-01T12:00:00.000Z',
    });
    const expired = toEntryResponse(entry('expired'), new Map());
    expect(expired).toMatchObject({ offer_token: null, offer_expires_at: null });
    expect(JSON.stringify([offered, expired])).not.toContain('c'.repeat(48));
    expect(toEntryResponse(entry('waiting'), new Map([[4, 3]])).position).toBe(3);
  });

  it('counts every status, zero when absent', () => {
    expect(toStatsResponse(1, [{ status: 'waiting', entries: 2, units: 5 }])).toEqual({
      ticket_id: 1,
      waiting: 2,
      offered: 0,
      purchased: 0,
      expired: 0,
      cancelled: 0,
      waiting_units: 5,
      offered_units: 0,
    });
  });
});
