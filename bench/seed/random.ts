import { createHash } from 'node:crypto';

/** A 32-bit integer hash of two integers (murmur3's finaliser), spreading nearby inputs apart. */
export function mix32(a: number, b: number): number {
  let hash = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  hash = Math.imul(hash ^ (hash >>> 16), 0x7feb352d);
  hash = Math.imul(hash ^ (hash >>> 15), 0x846ca68b);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** A seed given as a number or any text, as 32 bits. */
export function seedToInt(seed: number | string): number {
  if (typeof seed === 'number' && Number.isInteger(seed)) return seed >>> 0;
  return createHash('sha256').update(String(seed)).digest().readUInt32LE(0);
}

/**
 * A small deterministic generator (mulberry32). Each event gets its own, seeded from the run's
 * seed and the event's index, so that an event's data does not depend on how the run was split
 * into batches or top-ups.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static for(seed: number, stream: number, index: number): Random {
    return new Random(mix32(mix32(seed, stream), index));
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)];
  }

  /** An index in [0, count) where low indexes come up more often (popular venues, busy organizers). */
  skewedIndex(count: number, skew = 2): number {
    return Math.min(count - 1, Math.floor(count * Math.pow(this.next(), skew)));
  }

  /** A value by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, weight] of choices) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** `count` distinct indexes of [0, size). */
  distinctIndexes(count: number, size: number, skew = 1): number[] {
    const chosen = new Set<number>();
    const wanted = Math.min(count, size);
    while (chosen.size < wanted) chosen.add(skew === 1 ? Math.floor(this.next() * size) : this.skewedIndex(size, skew));
    return [...chosen];
  }
}

/** 32 hex characters derived from the seed and a label, as unguessable-looking as the service's random codes. */
export function hexToken(seed: number, label: string): string {
  return createHash('sha256').update(`cal-bench|${seed}|${label}`).digest('hex').slice(0, 32);
}

/** Text in the shape of a cart token the service issues (`<24 chars>.<24 chars>`, base64url). */
export function cartTokenLike(seed: number, label: string): string {
  const digest = createHash('sha256').update(`cal-bench-cart|${seed}|${label}`).digest('base64url');
  return `${digest.slice(0, 24)}.${digest.slice(20, 43).padEnd(24, 'A')}`;
}

/** A version 4 UUID derived from the seed and a label. */
export function uuidFrom(seed: number, label: string): string {
  const hex = createHash('sha256').update(`cal-bench-uuid|${seed}|${label}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
