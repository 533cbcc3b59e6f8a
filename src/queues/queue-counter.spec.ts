import { ConflictLost } from '../common/database/transactions';
import { advanceCounter, CounterState, lostRound } from './queue-counter';

const T0 = new Date('2026-06-01T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const base = (changes: Partial<CounterState> = {}): CounterState => ({
  servingCounter: 0,
  lastPosition: 1000,
  counterAt: T0,
  ratePerMinute: 600,
  maxActive: 100,
  active: 0,
  now: at(1000),
  ...changes,
});

describe('advanceCounter', () => {
  it('admits rate × Δt: 600 a minute over one second is 10', () => {
    expect(advanceCounter(base())).toEqual({ servingCounter: 10, counterAt: at(1000), admitted: 10 });
  });

  it('keeps the fraction on the clock: 90 a minute over one second admits 1 and counts 666 ms', () => {
    const advance = advanceCounter(base({ ratePerMinute: 90 }));
    expect(advance.admitted).toBe(1);
    expect(advance.counterAt).toEqual(at(666));
    // The next second admits the carried half with its own.
    expect(advanceCounter(base({ ratePerMinute: 90, servingCounter: 1, counterAt: advance.counterAt, now: at(2000) })).admitted).toBe(2);
  });

  it('never lets more than max_active be active', () => {
    expect(advanceCounter(base({ active: 95 })).admitted).toBe(5);
    expect(advanceCounter(base({ active: 100 })).admitted).toBe(0);
    expect(advanceCounter(base({ active: 120 })).admitted).toBe(0);
  });

  it('never passes the last position', () => {
    expect(advanceCounter(base({ servingCounter: 996 }))).toMatchObject({ servingCounter: 1000, admitted: 4 });
  });

  it('gives no burst after a pause: at most five seconds count', () => {
    expect(advanceCounter(base({ now: at(60_000) })).admitted).toBe(50);
  });

  it('catches the clock up when room ran out, so credit does not pile up', () => {
    expect(advanceCounter(base({ active: 99, now: at(3000) })).counterAt).toEqual(at(3000));
  });

  it('in auto mode fills the room max_active leaves', () => {
    expect(advanceCounter(base({ ratePerMinute: null, active: 40 })).admitted).toBe(60);
  });

  it('starts the clock on the first tick without admitting', () => {
    expect(advanceCounter(base({ counterAt: null }))).toEqual({ servingCounter: 0, counterAt: at(1000), admitted: 0 });
  });
});

describe('lostRound', () => {
  it("reads a round that gave way at a lock conflict (another instance's round won) as one that admitted nobody", async () => {
    const deadlock = Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' });
    await expect(Promise.reject(new ConflictLost(deadlock)).catch(lostRound([]))).resolves.toEqual([]);
    await expect(Promise.reject(new ConflictLost(deadlock)).catch(lostRound(0))).resolves.toBe(0);
  });

  it('passes any other failure on, a conflict that was not given way on included', async () => {
    const deadlock = Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' });
    await expect(Promise.reject(deadlock).catch(lostRound([]))).rejects.toBe(deadlock);
    await expect(Promise.reject(new Error('boom')).catch(lostRound([]))).rejects.toThrow('boom');
  });
});
