import {
  applyScan,
  attendeeRefusal,
  decideScan,
  entryRefusal,
  ListRules,
  listRefusal,
  revokesCheckinSecret,
  scanWindow,
} from './redeem-rules';

const valid = { ticketId: 1, orderStatus: 'completed', blocked: false, revoked: false };
const open: ListRules = {
  id: 10,
  ticketIds: [],
  includePending: false,
  allowMultipleEntries: false,
  allowEntryAfterExit: true,
  window: { from: new Date('2027-05-01T00:00:00Z'), until: new Date('2027-05-01T23:59:59Z') },
};
const at = new Date('2027-05-01T12:00:00Z');

describe('redeem rules', () => {
  it('revokes secrets when the order is cancelled, refunded or expired', () => {
    expect(['cancelled', 'refunded', 'expired'].map(revokesCheckinSecret)).toEqual([true, true, true]);
    expect(['completed', 'pending', 'yes', 'no'].map(revokesCheckinSecret)).toEqual([false, false, false, false]);
  });

  it('refuses the attendee for the order, the secret and a block, in that order', () => {
    expect(attendeeRefusal(valid)).toBeNull();
    expect(attendeeRefusal({ ...valid, orderStatus: 'refunded', revoked: true, blocked: true })).toBe('canceled');
    expect(attendeeRefusal({ ...valid, orderStatus: 'no' })).toBe('canceled');
    expect(attendeeRefusal({ ...valid, revoked: true, blocked: true })).toBe('revoked');
    expect(attendeeRefusal({ ...valid, blocked: true })).toBe('blocked');
  });

  it('refuses on a list for the ticket, an unpaid order and the time of an entry', () => {
    expect(listRefusal(valid, { ...open, ticketIds: [2] }, 'entry', at)).toBe('product');
    expect(listRefusal({ ...valid, orderStatus: 'pending' }, open, 'entry', at)).toBe('unpaid');
    expect(listRefusal({ ...valid, orderStatus: 'pending' }, { ...open, includePending: true }, 'entry', at)).toBeNull();
    expect(listRefusal(valid, open, 'entry', new Date('2027-05-02T00:00:00Z'))).toBe('invalid_time');
    expect(listRefusal(valid, open, 'exit', new Date('2027-05-02T00:00:00Z'))).toBeNull();
    expect(listRefusal({ ...valid, orderStatus: 'yes' }, { ...open, window: { from: null, until: null } }, 'entry', at)).toBeNull();
  });

  it('allows another entry by the list’s flags', () => {
    expect(entryRefusal(open, undefined)).toBeNull();
    expect(entryRefusal(open, { entries: 1, exits: 0, inside: true })).toBe('already_redeemed');
    expect(entryRefusal(open, { entries: 1, exits: 1, inside: false })).toBeNull();
    expect(entryRefusal({ ...open, allowEntryAfterExit: false }, { entries: 1, exits: 1, inside: false })).toBe('already_redeemed');
    expect(entryRefusal({ ...open, allowMultipleEntries: true }, { entries: 5, exits: 0, inside: true })).toBeNull();
  });

  it('decides on the one list that admits the ticket, ambiguous on several, the strongest refusal on none', () => {
    const vip = { ...open, id: 11, ticketIds: [2] };
    expect(decideScan(valid, [vip, open], new Map(), 'entry', at)).toEqual({ list: open, reason: null });
    expect(decideScan(valid, [open, { ...open, id: 12 }], new Map(), 'entry', at)).toMatchObject({ reason: 'ambiguous' });
    const late = new Date('2027-06-01T00:00:00Z');
    expect(decideScan(valid, [vip, open], new Map(), 'entry', late)).toEqual({ list: open, reason: 'invalid_time' });
    expect(decideScan(valid, [vip], new Map(), 'entry', at)).toEqual({ list: vip, reason: 'product' });
    expect(decideScan(valid, [open], new Map([[open.id, { entries: 1, exits: 0, inside: true }]]), 'entry', at)).toMatchObject({
      reason: 'already_redeemed',
    });
    expect(decideScan(valid, [open], new Map([[open.id, { entries: 1, exits: 0, inside: true }]]), 'exit', at)).toMatchObject({
      reason: null,
    });
  });

  it('counts entries and exits', () => {
    expect(applyScan(undefined, 'entry')).toEqual({ entries: 1, exits: 0, inside: true });
    expect(applyScan({ entries: 1, exits: 0, inside: true }, 'exit')).toEqual({ entries: 1, exits: 1, inside: false });
  });

  it('takes the list’s window, else the event’s days in its time zone', () => {
    const event = { startLocal: '2027-05-01 20:00:00', endLocal: '2027-05-02 02:00:00', timezone: 'Europe/Berlin' };
    expect(scanWindow({ startsAt: null, endsAt: null }, event)).toEqual({
      from: new Date('2027-04-30T22:00:00.000Z'),
      until: new Date('2027-05-02T21:59:59.999Z'),
    });
    const from = new Date('2027-05-01T18:00:00Z');
    expect(scanWindow({ startsAt: from, endsAt: null }, event)).toEqual({ from, until: null });
  });
});
