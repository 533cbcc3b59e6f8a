/**
 * The load generator, run by the benchmark in a process of its own so that it does not share an
 * event loop with the runner: reads one job from the JSON file named in argv, prints one result as JSON on stdout.
 *
 * - `steady`: autocannon against one target for a duration, with a scenario's requests.
 * - `burst`: every request at once (the checkout stampede), timed from the first send to the last answer.
 * - `flash`: a flash sale (bench/flash-sale.ts): buyers who each fill their own cart and check it
 *   out, again and again, until the ticket is sold out.
 */
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import type { BenchRequest, ScenarioContext } from './scenarios';
import { SCENARIOS } from './scenarios';
import { FlashJob, runFlashSale } from './flash-buyers';
import { send } from './http-client';

export interface SteadyJob {
  kind: 'steady';
  url: string;
  scenario: string;
  context: ScenarioContext;
  connections: number;
  durationSeconds: number;
  /** A conditional scenario's ETags, by path, as this target answered them. */
  validators?: Record<string, string>;
}

export interface BurstJob {
  kind: 'burst';
  url: string;
  requests: BenchRequest[];
}

export interface SteadyResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
}

export interface BurstResult {
  elapsedMs: number;
  statuses: Record<string, number>;
  bodies: string[];
}

async function runSteady(job: SteadyJob): Promise<SteadyResult> {
  const scenario = SCENARIOS.find((candidate) => candidate.name === job.scenario);
  if (!scenario) throw new Error(`Unknown scenario ${job.scenario}`);
  let sent = 0;
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.durationSeconds,
    requests: [
      {
        setupRequest: (request) => {
          const n = sent++;
          const next = scenario.request(job.context, n);
          const headers = { ...(next.headers ?? {}) };
          const validator = scenario.conditional ? job.validators?.[next.path] : undefined;
          if (validator) headers['if-none-match'] = validator;
          return { ...request, method: next.method, path: next.path, headers, body: next.body };
        },
      },
    ],
  });
  const statuses: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (count as { count: number }).count;
  return {
    requestsPerSecond: result.requests.total / (result.duration || job.durationSeconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    // A conditional scenario's 304 is its success.
    non2xx: result.non2xx - (scenario.conditional ? (statuses['304'] ?? 0) : 0),
    statuses,
  };
}

async function runBurst(job: BurstJob): Promise<BurstResult> {
  const started = performance.now();
  const answers = await Promise.all(
    job.requests.map(async (request) => {
      try {
        const answer = await send(job.url + request.path, request);
        return { status: String(answer.status), body: answer.body };
      } catch (error) {
        return { status: 'error', body: (error as Error).message };
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const statuses: Record<string, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  return {
    elapsedMs,
    statuses,
    bodies: answers
      .filter((answer) => !answer.status.startsWith('2'))
      .slice(0, 3)
      .map((answer) => answer.body),
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2], 'utf8')) as SteadyJob | BurstJob | FlashJob;
  const result = job.kind === 'steady' ? await runSteady(job) : job.kind === 'burst' ? await runBurst(job) : await runFlashSale(job);
  process.stdout.write(JSON.stringify(result));
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
