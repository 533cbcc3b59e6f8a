/** The current time, injected so that tests can move it (nonce ticks, expiries, sale windows). */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };
