import { availableUnits, capacityDetails, effectiveCapacity, isAvailable } from './capacity';

describe('capacity arithmetic', () => {
  it('own: capacity minus sold and pending', () => {
    const state = { mode: 'own' as const, capacity: 30, sold: 7, pending: 0, pool: null };
    expect(capacityDetails(state)).toEqual({
      available_percentage: 76,
      available: 23,
      max: 30,
      sold: 7,
      pending: 0,
      global_stock_mode: 'own',
    });
    expect(availableUnits({ ...state, pending: 3 })).toBe(20);
  });

  it('own with nothing left is 0 % and not available', () => {
    const state = { mode: 'own' as const, capacity: 5, sold: 5, pending: 0, pool: null };
    expect(capacityDetails(state)).toMatchObject({ available: 0, available_percentage: 0 });
    expect(isAvailable(state)).toBe(false);
  });

  it('unlimited: capacity "", max 0, available -1, 100 %, stock mode ""', () => {
    const state = { mode: 'unlimited' as const, capacity: null, sold: 12, pending: 1, pool: null };
    expect(effectiveCapacity(state)).toBeUndefined();
    expect(capacityDetails(state)).toEqual({
      available_percentage: 100,
      available: -1,
      max: 0,
      sold: 12,
      pending: 1,
      global_stock_mode: '',
    });
    expect(isAvailable(state)).toBe(true);
  });

  it('capped without a cap uses the pool size; a cap larger than the pool is clamped', () => {
    const pool = { capacity: 15, sold: 0, pending: 0 };
    expect(capacityDetails({ mode: 'capped', capacity: null, sold: 0, pending: 0, pool })).toMatchObject({ max: 15, available: 15 });
    expect(capacityDetails({ mode: 'capped', capacity: 10, sold: 0, pending: 0, pool })).toMatchObject({ max: 10, available: 10 });
    expect(capacityDetails({ mode: 'capped', capacity: 40, sold: 0, pending: 0, pool })).toMatchObject({ max: 15, available: 15 });
  });

  it('capped: the smaller of what is left of the cap and of the shared pool', () => {
    // Two capped tickets share a pool of 30; the other ticket sold 25 of it.
    const pool = { capacity: 30, sold: 27, pending: 0 };
    expect(availableUnits({ mode: 'capped', capacity: 10, sold: 2, pending: 0, pool })).toBe(3);
    expect(availableUnits({ mode: 'capped', capacity: 10, sold: 9, pending: 0, pool: { capacity: 30, sold: 9, pending: 0 } })).toBe(1);
  });

  it('global: what is left of the pool', () => {
    const state = { mode: 'global' as const, capacity: null, sold: 4, pending: 2, pool: { capacity: 50, sold: 20, pending: 5 } };
    expect(capacityDetails(state)).toMatchObject({ max: 50, available: 25, available_percentage: 50, sold: 4, pending: 2 });
  });

  it('a shared ticket without a pool has nothing available', () => {
    expect(availableUnits({ mode: 'global', capacity: null, sold: 0, pending: 0, pool: null })).toBe(0);
  });
});
