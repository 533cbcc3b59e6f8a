import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs the ```sh blocks of a documentation page the way test/readme-examples.e2e-spec.ts runs the
 * README's (same conventions, same prelude: `npm start`, `npm run cli`, status comments after
 * `curl` calls), for pages under docs/ whose examples need something the README's run has not,
 * such as a Stripe double.
 */

interface Block {
  line: number;
  lines: string[];
}

interface Call {
  status: number;
  args: string;
  expected?: number;
  line?: number;
}

function shellBlocks(page: string): Block[] {
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

function toScript(name: string, blocks: Block[], port: number): string {
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

function readLog(log: string): { calls: Call[]; errors: string[] } {
  const calls: Call[] = [];
  const errors: string[] = [];
  let claimable: Call | null = null;
  for (const entry of log.split('\n').filter(Boolean)) {
    const [kind, status, rest] = entry.split('\t');
    if (kind === 'call') {
      claimable = { status: Number(status), args: rest ?? '' };
      calls.push(claimable);
    } else if (kind === 'expect') {
      if (!claimable) errors.push(`line ${rest}: states status ${status}, but no curl call ran since the previous status`);
      else {
        claimable.expected = Number(status);
        claimable.line = Number(rest);
        claimable = null;
      }
    }
  }
  return { calls, errors };
}

export interface DocRun {
  /** Every curl call that answered other than its page states (or not 2xx without a statement), and run failures. */
  errors: string[];
  calls: number;
}

/**
 * Runs `pagePath`'s ```sh blocks in one bash process in `work` with `env` (PATH, HOME, PORT,
 * DATA_DIR, CAL_DIST and whatever the page needs); resolves once it exits or `deadlineMs` passes.
 */
export async function runDocExamples(pagePath: string, work: string, env: Record<string, string>, deadlineMs: number): Promise<DocRun> {
  const name = pagePath.split('/').slice(-2).join('/');
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
  const { calls, errors } = readLog(readFileSync(log, 'utf8'));
  for (const call of calls) {
    const ok = call.expected !== undefined ? call.status === call.expected : call.status >= 200 && call.status < 300;
    if (!ok) {
      const stated = call.expected !== undefined ? `${name}:${call.line} states ${call.expected}` : 'no status stated: 2xx expected';
      errors.push(`curl ${call.args}\n  answered ${call.status}; ${stated}`);
    }
  }
  if (code === 'timeout') errors.push(`the examples did not finish within ${deadlineMs / 1000} s; last output:\n${output.slice(-3000)}`);
  else if (code !== 0) errors.push(`the examples stopped with exit code ${code}; last output:\n${output.slice(-3000)}`);
  return { errors, calls: calls.length };
}
