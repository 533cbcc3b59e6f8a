import { ApiError } from '../common/errors/api-error';
import { resolveTimeZone } from '../common/dates/timezone';
import type { PostStatus } from '../posts/post-status';
import { parseRecurrence } from './recurrence-rule';
import {
  assertFollowsSeries,
  continueFrom,
  endBefore,
  nextFirst,
  occurrencesToRemove,
  planReschedule,
  readScope,
  ScopedRow,
  scopeReach,
  seriesMembers,
  ticketTargets,
  withExdate,
} from './series-scope';

interface RowFacts {
  status?: PostStatus;
  detached?: boolean;
  /** The event's start when it was moved off its occurrence date. */
  startLocal?: string;
  timezone?: string;
  endUtc?: string;
}

/** An occurrence of an hour, event id `id`, on its rule's date `local` (Berlin wall-clock). */
function row(id: number, local: string, facts: RowFacts = {}): ScopedRow {
  const startLocal = facts.startLocal ?? local;
  const endLocal = `${startLocal.slice(0, 11)}${String(Number(startLocal.slice(11, 13)) + 1).padStart(2, '0')}${startLocal.slice(13)}`;
  return {
    occurrence: { eventId: id, occurrenceLocal: local, detached: facts.detached ?? false },
    event: {
      id,
      status: facts.status ?? 'publish',
      startLocal,
      endLocal,
      timezone: facts.timezone ?? 'Europe/Berlin',
      endUtc: new Date(facts.endUtc ?? `${local.slice(0, 10)}T09:00:00Z`),
    },
  };
}

const ids = (rows: ScopedRow[]) => rows.map((entry) => entry.event.id);
const berlin = resolveTimeZone('Europe/Berlin')!;

describe('series scopes', () => {
  describe('readScope', () => {
    it.each([
      [undefined, undefined],
      ['', undefined],
      ['this', 'this'],
      ['following', 'following'],
      ['all', 'all'],
    ])('reads %p as %p', (raw, scope) => {
      expect(readScope(raw)).toBe(scope);
    });

    it.each([['ALL'], ['future'], [1], [['all']]])('refuses %p naming scope', (raw) => {
      expect(() => readScope(raw)).toThrow(
        expect.objectContaining({
          code: 'rest_invalid_param',
          extraData: { params: { scope: 'scope must be this, following or all' } },
        }) as ApiError,
      );
    });
  });

  describe('scopeReach', () => {
    const first = '2027-03-16 10:00:00';
    const later = '2027-03-23 10:00:00';
    it.each([
      [undefined, later, 'occurrence'],
      ['this', later, 'occurrence'],
      ['this', first, 'occurrence'],
      ['following', later, 'following'],
      // From the first occurrence on is the whole series: no split, no empty series left behind.
      ['following', first, 'series'],
      // An RDATE before the rule's start is before the first occurrence too.
      ['following', '2027-03-01 10:00:00', 'series'],
      ['all', later, 'series'],
      ['all', first, 'series'],
    ] as const)('scope %p at %s reaches %p', (scope, at, reach) => {
      expect(scopeReach(scope, at, first)).toBe(reach);
    });
  });

  describe('ticketTargets', () => {
    const rows = [
      row(1, '2027-03-02 10:00:00'),
      row(2, '2027-03-09 10:00:00'),
      row(3, '2027-03-16 10:00:00', { status: 'trash' }),
      row(4, '2027-03-23 10:00:00', { status: 'draft' }),
      row(5, '2027-03-30 10:00:00'),
    ];
    const now = new Date('2027-03-10T00:00:00Z');

    it('goes to every occurrence that has not ended and is not in the trash, drafts included', () => {
      expect(ticketTargets(rows, 5, now)).toEqual([4, 5]);
    });

    it('always goes to the occurrence it was created on, ended or trashed', () => {
      expect(ticketTargets(rows, 1, now)).toEqual([1, 4, 5]);
      expect(ticketTargets(rows, 3, now)).toEqual([3, 4, 5]);
    });

    it('counts an occurrence ending at `now` as ended', () => {
      expect(ticketTargets([row(6, '2027-03-10 10:00:00', { endUtc: '2027-03-10T00:00:00Z' })], 5, now)).toEqual([]);
    });
  });

  it('applies series-wide edits to occurrences neither detached nor trashed', () => {
    const rows = [
      row(1, '2027-03-02 10:00:00'),
      row(2, '2027-03-09 10:00:00', { detached: true }),
      row(3, '2027-03-16 10:00:00', { status: 'trash' }),
      row(4, '2027-03-23 10:00:00', { status: 'draft' }),
    ];
    expect(ids(seriesMembers(rows))).toEqual([1, 4]);
  });

  describe('assertFollowsSeries', () => {
    const refusal = (check: () => void) => {
      try {
        check();
      } catch (error) {
        return error instanceof ApiError ? { status: error.getStatus(), params: (error.extraData as { params: unknown }).params } : error;
      }
      return 'accepted';
    };

    it('accepts series-wide edits sent at an occurrence that follows the series, drafts included', () => {
      expect(refusal(() => assertFollowsSeries(row(1, '2027-03-02 10:00:00'), 'all'))).toBe('accepted');
      expect(refusal(() => assertFollowsSeries(row(1, '2027-03-02 10:00:00', { status: 'draft' }), 'following'))).toBe('accepted');
    });

    it('refuses them at a detached or trashed occurrence, which they would leave as it is (400 naming scope)', () => {
      expect(refusal(() => assertFollowsSeries(row(2, '2027-03-09 10:00:00', { detached: true }), 'all'))).toEqual({
        status: 400,
        params: {
          scope: expect.stringContaining(
            'scope=all edits the occurrences that follow the series, and this one was edited on its own (detached)',
          ) as string,
        },
      });
      expect(refusal(() => assertFollowsSeries(row(3, '2027-03-16 10:00:00', { status: 'trash' }), 'following'))).toEqual({
        status: 400,
        params: { scope: expect.stringContaining('is in the trash') as string },
      });
    });
  });

  describe('nextFirst', () => {
    it('is the earliest other occurrence not in the trash, detached or not', () => {
      const rows = [
        row(1, '2027-03-02 10:00:00'),
        row(2, '2027-03-09 10:00:00', { status: 'trash' }),
        row(3, '2027-03-16 10:00:00', { detached: true }),
        row(4, '2027-03-23 10:00:00'),
      ];
      expect(nextFirst(rows, 1)?.event.id).toBe(3);
      expect(nextFirst(rows.slice(1), 1)?.event.id).toBe(3);
    });

    it('is the earliest trashed one when only those are left, and null when none is', () => {
      const rows = [row(2, '2027-03-09 10:00:00', { status: 'trash' }), row(3, '2027-03-16 10:00:00', { status: 'trash' })];
      expect(nextFirst(rows, 1)?.event.id).toBe(2);
      expect(nextFirst([row(1, '2027-03-02 10:00:00')], 1)).toBeNull();
    });
  });

  describe('occurrencesToRemove', () => {
    const rows = [
      row(1, '2027-03-02 10:00:00'),
      row(2, '2027-03-09 10:00:00', { status: 'trash' }),
      row(3, '2027-03-16 10:00:00'),
      row(4, '2027-03-23 10:00:00', { detached: true }),
      row(5, '2027-03-30 10:00:00', { status: 'trash' }),
    ];
    it.each([
      ['following', 3, false, [3, 4]],
      ['following', 3, true, [3, 4, 5]],
      // The occurrence deleted is always among them, trashed or not.
      ['following', 2, false, [2, 3, 4]],
      ['series', 3, false, [1, 3, 4]],
      ['series', 3, true, [1, 2, 3, 4, 5]],
      ['series', 5, false, [1, 3, 4, 5]],
    ] as const)('%s from event %d, force=%p: %p', (reach, eventId, force, expected) => {
      const at = rows.find((entry) => entry.event.id === eventId)!.occurrence;
      expect(ids(occurrencesToRemove(rows, at, reach, force))).toEqual(expected);
    });
  });

  it('adds a deleted date to exdate once, in order', () => {
    expect(withExdate(['2027-03-30 10:00:00'], '2027-03-16 10:00:00')).toEqual(['2027-03-16 10:00:00', '2027-03-30 10:00:00']);
    expect(withExdate(['2027-03-16 10:00:00'], '2027-03-16 10:00:00')).toEqual(['2027-03-16 10:00:00']);
    expect(withExdate([], '2027-03-16 10:00:00')).toEqual(['2027-03-16 10:00:00']);
  });

  describe('ending and splitting a series', () => {
    const lists = {
      rdate: ['2027-03-01 10:00:00', '2027-04-01 10:00:00'],
      exdate: ['2027-03-09 10:00:00', '2027-03-23 10:00:00'],
    };

    it.each([
      ['FREQ=WEEKLY;BYDAY=TU;COUNT=10', 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270323T095959'],
      ['FREQ=WEEKLY;UNTIL=20271231T235959;INTERVAL=2', 'FREQ=WEEKLY;INTERVAL=2;UNTIL=20270323T095959'],
      ['FREQ=DAILY', 'FREQ=DAILY;UNTIL=20270323T095959'],
    ])('ends %s the second before the occurrence, with its listed dates before it', (rrule, ended) => {
      expect(endBefore({ rrule, ...lists }, '2027-03-23 10:00:00')).toEqual({
        rrule: ended,
        rdate: ['2027-03-01 10:00:00'],
        exdate: ['2027-03-09 10:00:00'],
      });
    });

    const split = (rule: string, at: string, startLocal = '2027-03-02 10:00:00') =>
      continueFrom(parseRecurrence({ rrule: rule, ...lists }, berlin, startLocal), startLocal, berlin, at);

    it('keeps the rest of a COUNT: the rule occurrences before the split count, excluded ones included, RDATEs not', () => {
      // 2, 9 (excluded), 16 March come before the 23rd: 10 - 3.
      expect(split('FREQ=WEEKLY;BYDAY=TU;COUNT=10', '2027-03-23 10:00:00')).toEqual({
        rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=7',
        rdate: ['2027-04-01 10:00:00'],
        exdate: ['2027-03-23 10:00:00'],
      });
    });

    it('keeps at least one occurrence of a COUNT, and a rule without COUNT as it is', () => {
      // Split at an RDATE after the rule's last occurrence (30 March).
      expect(split('FREQ=WEEKLY;BYDAY=TU;COUNT=5', '2027-04-01 10:00:00').rrule).toBe('FREQ=WEEKLY;BYDAY=TU;COUNT=1');
      expect(split('FREQ=WEEKLY;BYDAY=TU', '2027-03-23 10:00:00').rrule).toBe('FREQ=WEEKLY;BYDAY=TU');
    });

    it('counts in wall-clock time across a change to summer time', () => {
      // Berlin moves to summer time on 28 March 2027: 2, 9, 16, 23 March are before 30 March 10:00.
      expect(split('FREQ=WEEKLY;BYDAY=TU;COUNT=10', '2027-03-30 10:00:00').rrule).toBe('FREQ=WEEKLY;BYDAY=TU;COUNT=6');
    });
  });

  describe('planReschedule', () => {
    const weekly = [row(1, '2027-03-02 10:00:00'), row(2, '2027-03-09 10:00:00'), row(3, '2027-03-16 10:00:00')];
    const change = { editedEventId: 1, shiftSeconds: 0, durationSeconds: 3600, timezone: 'Europe/Berlin' };

    it('moves each occurrence to the start on its day after the shift, and touches all but the edited one', () => {
      const starts = ['2027-03-02 18:00:00', '2027-03-09 18:00:00', '2027-03-16 18:00:00'];
      const plan = planReschedule(weekly, { ...change, shiftSeconds: 8 * 3600, starts });
      expect(plan.moves.map(({ row, start }) => [row.event.id, start])).toEqual([
        [1, '2027-03-02 18:00:00'],
        [2, '2027-03-09 18:00:00'],
        [3, '2027-03-16 18:00:00'],
      ]);
      expect(plan.removals).toEqual([]);
      expect(ids(plan.touched)).toEqual([2, 3]);
    });

    it('deletes occurrences the new rule has no start for, and touches them after the moving ones', () => {
      const starts = ['2027-03-02 10:00:00', '2027-03-16 10:00:00', '2027-03-30 10:00:00'];
      const plan = planReschedule(weekly, { ...change, starts });
      expect(plan.moves.map(({ row }) => row.event.id)).toEqual([1, 3]);
      expect(ids(plan.removals)).toEqual([2]);
      // 3 keeps its start, end and zone: not touched.
      expect(ids(plan.touched)).toEqual([2]);
    });

    it('touches occurrences whose end or zone changes though their start does not', () => {
      const starts = weekly.map((entry) => entry.occurrence.occurrenceLocal);
      expect(ids(planReschedule(weekly, { ...change, starts, durationSeconds: 5400 }).touched)).toEqual([2, 3]);
      expect(ids(planReschedule(weekly, { ...change, starts, timezone: 'Europe/Paris' }).touched)).toEqual([2, 3]);
      expect(ids(planReschedule(weekly, { ...change, starts }).touched)).toEqual([]);
    });

    it('moves an occurrence moved on its own back onto its date, and gives a day to one occurrence only', () => {
      const rows = [row(1, '2027-03-02 10:00:00'), row(2, '2027-03-09 10:00:00', { startLocal: '2027-03-10 10:00:00' })];
      const plan = planReschedule(rows, { ...change, starts: ['2027-03-02 10:00:00', '2027-03-09 10:00:00'] });
      expect(plan.moves.map(({ row, start }) => [row.event.id, start])).toEqual([
        [1, '2027-03-02 10:00:00'],
        [2, '2027-03-09 10:00:00'],
      ]);
      expect(ids(plan.touched)).toEqual([2]);

      // Daily to weekly with a shift that lands two occurrences on one day: the first keeps it.
      const crowded = [row(1, '2027-03-02 10:00:00'), row(2, '2027-03-02 20:00:00'), row(3, '2027-03-03 10:00:00')];
      const second = planReschedule(crowded, { ...change, shiftSeconds: 3 * 3600, starts: ['2027-03-02 13:00:00', '2027-03-03 13:00:00'] });
      expect(second.moves.map(({ row }) => row.event.id)).toEqual([1, 3]);
      // 20:00 + 3 h is the 2nd at 23:00, a day already given.
      expect(ids(second.removals)).toEqual([2]);
    });

    it('lists the edited occurrence among the removals when the new rule does not keep its day', () => {
      const plan = planReschedule(weekly, { ...change, starts: ['2027-03-09 10:00:00'] });
      expect(ids(plan.removals)).toEqual([1, 3]);
      expect(ids(plan.touched)).toEqual([1, 3]);
    });
  });
});
