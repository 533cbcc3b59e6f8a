import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort } from './private-mariadb';
import { serverEntry } from './server-process';

/**
 * Runs the ```sh blocks of a documentation page (README.md, docs/*.md): the one runner of
 * test/readme-examples.e2e-spec.ts, test/payments-docs.e2e-spec.ts and test/docs-examples.e2e-spec.ts.
 * The conventions the pages follow are described in test/readme-examples.e2e-spec.ts's header;
 * test/helpers/readme-prelude.sh goes before the blocks (`npm start`, `npm run cli`, `curl` logging
 * its status).
 */

const ROOT = join(__dirname, '..', '..');

export interface Block {
  /** Line of the page where the block's first line is. */
  line: number;
  lines: string[];
}

interface Call {
  status: number;
  args: string;
  expected?: number;
  line?: number;
}

/** The page's ```sh blocks, in order. */
export function shellBlocks(page: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  let inFence = false;
  page.split('\n').forEach((text, index) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (fence && !inFence) {
      inFence = true;
      if (fence[1] === 'sh') current = { line: index + 2, lines: [] };
    } else if (fence && fence[1] === '') {
      inFence = false;
      if (current) blocks.push(current);
      current = null;
    } else {
      current?.lines.push(text);
    }
  });
  return blocks;
}

const STATUS_LINE = /^\s*#\s*([1-5]\d\d)(?!\d)/;
const STATUS_TRAILING = /^(.*\S)\s+#\s*([1-5]\d\d)(?!\d)/;

/** The blocks as one bash script: the port substituted, status comments turned into `__expect` calls. */
export function toScript(name: string, blocks: Block[], port: number): string {
  const out: string[] = [];
  for (const block of blocks) {
    out.push(`# ${name} line ${block.line}`);
    block.lines.forEach((raw, offset) => {
      const line = raw.replaceAll('localhost:3000', `localhost:${port}`);
      const where = block.line + offset;
      const own = STATUS_LINE.exec(line);
      const trailing = own ? null : STATUS_TRAILING.exec(line);
      if (own) out.push(`__expect ${own[1]} ${where}`);
      else if (trailing) out.push(line, `__expect ${trailing[2]} ${where}`);
      else out.push(line);
    });
  }
  return out.join('\n') + '\n';
}

/** The calls of the run, each with the status its page comment states; errors for stray comments. */
function readLog(name: string, log: string): { calls: Call[]; errors: string[] } {
  const calls: Call[] = [];
  const errors: string[] = [];
  let claimable: Call | null = null;
  for (const entry of log.split('\n').filter(Boolean)) {
    const [kind, status, rest] = entry.split('\t');
    if (kind === 'call') {
      claimable = { status: Number(status), args: rest ?? '' };
      calls.push(claimable);
    } else if (kind === 'expect') {
      if (!claimable) errors.push(`${name}:${rest}: states status ${status}, but no curl call ran since the previous status`);
      else {
        claimable.expected = Number(status);
        claimable.line = Number(rest);
        claimable = null;
      }
    }
  }
  return { calls, errors };
}

/** Fails with a clear message when `curl` or `jq` is missing. */
export function requireExampleTools(): void {
  for (const tool of ['curl', 'jq']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`the documentation examples need ${tool} on the machine (Debian package "${tool}")`);
    }
  }
}

/**
 * The environment of a page's run in `work`: a free port, the SQLite file under `work/data`, the
 * server under test (`CAL_DIST`), and `extra` on top.
 */
export async function exampleEnv(work: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    NODE_PATH: join(ROOT, 'node_modules'),
    DATA_DIR: join(work, 'data'),
    PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    CAL_DIST: dirname(await serverEntry()),
    ...extra,
  };
}

/**
 * With TEST_DATABASE_URL set: a new database `<its name>_<suffix>` on that server (dropped first if
 * a previous run left it), its URL for DATABASE_URL, and a function that drops it. Null otherwise.
 */
export async function exampleDatabase(suffix: string): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) return null;
  const url = new URL(databaseUrl);
  const name = `${url.pathname.replace(/^\//, '') || 'cal'}_${suffix}`;
  const connection = await createConnection({ uri: databaseUrl });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropping = await createConnection({ uri: databaseUrl });
      try {
        await dropping.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await dropping.end();
      }
    },
  };
}

export interface DocRun {
  /** Every curl call that answered other than its page states (or not 2xx without a statement), and run failures. */
  errors: string[];
  /** How many curl calls ran. */
  calls: number;
  /** How many ```sh blocks the page has. */
  blocks: number;
  /** What the run printed (stdout and stderr). */
  output: string;
}

/**
 * Runs `pagePath`'s ```sh blocks in one bash process in `work` with `env` (PATH, HOME, PORT,
 * DATA_DIR, CAL_DIST and whatever the page needs); resolves once it exits or `deadlineMs` passes
 * (then the run, with the server it started, is killed).
 */
export async function runDocExamples(pagePath: string, work: string, env: Record<string, string>, deadlineMs: number): Promise<DocRun> {
  const name = relative(ROOT, pagePath);
  const blocks = shellBlocks(readFileSync(pagePath, 'utf8'));
  const log = join(work, 'examples.log');
  writeFileSync(log, '');
  writeFileSync(
    join(work, 'examples.sh'),
    readFileSync(join(__dirname, 'readme-prelude.sh'), 'utf8') + toScript(name, blocks, Number(env.PORT)),
  );
  const child = spawn('bash', ['--noprofile', '--norc', join(work, 'examples.sh')], {
    cwd: work,
    env: { ...env, README_LOG: log },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A deadline of its own, below Jest's, so that a stuck example is reported with the output so far.
  let timer: NodeJS.Timeout | undefined;
  const code = await new Promise<number | null | 'timeout'>((resolve) => {
    child.once('exit', (exitCode) => resolve(exitCode));
    timer = setTimeout(() => resolve('timeout'), deadlineMs);
  });
  clearTimeout(timer);
  if (code === 'timeout' && child.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  const { calls, errors } = readLog(name, readFileSync(log, 'utf8'));
  for (const call of calls) {
    const ok = call.expected !== undefined ? call.status === call.expected : call.status >= 200 && call.status < 300;
    if (!ok) {
      const stated = call.expected !== undefined ? `${name}:${call.line} states ${call.expected}` : 'no status stated: 2xx expected';
      errors.push(`curl ${call.args}\n  answered ${call.status}; ${stated}`);
    }
  }
  if (code === 'timeout') errors.push(`the examples did not finish within ${deadlineMs / 1000} s; last output:\n${output.slice(-3000)}`);
  else if (code !== 0) errors.push(`the examples stopped with exit code ${code}; last output:\n${output.slice(-3000)}`);
  if (code !== 0 && existsSync(join(work, 'server.log'))) {
    errors.push(`the server's log (last lines):\n${readFileSync(join(work, 'server.log'), 'utf8').slice(-3000)}`);
  }
  return { errors, calls: calls.length, blocks: blocks.length, output };
}

/**
 * The examples run as the docs say a reader runs them: `npm start` on its default database, SQLite.
 * A MariaDB suite run leaves them to the SQLite one (DOC_EXAMPLES=1 runs them on MariaDB too, on a new
 * database of their own); every route they call is tested on both databases by its own spec.
 */
export const describeDocExamples: jest.Describe =
  !process.env.TEST_DATABASE_URL || process.env.DOC_EXAMPLES === '1' ? describe : describe.skip;
