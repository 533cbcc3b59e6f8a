import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RecordedExchange {
  request: { method: string; path: string; body: Record<string, unknown> | null };
  status: number;
  body: any;
}

/** A recorded request and response of the original product (test/fixtures/recorded). */
export function recordedExchange(file: string): RecordedExchange {
  return JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'recorded', file), 'utf8')) as RecordedExchange;
}
