import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/**
 * The service build measured: this checkout's dist/, or BENCH_SERVICE_DIST, the dist/ of another
 * checkout (built there, with its node_modules), to measure an earlier build with this harness.
 */
const SERVICE_DIST = process.env.BENCH_SERVICE_DIST ?? join(ROOT, 'dist');

/** The commit a service build was built from (its checkout's HEAD), with `+` when that checkout has changes. */
export function serviceBuild(dist = SERVICE_DIST): string {
  try {
    const folder = join(dist, '..');
    const commit = execFileSync('git', ['-C', folder, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const changed =
      execFileSync('git', ['-C', folder, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return `${commit}${changed ? '+' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** A server under test, in a process of its own. */
export interface Target {
  /** `baseline`: another build of the service beside it (run.ts --baseline), for an A/B in one run. */
  name: 'service' | 'baseline' | 'floor' | 'framework' | 'sale-floor';
  url: string;
  process: ChildProcess;
  /** Peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

export interface TargetSettings {
  databaseUrl: string;
  poolSize: number;
  nonceSecret: string;
  logLevel: string;
  /** More settings of the service's environment (bench/onsale.ts: TRUST_PROXY, the queue's limits). */
  extraEnv?: Record<string, string>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resident memory now (VmRSS), in MB (0 when the process is gone). */
export function readRssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped: the peak of a span (VmHWM is the peak of the process's life). */
export function sampleRss(pid: number | undefined, intervalMs = 200): { stop(): number } {
  let peak = readRssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, readRssMb(pid))), intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, readRssMb(pid));
    },
  };
}

function readPeakRssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string, timeoutSeconds: number): Promise<void> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  while (Date.now() < deadline) {
    // A process killed by a signal (V8 aborting at its heap limit, the OOM killer) has no exit code.
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${url} exited with ${child.exitCode ?? child.signalCode}:\n${output()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutSeconds} s:\n${output()}`);
}

async function startProcess(
  name: Target['name'],
  args: string[],
  env: NodeJS.ProcessEnv,
  readyPath: string,
  timeoutSeconds = 120,
  log?: (line: string) => void,
): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    // The floor's progress lines while it reads its documents.
    if (log) for (const line of text.split('\n')) if (line.startsWith('floor documents:')) log(line);
    errors = (errors + text).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url + readyPath, child, () => errors, timeoutSeconds);
  return {
    name,
    url,
    process: child,
    peakRssMb: () => readPeakRssMb(child.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/**
 * The V8 flags `npm start` gives the service (package.json), `${NAME:-default}` read from the
 * environment as the shell would: the benchmarks measure the service as it is run.
 */
export function npmStartFlags(): string[] {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
  return start
    .split(/\s+/)
    .filter((word) => word.startsWith('--'))
    .map((flag) => flag.replace(/\$\{(\w+):-([^}]*)\}/g, (_match, name: string, fallback: string) => process.env[name] || fallback));
}

/**
 * The service as `npm start` runs it (dist/main.js with its V8 flags, production mode, its default
 * logging to stdout, discarded here) with request limits off: the benchmark is one client sending
 * far more than any one client may. BENCH_SERVICE_NODE_FLAGS adds flags to the service's node
 * alone, e.g. `--cpu-prof --cpu-prof-dir=…` (which NODE_OPTIONS may not carry). BENCH_SERVICE_DIST
 * runs another build (see SERVICE_DIST); `baseline` names the dist/ of a build started beside it.
 */
export function startService(settings: TargetSettings, baseline?: { dist: string }): Promise<Target> {
  const extraFlags = (process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter((flag) => flag !== '');
  return startProcess(
    baseline ? 'baseline' : 'service',
    [...npmStartFlags(), ...extraFlags, join(baseline?.dist ?? SERVICE_DIST, 'main.js')],
    {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: settings.databaseUrl,
      DATABASE_POOL_SIZE: String(settings.poolSize),
      NONCE_SECRET: settings.nonceSecret,
      LOG_LEVEL: settings.logLevel,
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '0',
      DATA_DIR: join(ROOT, 'data', 'bench'),
      ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
      ...settings.extraEnv,
    },
    '/health/live',
  );
}

/**
 * The floor (bench/floor/server.ts) on the same database and pool size, and in its process the
 * framework floor (bench/floor/framework.ts) on a port of its own: it builds its tables and reads
 * the plan's documents from the running service before it answers (minutes at a million events).
 */
export async function startFloor(
  settings: TargetSettings,
  serviceUrl: string,
  planFile: string,
  log?: (line: string) => void,
): Promise<{ floor: Target; framework: Target }> {
  const frameworkPort = await freePort();
  const floor = await startProcess(
    'floor',
    ['-r', 'ts-node/register/transpile-only', join(ROOT, 'bench', 'floor', 'server.ts')],
    {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
      DATABASE_URL: settings.databaseUrl,
      DATABASE_POOL_SIZE: String(settings.poolSize),
      SERVICE_URL: serviceUrl,
      FLOOR_PLAN: planFile,
      FRAMEWORK_PORT: String(frameworkPort),
      ...(process.env.FLOOR_DOCUMENT_CACHE_MB ? { FLOOR_DOCUMENT_CACHE_MB: process.env.FLOOR_DOCUMENT_CACHE_MB } : {}),
    },
    '/floor/ready',
    3600,
    log,
  );
  const framework: Target = {
    name: 'framework',
    url: `http://127.0.0.1:${frameworkPort}`,
    process: floor.process,
    peakRssMb: () => floor.peakRssMb(),
    // The floor's process: stopped with the floor.
    stop: () => Promise.resolve(),
  };
  return { floor, framework };
}

/**
 * The sale floor (bench/floor/sale.ts) on the same database and pool size as the service, in a
 * process of its own: it reads nothing at start-up.
 */
export function startSaleFloor(settings: TargetSettings): Promise<Target> {
  return startProcess(
    'sale-floor',
    ['-r', 'ts-node/register/transpile-only', join(ROOT, 'bench', 'floor', 'sale.ts')],
    {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
      DATABASE_URL: settings.databaseUrl,
      DATABASE_POOL_SIZE: String(settings.poolSize),
    },
    '/floor/ready',
  );
}

/** Runs bench/load.ts in a process of its own with one job; its JSON answer. */
export function runLoad<T>(jobFile: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(ROOT, 'bench', 'load.ts'), jobFile], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load process exited with ${code}: ${errors}`));
      try {
        resolve(JSON.parse(output) as T);
      } catch {
        reject(new Error(`load process printed no JSON: ${output.slice(0, 500)} ${errors}`));
      }
    });
  });
}

/**
 * Stores every event's document (`npm run cli -- documents:store`), as a deployment does once after
 * an import: a miss of the service's memory is then one read of a stored string, which is what the
 * scenarios measure, rather than a build from rows of a document nobody has asked for yet.
 */
export async function storeEventDocuments(settings: TargetSettings, log: (line: string) => void): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'documents:store'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: settings.databaseUrl, NONCE_SECRET: settings.nonceSecret, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let lines = 0;
  let last = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      last = line;
      // One progress line in 20 (a line per batch of 500 documents).
      if ((lines += 1) % 20 === 0) log(line);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`documents:store exited with ${code}: ${last}`);
  log(last);
}
