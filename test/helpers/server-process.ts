import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { delay, freePort } from './private-mariadb';

const ROOT = join(__dirname, '..', '..');

/** The files of `folder` and below, as paths. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** What the build reads from src/: TypeScript, and the JSON data it imports (which the build copies beside it). */
const isSource = (path: string) => path.endsWith('.ts') || path.endsWith('.json');

function newestSourceMtime(folder: string): number {
  return Math.max(
    0,
    ...filesUnder(folder)
      .filter(isSource)
      .map((path) => statSync(path).mtimeMs),
  );
}

let transpiled: string | null = null;

/** Removes the transpiled copy of src/, if one was made (call it in afterAll). */
export function removeTranspiledServer(): void {
  if (transpiled) rmSync(dirname(transpiled), { recursive: true, force: true });
  transpiled = null;
}

/**
 * The service's entry point as `npm start` runs it: dist/main.js when it was built after the last
 * change to src/ (CI builds it before the tests), else src/ transpiled file by file into a temp
 * folder (a few seconds, no type check: the build does that).
 */
export async function serverEntry(): Promise<string> {
  const built = join(ROOT, 'dist', 'main.js');
  try {
    if (statSync(built).mtimeMs > newestSourceMtime(join(ROOT, 'src'))) return built;
  } catch {
    // Not built: transpile below.
  }
  if (transpiled) return transpiled;
  const ts = await import('typescript');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json could not be read');
  const out = mkdtempSync(join(tmpdir(), 'cal-server-'));
  for (const file of config.fileNames) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { ...config.options, sourceMap: false, inlineSourceMap: false, declaration: false },
      fileName: file,
    });
    const target = join(out, relative(join(ROOT, 'src'), file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  for (const file of filesUnder(join(ROOT, 'src')).filter((path) => path.endsWith('.json'))) {
    const target = join(out, relative(join(ROOT, 'src'), file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  transpiled = join(out, 'main.js');
  return transpiled;
}

/** GET `url`: the status, or null when nothing answers. */
export function probe(url: string, timeoutMs = 2000): Promise<number | null> {
  return new Promise((resolve) => {
    const request = get(url, (response) => {
      response.resume();
      resolve(response.statusCode ?? null);
    });
    request.on('error', () => resolve(null));
    request.setTimeout(timeoutMs, () => request.destroy());
  });
}

/** The service running in a process of its own, as in production: signals, stdout and exit code are real. */
/**
 * Whether process `pid` holds the listening socket on `port`. While a new database migrates,
 * another process of the machine (a test's short-lived server on a port the system handed out
 * again) may hold the port for a moment and answer the readiness probe instead. True where `ss`
 * (iproute2) is missing.
 */
function listensOn(pid: number | undefined, port: number): boolean {
  try {
    return execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' }).includes(`pid=${pid},`);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

export class ServerProcess {
  private output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly workFolder: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Starts the service with `env` on a free port and waits until /health/ready answers 200 from it. */
  static async start(env: Record<string, string>): Promise<ServerProcess> {
    const entry = await serverEntry();
    const port = await freePort();
    // Its own working folder: no .env of a developer, and a data folder of its own.
    const workFolder = mkdtempSync(join(tmpdir(), 'cal-server-run-'));
    const child = spawn(process.execPath, [entry], {
      cwd: workFolder,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_PATH: join(ROOT, 'node_modules'),
        DATA_DIR: join(workFolder, 'data'),
        LOG_LEVEL: 'warn',
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(child, port, workFolder);
    for (let attempt = 0; attempt < 600; attempt += 1) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The service exited at start:\n${server.log()}`);
      if ((await probe(`${server.baseUrl}/health/ready`)) === 200 && listensOn(child.pid, port)) return server;
      await delay(100);
    }
    child.kill('SIGKILL');
    throw new Error(`The service did not become ready within 60 s:\n${server.log()}`);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /**
   * Whether this process still accepts connections on its port: an answer on the port, and the
   * system's word that the listener there is this process's (once it closes, the system may hand
   * the port to another process, whose answers are not this one's).
   */
  async accepting(): Promise<boolean> {
    return (await probe(`${this.baseUrl}/health/live`)) !== null && listensOn(this.child.pid, this.port);
  }

  log(): string {
    return this.output.slice(-5000);
  }

  /** SIGTERM, then the exit; a process still running after `graceMs` is killed and reported. */
  async stop(graceMs = 20_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
      rmSync(this.workFolder, { recursive: true, force: true });
    }
  }
}
