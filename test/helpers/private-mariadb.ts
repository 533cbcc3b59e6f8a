import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';

const execFileAsync = promisify(execFile);

/** Where freePort looks: below the system's ephemeral range (32768 and up on Linux). */
const CHOSEN_PORTS = { from: 20_000, to: 32_000 };

/** Whether nothing listens on `port`, on any address. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * A port nothing listens on, for a server a test starts a moment later. Not one the system hands
 * out (listen on port 0, or a client's local port): those come from the ephemeral range, and a
 * port handed out once is soon handed out again, to another test's server in the gap.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = CHOSEN_PORTS.from + Math.floor(Math.random() * (CHOSEN_PORTS.to - CHOSEN_PORTS.from));
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port between ${CHOSEN_PORTS.from} and ${CHOSEN_PORTS.to}`);
}

/** The first of `names` found on PATH or in the sbin folders where distributions put the server. */
function findBinary(names: string[]): string {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'];
  for (const name of names) {
    for (const folder of folders) {
      const candidate = join(folder, name);
      if (folder && existsSync(candidate)) return candidate;
    }
  }
  throw new Error(`None of ${names.join(', ')} was found: the fault tests start a MariaDB server of their own`);
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A MariaDB server of the test's own: its own datadir under the temp folder, a free port on
 * 127.0.0.1, no grant tables (nothing but this test can reach it), so that it can be stopped and
 * started without touching the shared server on 3306.
 */
export class PrivateMariaDb {
  private server: ChildProcess | null = null;

  private constructor(
    readonly folder: string,
    readonly port: number,
    private readonly extraArguments: string[],
  ) {}

  /** Installs the system tables into a new datadir and starts the server (a few seconds). */
  static async start(extraArguments: string[] = []): Promise<PrivateMariaDb> {
    const folder = mkdtempSync(join(tmpdir(), 'cal-private-mariadb-'));
    // Temporary tables in a folder of its own: servers bootstrapped at once in one shared folder
    // (the two CI suites each start one) have failed on each other's files.
    mkdirSync(join(folder, 'tmp'));
    const install = findBinary(['mariadb-install-db', 'mysql_install_db']);
    await execFileAsync(install, [
      '--no-defaults',
      `--datadir=${join(folder, 'data')}`,
      `--tmpdir=${join(folder, 'tmp')}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      `--user=${userInfo().username}`,
    ]);
    const instance = new PrivateMariaDb(folder, await freePort(), extraArguments);
    await instance.resume();
    return instance;
  }

  url(database: string): string {
    return `mysql://root@127.0.0.1:${this.port}/${database}`;
  }

  /** Runs one statement on a connection of its own. */
  async query<T = unknown>(sql: string, values: unknown[] = []): Promise<T> {
    const connection = await createConnection({ host: '127.0.0.1', port: this.port, user: 'root' });
    try {
      const [rows] = await connection.query(sql, values);
      return rows as T;
    } finally {
      await connection.end();
    }
  }

  /** A server status counter (SHOW GLOBAL STATUS). */
  async status(name: string): Promise<number> {
    const rows = await this.query<Array<{ Value: string }>>('SHOW GLOBAL STATUS LIKE ?', [name]);
    return Number(rows[0]?.Value ?? 0);
  }

  /** Starts the server on its datadir and port, and waits until it answers. */
  async resume(): Promise<void> {
    const server = spawn(
      findBinary(['mariadbd', 'mysqld']),
      [
        '--no-defaults',
        `--datadir=${join(this.folder, 'data')}`,
        `--tmpdir=${join(this.folder, 'tmp')}`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(this.folder, 'mariadb.sock')}`,
        `--pid-file=${join(this.folder, 'mariadb.pid')}`,
        `--log-error=${join(this.folder, 'error.log')}`,
        `--user=${userInfo().username}`,
        '--skip-grant-tables',
        '--skip-name-resolve',
        '--skip-log-bin',
        '--innodb-buffer-pool-size=32M',
        '--innodb-log-file-size=16M',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_unicode_ci',
        ...this.extraArguments,
      ],
      { stdio: 'ignore' },
    );
    this.server = server;
    for (let attempt = 0; attempt < 300; attempt += 1) {
      if (server.exitCode !== null) throw new Error(`MariaDB exited at start:\n${this.errorLog()}`);
      let datadir: string;
      try {
        datadir = (await this.query<Array<{ datadir: string }>>('SELECT @@datadir AS datadir'))[0].datadir;
      } catch {
        await delay(100);
        continue;
      }
      // Another server took the port while this one was stopped (the system hands a free port out
      // again): failing here beats running the suite against someone else's data.
      if (resolve(datadir) !== resolve(this.folder, 'data'))
        throw new Error(`Port ${this.port} is held by another MariaDB server (datadir ${datadir})`);
      return;
    }
    throw new Error(`MariaDB did not answer within 30 s:\n${this.errorLog()}`);
  }

  /** Stops the server as an operator would (SIGTERM: clients are disconnected) and waits for it to exit. */
  async halt(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.halt();
    rmSync(this.folder, { recursive: true, force: true });
  }

  private errorLog(): string {
    const file = join(this.folder, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-20).join('\n') : '(no error log)';
  }
}
