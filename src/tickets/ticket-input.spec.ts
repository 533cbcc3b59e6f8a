import { ApiError } from '../common/errors/api-error';
import { parseTicketPrice, planCapacity, plainTicketText, resolveSaleBoundary } from './ticket-input';
import { resolveProvider } from './ticket-providers';

function errorOf(action: () => unknown): { code: string; params: unknown } {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, params: error.toBody().data.params };
    throw error;
  }
  throw new Error('expected an ApiError');
}

const USD = { currency: 'USD', exponent: 2, step: 1 };
const JPY = { currency: 'JPY', exponent: 0, step: 1 };
const KWD = { currency: 'KWD', exponent: 3, step: 1 };

describe('parseTicketPrice', () => {
  it.each([
    ['25', 2500],
    ['25.5', 2550],
    ['0025.50', 2550],
    ['.5', 50],
    ['7.', 700],
    ['12.500', 1250],
    [' 3 ', 300],
    ['', 0],
    ['   ', 0],
    [undefined, 0],
    [null, 0],
    [0, 0],
    [19.99, 1999],
    ['9999999999.99', 999_999_999_999],
  ])('reads %p as %p cents', (input, expected) => {
    expect(parseTicketPrice(input, USD)).toBe(expected);
  });

  it('reads prices in the currency minor units', () => {
    expect(parseTicketPrice('1500', JPY)).toBe(1500);
    expect(parseTicketPrice('1500.00', JPY)).toBe(1500);
    expect(parseTicketPrice('4.125', KWD)).toBe(4125);
  });

  it('refuses a decimal more than the currency has with 400 rest_invalid_param naming price', () => {
    for (const [input, rules] of [
      ['1500.50', JPY],
      ['25.999', USD],
      ['4.1255', KWD],
      ['10000000000', JPY],
      ['4.125', { ...KWD, step: 10 }],
    ] as const) {
      const error = errorOf(() => parseTicketPrice(input, rules));
      expect([input, error.code, Object.keys(error.params as object)]).toEqual([input, 'rest_invalid_param', ['price']]);
    }
  });

  it.each(['0,0', '-1', '-0.5', 'abc', '1e3', '1.2.3', '.', '+5', -3, Number.NaN, Number.POSITIVE_INFINITY, 1e21, {}, [], true])(
    'refuses %p with tec-tickets-rest-invalid_price',
    (input) => {
      expect(errorOf(() => parseTicketPrice(input, USD)).code).toBe('tec-tickets-rest-invalid_price');
    },
  );
});

describe('plainTicketText', () => {
  it('drops markup and keeps the text as typed, with < and > escaped so that it is safe to print as HTML', () => {
    expect(plainTicketText(' <b>Rock</b> & Roll <script>alert(1)</script>')).toBe('Rock & Roll');
    expect(plainTicketText('a < b > c "quoted" it\'s')).toBe('a &lt; b &gt; c "quoted" it\'s');
  });
});

describe('resolveSaleBoundary', () => {
  const input = (date: unknown, time: unknown) => ({ date, time, dateField: 'start_date', timeField: 'start_time' });

  it('on create: nothing or a blank date means the default; a date alone takes the fallback time', () => {
    expect(resolveSaleBoundary(input(undefined, undefined), '2026-09-10 00:00:00', false, '00:00:00')).toBe('2026-09-10 00:00:00');
    expect(resolveSaleBoundary(input('', ''), '2026-09-10 00:00:00', false, '00:00:00')).toBe('2026-09-10 00:00:00');
    expect(resolveSaleBoundary(input('2027-1-5', undefined), '2026-09-10 10:00:00', false, '23:59:59')).toBe('2027-01-05 23:59:59');
    expect(resolveSaleBoundary(input('2027-01-05', '9:05'), null, false, '00:00:00')).toBe('2027-01-05 09:05:00');
    expect(resolveSaleBoundary(input('2027-01-05 18:30', undefined), null, false, '00:00:00')).toBe('2027-01-05 18:30:00');
    expect(resolveSaleBoundary(input(undefined, '08:00:00'), '2026-09-10 00:00:00', false, '00:00:00')).toBe('2026-09-10 08:00:00');
  });

  it('on update: a blank date clears, a new date keeps the time of day, a new time keeps the date', () => {
    expect(resolveSaleBoundary(input('', '10:00:00'), '2026-11-01 08:00:00', true, '00:00:00')).toBeNull();
    expect(resolveSaleBoundary(input('2026-12-01', undefined), '2026-11-01 08:00:00', true, '00:00:00')).toBe('2026-12-01 08:00:00');
    expect(resolveSaleBoundary(input(undefined, '20:00'), '2026-11-01 08:00:00', true, '00:00:00')).toBe('2026-11-01 20:00:00');
    expect(resolveSaleBoundary(input(undefined, undefined), null, true, '00:00:00')).toBeNull();
  });

  it.each([
    [input('tomorrow', undefined), 'start_date'],
    [input('2027-02-30', undefined), 'start_date'],
    [input('2027-13-01', undefined), 'start_date'],
    [input(20270101, undefined), 'start_date'],
    [input('2027-01-01', '24:00'), 'start_time'],
    [input('2027-01-01', '10:60'), 'start_time'],
    [input('2027-01-01', 900), 'start_time'],
    [input(undefined, '10:00'), 'start_date'],
  ])('names the field of a malformed boundary %#', (boundary, field) => {
    const { code, params } = errorOf(() => resolveSaleBoundary(boundary, null, true, '00:00:00'));
    expect(code).toBe('rest_invalid_param');
    expect(Object.keys(params as object)).toEqual([field]);
  });
});

describe('planCapacity', () => {
  it('on create: a ticket needs a capacity unless unlimited; an absent mode means own', () => {
    expect(errorOf(() => planCapacity(undefined, null, false))).toEqual({
      code: 'rest_missing_callback_param',
      params: ['ticket[capacity]'],
    });
    expect(errorOf(() => planCapacity({ mode: 'own', capacity: '' }, null, false)).params).toEqual(['ticket[capacity]']);
    expect(planCapacity({ capacity: 12 }, null, false)).toEqual({ mode: 'own', capacity: 12, eventCapacity: null });
    expect(planCapacity({ mode: '' }, null, false)).toEqual({ mode: 'unlimited', capacity: null, eventCapacity: null });
    expect(planCapacity({ mode: 'unlimited', capacity: 5 }, null, false)).toEqual({
      mode: 'unlimited',
      capacity: null,
      eventCapacity: null,
    });
  });

  it('shared modes need a pool, created from event_capacity; a blank cap means the pool size', () => {
    expect(errorOf(() => planCapacity({ mode: 'capped', capacity: 5 }, null, false)).params).toEqual(['ticket[event_capacity]']);
    expect(planCapacity({ mode: 'capped', capacity: '', event_capacity: 15 }, null, false)).toEqual({
      mode: 'capped',
      capacity: null,
      eventCapacity: 15,
    });
    expect(planCapacity({ mode: 'capped', capacity: 10 }, null, true)).toEqual({ mode: 'capped', capacity: 10, eventCapacity: null });
    expect(planCapacity({ mode: 'global', capacity: 10, event_capacity: 40 }, null, true)).toEqual({
      mode: 'global',
      capacity: null,
      eventCapacity: 40,
    });
  });

  it('on update: no ticket leaves capacity alone; an absent mode or capacity keeps the current one', () => {
    const own = { mode: 'own' as const, capacity: 30 };
    expect(planCapacity(undefined, own, false)).toBeNull();
    expect(planCapacity({ capacity: 10 }, own, false)).toEqual({ mode: 'own', capacity: 10, eventCapacity: null });
    expect(planCapacity({ mode: 'own' }, own, false)).toEqual({ mode: 'own', capacity: 30, eventCapacity: null });
    expect(planCapacity({ event_capacity: 50 }, { mode: 'capped', capacity: 4 }, true)).toEqual({
      mode: 'capped',
      capacity: 4,
      eventCapacity: 50,
    });
    expect(planCapacity({ capacity: '' }, { mode: 'capped', capacity: 4 }, true)).toEqual({
      mode: 'capped',
      capacity: null,
      eventCapacity: null,
    });
    expect(errorOf(() => planCapacity({ mode: 'own' }, { mode: 'unlimited', capacity: null }, false)).params).toEqual(['ticket[capacity]']);
  });
});

describe('resolveProvider', () => {
  it.each([
    ['rsvp', 'rsvp'],
    ['Tribe__Tickets__RSVP', 'rsvp'],
    ['tc', 'tc'],
    [' TC ', 'tc'],
    ['tribe-commerce', 'tc'],
    ['tpp', 'tc'],
    ['Tribe__Tickets__Commerce__PayPal__Main', 'tc'],
    ['TEC\\Tickets\\Commerce\\Module', 'tc'],
    ['woo', null],
    ['', null],
    [42, null],
  ])('reads %p as %p', (name, provider) => {
    expect(resolveProvider(name)).toBe(provider);
  });
});
