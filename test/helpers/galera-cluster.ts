import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { delay, freePort } from './private-mariadb';

const execFileAsync = promisify(execFile);

const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';

/**
 * The account the nodes run as: `mysql` when the tests run as root (the rsync state transfer
 * drops root and could not write a root-owned datadir), else the tests' own user.
 */
function serverUser(): string {
  return userInfo().uid === 0 ? 'mysql' : userInfo().username;
}

interface NodePorts {
  sql: number;
  galera: number;
  ist: number;
  sst: number;
}

/**
 * One node of the test cluster: its own data directory under the cluster's temp folder and its
 * own SQL, Galera, IST and SST ports on 127.0.0.1. Never the machine's server on 3306.
 */
export class GaleraNode {
  private server: ChildProcess | null = null;

  constructor(
    readonly index: number,
    readonly folder: string,
    readonly ports: NodePorts,
    private readonly clusterName: string,
    private readonly peers: () => NodePorts[],
  ) {}

  get dataDir(): string {
    return join(this.folder, `data-${this.index}`);
  }

  /**
   * Temporary tables in a folder of the node's own: with the default (/tmp) a starting node removes
   * the `#sql…` files it finds there, among them those of the machine's shared server, whose running
   * statements then fail ("Error on delete of '/tmp/#sql-temptable-…'").
   */
  get tmpDir(): string {
    return join(this.folder, `tmp-${this.index}`);
  }

  url(database: string): string {
    return `mysql://root@127.0.0.1:${this.ports.sql}/${database}`;
  }

  get running(): boolean {
    return this.server !== null && this.server.exitCode === null && this.server.signalCode === null;
  }

  async install(): Promise<void> {
    mkdirSync(this.tmpDir);
    // mariadb-install-db runs as the server's user, who must write there already.
    await execFileAsync('chown', [`${serverUser()}:`, this.tmpDir]);
    await execFileAsync('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${this.dataDir}`,
      `--tmpdir=${this.tmpDir}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      `--user=${serverUser()}`,
    ]);
    await execFileAsync('chown', ['-R', `${serverUser()}:`, this.folder]);
  }

  /** Starts mariadbd (bootstrapping a new cluster when `bootstrap`) and waits until it is synced. */
  async start(bootstrap = false): Promise<void> {
    const addresses = this.peers()
      .map((peer) => `127.0.0.1:${peer.galera}`)
      .join(',');
    const server = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--user=${serverUser()}`,
        `--datadir=${this.dataDir}`,
        `--tmpdir=${this.tmpDir}`,
        `--port=${this.ports.sql}`,
        `--socket=${join(this.folder, `s-${this.index}.sock`)}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${join(this.folder, `p-${this.index}.pid`)}`,
        `--log-error=${join(this.folder, `error-${this.index}.log`)}`,
        '--skip-grant-tables',
        '--skip-name-resolve',
        '--binlog_format=ROW',
        '--default_storage_engine=InnoDB',
        '--innodb_autoinc_lock_mode=2',
        '--innodb-buffer-pool-size=64M',
        '--innodb-log-file-size=16M',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_unicode_ci',
        '--wsrep_on=ON',
        `--wsrep_provider=${GALERA_PROVIDER}`,
        `--wsrep_cluster_name=${this.clusterName}`,
        `--wsrep_cluster_address=gcomm://${addresses}`,
        `--wsrep_node_address=127.0.0.1:${this.ports.galera}`,
        `--wsrep_provider_options=gmcast.listen_addr=tcp://127.0.0.1:${this.ports.galera};ist.recv_addr=127.0.0.1:${this.ports.ist}`,
        '--wsrep_sst_method=rsync',
        `--wsrep_sst_receive_address=127.0.0.1:${this.ports.sst}`,
        `--wsrep_node_name=n${this.index}`,
        ...(bootstrap ? ['--wsrep-new-cluster'] : []),
      ],
      { stdio: 'ignore' },
    );
    this.server = server;
    for (let attempt = 0; attempt < 1200; attempt += 1) {
      if (server.exitCode !== null) throw new Error(`Galera node ${this.index} exited at start:\n${this.errorLog()}`);
      try {
        const rows = await this.query<Array<{ Value: string }>>("SHOW STATUS LIKE 'wsrep_local_state_comment'");
        if (rows[0]?.Value === 'Synced') return;
      } catch {
        // Not answering yet (or still receiving its state transfer).
      }
      await delay(100);
    }
    throw new Error(`Galera node ${this.index} did not sync within 120 s:\n${this.errorLog()}`);
  }

  /** Stops the node as an operator would (SIGTERM to its pid) and waits for it to exit. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  }

  async query<T = unknown>(sql: string, values: unknown[] = []): Promise<T> {
    const connection = await createConnection({ host: '127.0.0.1', port: this.ports.sql, user: 'root', connectTimeout: 2000 });
    try {
      const [rows] = await connection.query(sql, values);
      return rows as T;
    } finally {
      await connection.end();
    }
  }

  async status(name: string): Promise<string | undefined> {
    const rows = await this.query<Array<{ Value: string }>>('SHOW STATUS LIKE ?', [name]);
    return rows[0]?.Value;
  }

  errorLog(): string {
    const file = join(this.folder, `error-${this.index}.log`);
    if (!existsSync(file)) return '(no error log)';
    const lines = readFileSync(file, 'utf8').split('\n');
    // The state-transfer script's own lines say why a join failed; then the last lines.
    return [...lines.filter((line) => line.includes('WSREP_SST') || line.includes('[ERROR]')).slice(-15), '…', ...lines.slice(-15)].join(
      '\n',
    );
  }
}

/**
 * A three-node MariaDB Galera cluster on loopback for the tests: data directories in a temp
 * folder, free ports, the first node bootstrapping the cluster and the others joining it by state
 * transfer (rsync). About 10–30 s to start on two busy cores.
 */
export class GaleraCluster {
  private constructor(
    readonly folder: string,
    readonly nodes: GaleraNode[],
  ) {}

  static async start(size = 3): Promise<GaleraCluster> {
    const folder = mkdtempSync(join(tmpdir(), 'cal-galera-'));
    chmodSync(folder, 0o755);
    const ports: NodePorts[] = [];
    const taken = new Set<number>();
    const port = async () => {
      for (;;) {
        const candidate = await freePort();
        if (!taken.has(candidate)) {
          taken.add(candidate);
          return candidate;
        }
      }
    };
    for (let index = 0; index < size; index += 1)
      ports.push({ sql: await port(), galera: await port(), ist: await port(), sst: await port() });
    const name = `cal_test_${process.pid}`;
    const nodes = ports.map((nodePorts, index) => new GaleraNode(index + 1, folder, nodePorts, name, () => ports));
    const cluster = new GaleraCluster(folder, nodes);
    try {
      await nodes[0].install();
      await nodes[0].start(true);
      for (const node of nodes.slice(1)) {
        // A joiner gets its data from the cluster; it only needs an empty directory with system tables.
        await node.install();
        await node.start();
      }
      await cluster.waitForSize(size);
    } catch (error) {
      const donorLog = nodes[0].errorLog();
      await cluster.destroy();
      throw new Error(`${(error as Error).message}\n--- node 1:\n${donorLog}`, { cause: error });
    }
    return cluster;
  }

  async waitForSize(size: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const node = this.nodes.find((candidate) => candidate.running) ?? this.nodes[0];
    while (Date.now() < deadline) {
      if (Number(await node.status('wsrep_cluster_size').catch(() => 0)) === size) return;
      await delay(200);
    }
    throw new Error(`The cluster did not reach ${size} nodes`);
  }

  /** Stops every node by its pid and removes the folder. */
  async destroy(): Promise<void> {
    for (const node of [...this.nodes].reverse()) await node.stop().catch(() => undefined);
    rmSync(this.folder, { recursive: true, force: true });
  }
}
