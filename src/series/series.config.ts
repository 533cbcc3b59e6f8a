import { registerAs } from '@nestjs/config';
import { ConfigError } from '../config/app.config';

export interface SeriesConfig {
  /** How far ahead occurrences of an open-ended series exist (RECURRENCE_HORIZON_MONTHS). */
  horizonMonths: number;
  /** Whether this instance runs the horizon job (SERIES_WORKER). */
  worker: boolean;
  /** How often the job looks for series to extend (SERIES_WORKER_INTERVAL_SECONDS). */
  workerIntervalSeconds: number;
}

type Env = Record<string, string | undefined>;

function readWholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max)
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function loadSeriesConfig(env: Env): SeriesConfig {
  const rawWorker = env.SERIES_WORKER?.trim().toLowerCase();
  if (rawWorker !== undefined && rawWorker !== '' && !['true', 'false', '1', '0'].includes(rawWorker)) {
    throw new ConfigError('SERIES_WORKER', `must be true or false (got "${env.SERIES_WORKER}")`);
  }
  return {
    // 60 months holds a five-year daily series (1 827 occurrences) within the per-write cap.
    horizonMonths: readWholeNumber(env, 'RECURRENCE_HORIZON_MONTHS', 24, 1, 60),
    worker: rawWorker === undefined || rawWorker === '' || rawWorker === 'true' || rawWorker === '1',
    workerIntervalSeconds: readWholeNumber(env, 'SERIES_WORKER_INTERVAL_SECONDS', 3600, 1, 86_400),
  };
}

export const seriesConfig = registerAs('series', () => loadSeriesConfig(process.env));
