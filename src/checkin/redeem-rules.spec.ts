import {
  annulRefusal,
  annulScan,
  applyScan,
  attendeeRefusal,
  decideScan,
  entryRefusal,
  ListRules,
  listRefusal,
  REDEEM_REASONS,
  refusalNamesAttendee,
  revokesCheckinSecret,
  scanRequestDigest,
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

  it('names the attendee in every refusal that found one: not for invalid (nobody) nor ambiguous (the lists)', () => {
    const naming = REDEEM_REASONS.filter(refusalNamesAttendee);
    expect(naming.sort()).toEqual(['already_redeemed', 'blocked', 'canceled', 'invalid_time', 'product', 'revoked', 'unpaid']);
    expect(refusalNamesAttendee('invalid')).toBe(false);
    expect(refusalNamesAttendee('ambiguous')).toBe(false);
  });

  describe('the request a nonce is bound to', () => {
    const scan = { secret: 'A1', listIds: [3, 2], type: 'entry' as const, at: null, force: false };

    it('is the same for the same scan however it was written', () => {
      expect(scanRequestDigest(scan)).toMatch(/^[0-9a-f]{64}$/);
      expect(scanRequestDigest({ ...scan, listIds: [2, 3, 3] })).toBe(scanRequestDigest(scan));
      const at = new Date('2027-05-01T10:00:00Z');
      expect(scanRequestDigest({ ...scan, at: new Date('2027-05-01T12:00:00+02:00') })).toBe(scanRequestDigest({ ...scan, at }));
    });

    it('differs when the secret, lists, type, time or force differ', () => {
      const variants = [
        { ...scan, secret: 'B2' },
        { ...scan, listIds: [2] },
        { ...scan, type: 'exit' as const },
        { ...scan, at: new Date('2027-05-01T10:00:00Z') },
        { ...scan, force: true },
      ];
      const digests = new Set([scan, ...variants].map(scanRequestDigest));
      expect(digests.size).toBe(variants.length + 1);
    });
  });

  describe('annulments', () => {
    const now = new Date('2027-05-01T10:15:00Z');
    const scan = {
      successful: true,
      redeemed: true,
      annulledAt: null,
      deviceId: 7,
      createdAt: new Date('2027-05-01T10:00:00Z'),
    };
    const device = { deviceId: 7, mayUseList: true };
    const staff = { deviceId: null, mayUseList: true };

    it('lets the device that scanned, and door staff or managers of the list, annul a scan within the minutes', () => {
      expect(annulRefusal(scan, device, now, 15)).toBeNull();
      expect(annulRefusal(scan, staff, now, 15)).toBeNull();
      expect(annulRefusal({ ...scan, deviceId: null }, staff, now, 15)).toBeNull();
    });

    it("refuses another device's scan and a caller of other lists first, whatever the scan's state", () => {
      expect(annulRefusal(scan, { deviceId: 8, mayUseList: true }, now, 15)).toBe('forbidden');
      expect(annulRefusal({ ...scan, deviceId: null }, device, now, 15)).toBe('forbidden');
      expect(annulRefusal({ ...scan, annulledAt: now, successful: false }, { deviceId: null, mayUseList: false }, now, 15)).toBe(
        'forbidden',
      );
      expect(annulRefusal(scan, { deviceId: 7, mayUseList: false }, now, 15)).toBe('forbidden');
    });

    it('refuses refused scans and the check_in flag’s records, an annulled scan, and a late annulment', () => {
      expect(annulRefusal({ ...scan, successful: false }, device, now, 15)).toBe('not_annullable');
      expect(annulRefusal({ ...scan, redeemed: false }, staff, now, 15)).toBe('not_annullable');
      expect(annulRefusal({ ...scan, annulledAt: now }, device, now, 15)).toBe('already_annulled');
      expect(annulRefusal(scan, device, new Date('2027-05-01T10:15:00.001Z'), 15)).toBe('expired');
      expect(annulRefusal(scan, device, new Date('2027-05-01T10:04:00Z'), 5)).toBeNull();
    });

    it('takes one entry or exit back; inside as the newest scan that still counts left it', () => {
      expect(annulScan({ entries: 1, exits: 0, inside: true }, 'entry', null)).toEqual({ entries: 0, exits: 0, inside: false });
      expect(annulScan({ entries: 2, exits: 0, inside: true }, 'entry', 'entry')).toEqual({ entries: 1, exits: 0, inside: true });
      expect(annulScan({ entries: 2, exits: 1, inside: true }, 'entry', 'exit')).toEqual({ entries: 1, exits: 1, inside: false });
      expect(annulScan({ entries: 1, exits: 1, inside: false }, 'exit', 'entry')).toEqual({ entries: 1, exits: 0, inside: true });
      expect(annulScan({ entries: 0, exits: 1, inside: false }, 'entry', 'exit')).toEqual({ entries: 0, exits: 1, inside: false });
    });
  });
});
