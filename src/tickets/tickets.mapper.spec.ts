import type { Attendee } from '../attendees/attendee.entity';
import type { RequestContext } from '../auth/request-context';
import type { Ticket } from './ticket.entity';
import { checkinReport, formatTicketCost, toTicketResponse } from './tickets.mapper';

const context: RequestContext = {
  origin: 'https://example.org',
  siteId: 'example.org',
  apiPrefix: 'cal',
  siteTimezone: 'Europe/Paris',
  namespaceUrl: (name, path) => `https://example.org/cal/${name}/v1/${path ?? ''}`,
};

const ticket = {
  id: 42,
  eventId: 10,
  authorId: 1,
  provider: 'tc',
  status: 'publish',
  name: 'General',
  description: 'text',
  priceMinor: 123450,
  sku: 'GA-1',
  iac: 'none',
  showDescription: true,
  menuOrder: 0,
  saleStartUtc: new Date('2020-01-02T13:00:00Z'),
  saleEndUtc: null,
  capacityMode: 'own',
  capacity: 30,
  waitlist: false,
  waitlistAutoOffer: true,
  sold: 7,
  pending: 0,
  publishedAt: new Date('2024-06-13T15:25:00Z'),
  createdAt: new Date('2024-06-13T15:25:00Z'),
  updatedAt: new Date('2024-06-14T15:25:00Z'),
} as Ticket;

const currency = { code: 'USD', exponent: 2, symbol: '$', position: 'prefix' as const };

describe('ticket mapper', () => {
  it('formats costs with the currency on either side and thousands separators', () => {
    expect(formatTicketCost(123450, currency)).toBe('$1,234.50');
    expect(formatTicketCost(500, { code: 'EUR', exponent: 2, symbol: '€', position: 'postfix' })).toBe('5.00€');
  });

  it('formats costs with the currency decimals and says how many', () => {
    expect(formatTicketCost(450000, { code: 'JPY', exponent: 0, symbol: '¥', position: 'prefix' })).toBe('¥450,000');
    expect(formatTicketCost(4500000, { code: 'KWD', exponent: 3, symbol: 'KD', position: 'postfix' })).toBe('4,500.000KD');
    const view = {
      ticket: { ...ticket, priceMinor: 4125 },
      event: { id: 10, timezone: 'UTC' },
      pool: null,
      attendees: [],
      manage: false,
    };
    const kwd = { code: 'KWD', exponent: 3, symbol: 'KD', position: 'prefix' as const };
    expect(toTicketResponse(view, context, { currency: kwd, kind: 'single' }).cost_details).toMatchObject({
      values: ['4.125'],
      currency_decimal_numbers: 3,
    });
  });

  it('reports check-ins rounded up, 100 % of nobody', () => {
    const attendees = [true, false, false, false, false, false, false].map((checkedIn) => ({ checkedIn }) as Attendee);
    expect(checkinReport(attendees)).toEqual({ checked_in: 1, unchecked_in: 6, checked_in_percentage: 15, unchecked_in_percentage: 85 });
    expect(checkinReport([])).toEqual({ checked_in: 0, unchecked_in: 0, checked_in_percentage: 100, unchecked_in_percentage: 0 });
  });

  it('shows dates in the event and site zones and hides the manager fields from others', () => {
    const view = { ticket, event: { id: 10, timezone: 'America/New_York' }, pool: null, attendees: [], manage: false };
    const response = toTicketResponse(view, context, { currency, kind: 'single' });
    expect(response).toMatchObject({
      capacity: 30,
      capacity_details: { available_percentage: 76, available: 23 },
      available_from: '2020-01-02 08:00:00',
      available_until: '',
      date: '2024-06-13 17:25:00',
      date_utc: '2024-06-13 15:25:00',
      cost: '$1,234.50',
      global_id: 'example.org?type=tc&id=42',
      rest_url: 'https://example.org/cal/tickets/v1/tickets/42',
    });
    expect(Object.keys(response.capacity_details)).toEqual(['available_percentage', 'available']);
    for (const key of ['checkin', 'rsvp', 'fees', 'capacity_type', 'sku', 'totals']) expect(response).not.toHaveProperty(key);
  });

  it('adds fees on reads and the editing fields on single reads for managers', () => {
    const view = { ticket, event: { id: 10, timezone: 'UTC' }, pool: null, attendees: [], manage: true };
    const keys = (kind: 'list' | 'single' | 'write') => Object.keys(toTicketResponse(view, context, { currency, kind })).slice(-7);
    expect(keys('write')).toEqual([
      'cost',
      'cost_details',
      'sale_price_data',
      'supports_attendee_information',
      'attendees',
      'checkin',
      'rest_url',
    ]);
    expect(keys('list')).toEqual([
      'cost_details',
      'sale_price_data',
      'supports_attendee_information',
      'attendees',
      'checkin',
      'rest_url',
      'fees',
    ]);
    expect(keys('single')).toEqual([
      'fees',
      'capacity_type',
      'sku',
      'available_from_start_time',
      'available_from_end_time',
      'totals',
      'waitlist',
    ]);
    expect(toTicketResponse(view, context, { currency, kind: 'write' })).not.toHaveProperty('fees');
    expect(toTicketResponse(view, context, { currency, kind: 'single' }).totals).toEqual({ stock: 23, sold: 7, pending: 0 });
  });
});
