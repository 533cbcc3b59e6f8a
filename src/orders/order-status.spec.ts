import { attendeeOrderStatus, canTransition, heldCount } from './order-status';

describe('order status rules', () => {
  it('completes only pending orders', () => {
    expect(canTransition('complete', 'pending')).toBe(true);
    for (const status of ['completed', 'cancelled', 'refunded', 'expired'] as const) expect(canTransition('complete', status)).toBe(false);
  });

  it('cancels pending and completed orders, refunds only completed ones', () => {
    expect(canTransition('cancel', 'pending')).toBe(true);
    expect(canTransition('cancel', 'completed')).toBe(true);
    expect(canTransition('cancel', 'expired')).toBe(false);
    expect(canTransition('refund', 'completed')).toBe(true);
    expect(canTransition('refund', 'pending')).toBe(false);
    expect(canTransition('refund', 'refunded')).toBe(false);
  });

  it('says which count an order holds its units in', () => {
    expect(heldCount('pending')).toBe('pending');
    expect(heldCount('completed')).toBe('sold');
    expect(heldCount('cancelled')).toBeNull();
    expect(heldCount('expired')).toBeNull();
  });

  it('gives RSVP attendees yes or no and everyone else the order status', () => {
    expect(attendeeOrderStatus('rsvp', 'completed', true)).toBe('yes');
    expect(attendeeOrderStatus('rsvp', 'completed', false)).toBe('no');
    expect(attendeeOrderStatus('rsvp', 'cancelled', true)).toBe('cancelled');
    expect(attendeeOrderStatus('tc', 'pending', null)).toBe('pending');
    expect(attendeeOrderStatus('tc', 'completed', null)).toBe('completed');
  });
});
