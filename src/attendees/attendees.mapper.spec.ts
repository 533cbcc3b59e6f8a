import type { RequestContext } from '../auth/request-context';
import type { Ticket } from '../tickets/ticket.entity';
import type { Attendee } from './attendee.entity';
import { toAttendeeResponse } from './attendees.mapper';

const usd = { code: 'USD', exponent: 2, symbol: '$', position: 'prefix' as const };

const context: RequestContext = {
  origin: 'http://example.org',
  siteId: 'example.org',
  apiPrefix: 'cal',
  siteTimezone: 'Europe/Paris',
  namespaceUrl: (name, path) => `http://example.org/cal/${name}/v1/${path ?? ''}`,
};

const ticket = {
  id: 10,
  name: 'General Admission',
  description: 'Ticket desc',
  priceMinor: 2500,
  sku: 'GA-1',
  saleStartUtc: new Date('2026-10-31T23:30:00Z'),
  saleEndUtc: null,
} as Ticket;

function attendee(overrides: Partial<Attendee> = {}): Attendee {
  return {
    id: 13,
    orderId: 4,
    ticketId: 10,
    eventId: 6,
    userId: 2,
    provider: 'tc',
    status: 'publish',
    orderStatus: 'completed',
    rsvpGoing: null,
    holderName: 'Alan Turing',
    holderEmail: 'alan@example.com',
    securityCode: 'secret-code',
    checkinSecret: 'CHECKIN-SECRET',
    checkinRevokedAt: null,
    checkinBlocked: false,
    pricePaidMinor: 2500,
    optout: false,
    meta: null,
    checkedIn: false,
    checkedInAt: null,
    checkinSource: null,
    checkinUserId: null,
    couponCode: null,
    discountMinor: 0,
    createdAt: new Date('2026-11-21T22:42:48Z'),
    updatedAt: new Date('2026-11-21T22:42:49Z'),
    ...overrides,
  };
}

describe('attendee prices', () => {
  const priced = (priceMinor: number, currency: { code: string; exponent: number }) =>
    toAttendeeResponse(attendee({ pricePaidMinor: priceMinor }), { ...ticket, priceMinor }, context, {
      manage: true,
      currency: { ...usd, ...currency },
      eventTimezone: 'UTC',
    });

  it('shows the raw price without trailing zeros, and the formatted one with the currency decimals', () => {
    const cases: Array<[number, { code: string; exponent: number }, string, string, number]> = [
      [2500, { code: 'USD', exponent: 2 }, '25', '25.00', 2],
      [2550, { code: 'USD', exponent: 2 }, '25.5', '25.50', 2],
      [5, { code: 'USD', exponent: 2 }, '0.05', '0.05', 2],
      [102550, { code: 'USD', exponent: 2 }, '1025.5', '1,025.50', 2],
      [4500, { code: 'JPY', exponent: 0 }, '4500', '4,500', 0],
      [4125, { code: 'KWD', exponent: 3 }, '4.125', '4.125', 3],
      [4500000, { code: 'KWD', exponent: 3 }, '4500', '4,500.000', 3],
    ];
    for (const [minor, currency, raw, formatted, decimals] of cases) {
      const response = priced(minor, currency);
      expect([
        minor,
        currency.code,
        response.ticket.raw_price,
        response.ticket.formatted_price,
        response.ticket.currency_config.number_of_decimals,
        response.payment?.price,
      ]).toEqual([minor, currency.code, raw, formatted, decimals, raw]);
    }
  });
});

describe('toAttendeeResponse', () => {
  it('shows public fields only, in the recorded order', () => {
    const response = toAttendeeResponse(attendee(), ticket, context, { manage: false, currency: usd, eventTimezone: 'America/New_York' });
    expect(Object.keys(response)).toEqual([
      'id',
      'post_id',
      'ticket_id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'rest_url',
      'ticket',
      'title',
      'optout',
    ]);
    expect(response).toMatchObject({
      global_id: 'example.org?type=attendee&id=13',
      global_id_lineage: ['example.org?type=attendee&id=13'],
      date: '2026-11-21 23:42:48',
      date_utc: '2026-11-21 22:42:48',
      rest_url: 'http://example.org/cal/tickets/v1/attendees/13',
      ticket: {
        id: 10,
        title: 'General Admission',
        raw_price: '25',
        formatted_price: '25.00',
        currency_config: { symbol: '$', placement: 'prefix', decimal_point: '.', thousands_sep: ',', number_of_decimals: 2 },
        start_sale: '2026-10-31',
        end_sale: '',
      },
    });
    expect(JSON.stringify(response)).not.toContain('secret-code');
    expect(JSON.stringify(response)).not.toContain('CHECKIN-SECRET');
  });

  it('adds manager fields and the payment of a paid attendee', () => {
    const checkedIn = attendee({ checkedIn: true, checkedInAt: new Date('2026-12-01T08:00:05Z'), checkinSource: 'app', checkinUserId: 3 });
    const response = toAttendeeResponse(checkedIn, ticket, context, { manage: true, currency: usd, eventTimezone: 'UTC' });
    expect(Object.keys(response).slice(15)).toEqual([
      'provider',
      'order',
      'sku',
      'email',
      'checked_in',
      'checkin_details',
      'is_subscribed',
      'is_purchaser',
      'security_code',
      'checkin_secret',
      'checkin_secret_revoked',
      'payment',
    ]);
    expect(response).toMatchObject({
      provider: 'tc',
      order: 4,
      sku: 'GA-1',
      email: 'alan@example.com',
      checked_in: true,
      checkin_details: { date: '2026-12-01 09:00:05', source: 'app', author: '3' },
      security_code: 'secret-code',
      checkin_secret: 'CHECKIN-SECRET',
      checkin_secret_revoked: false,
      payment: { provider: 'tc', price: '25', currency: '$', date: '2026-11-21 23:42:48' },
    });
  });

  it('shows rsvp_going for RSVP attendees and keeps managers informed of opted-out names', () => {
    const rsvp = attendee({ provider: 'rsvp', rsvpGoing: true, optout: true, orderStatus: 'yes' });
    const managed = toAttendeeResponse(rsvp, ticket, context, { manage: true, currency: usd, eventTimezone: 'UTC' });
    expect(managed.rsvp_going).toBe(true);
    expect(managed.payment).toBeUndefined();
    expect(managed.title).toBe('Alan Turing');
    expect(managed.checkin_details).toBe(false);
    const publicView = toAttendeeResponse(rsvp, ticket, context, { manage: false, currency: usd, eventTimezone: 'UTC' });
    expect(publicView).not.toHaveProperty('title');
    expect(publicView.optout).toBe(true);
  });
});
