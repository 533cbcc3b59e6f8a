import { saleProblem } from './ticket-sale';

describe('saleProblem', () => {
  const now = new Date('2027-01-10T12:00:00Z');
  const ticket = { status: 'publish', saleStartUtc: new Date('2027-01-01T00:00:00Z'), saleEndUtc: new Date('2027-01-15T00:00:00Z') };
  const plenty = { mode: 'own' as const, capacity: 10, sold: 0, pending: 0, pool: null };

  it('is null when the ticket can be bought', () => {
    expect(saleProblem(ticket, 'publish', plenty, 10, now)).toBeNull();
    expect(
      saleProblem(
        { ...ticket, saleStartUtc: null, saleEndUtc: null },
        'publish',
        { ...plenty, mode: 'unlimited', capacity: null },
        1000,
        now,
      ),
    ).toBeNull();
  });

  it('names why it cannot', () => {
    expect(saleProblem(ticket, 'trash', plenty, 1, now)).toBe('event-not-selling');
    expect(saleProblem(ticket, 'draft', plenty, 1, now)).toBe('event-not-selling');
    expect(saleProblem({ ...ticket, status: 'draft' }, 'publish', plenty, 1, now)).toBe('ticket-not-published');
    expect(saleProblem(ticket, 'publish', plenty, 1, new Date('2026-12-31T00:00:00Z'))).toBe('before-sale');
    expect(saleProblem(ticket, 'publish', plenty, 1, new Date('2027-01-16T00:00:00Z'))).toBe('after-sale');
    expect(saleProblem(ticket, 'publish', { ...plenty, sold: 8 }, 3, now)).toBe('not-enough-left');
  });
});
