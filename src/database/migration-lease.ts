import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createConnection, Connection, ResultSetHeader } from 'mysql2/promise';
import { DataSource, QueryRunner } from 'typeorm';
import type { MysqlDataSourceOptions } from 'typeorm/driver/mysql/MysqlDataSourceOptions';

/**
 * The start-up migration lock on MySQL/MariaDB: a lease row in a table of the database itself.
 * `GET_LOCK` is node-local on a Galera cluster (instances started together on two nodes would both
 * migrate); a row updated in a transaction is certified by the whole cluster, so exactly one taker
 * wins it, and being a table of this database it never makes other databases on the server wait.
 * The table is created here, not by a migration, for the same reason TypeORM creates its
 * `migrations` table itself: it must exist before the first migration runs.
 */
export const MIGRATION_LEASE_TABLE = 'cal_migration_lease';
const LEASE_NAME = 'migrations';
/** A holder that died keeps the lease this long at most; a live one renews it every third of it. */
export const MIGRATION_LEASE_SECONDS = 60;
const WAIT_STEP_MS = 500;

export interface MigrationLease {
  release(): Promise<void>;
}

function leaseHolder(): string {
  return `${hostname().slice(0, 40)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

/** The URL of the primary, for the connection that renews the lease while migrations run. */
function primaryUrl(dataSource: DataSource): string | undefined {
  const options = dataSource.options as MysqlDataSourceOptions;
  return options.url ?? options.replication?.master.url;
}

async function tryTake(runner: QueryRunner, holder: string): Promise<boolean> {
  try {
    const result = (await runner.query(
      `UPDATE ${MIGRATION_LEASE_TABLE} SET holder = ?, expires_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ${MIGRATION_LEASE_SECONDS} SECOND) ` +
        'WHERE name = ? AND (holder IS NULL OR expires_at < UTC_TIMESTAMP(3))',
      [holder, LEASE_NAME],
    )) as ResultSetHeader | { affectedRows?: number };
    return Number(result.affectedRows ?? 0) === 1;
  } catch (error) {
    // Two nodes took the free lease at once: Galera certified the other one (ER_LOCK_DEADLOCK at commit).
    if (
      (error as { driverError?: { errno?: number }; errno?: number }).driverError?.errno === 1213 ||
      (error as { errno?: number }).errno === 1213
    )
      return false;
    throw error;
  }
}

/**
 * Takes the database's migration lease, waiting up to `timeoutSeconds` for another instance to
 * release it (or for its lease to lapse), and keeps it renewed until released.
 */
export async function takeMigrationLease(dataSource: DataSource, runner: QueryRunner, timeoutSeconds: number): Promise<MigrationLease> {
  await runner.query(
    `CREATE TABLE IF NOT EXISTS ${MIGRATION_LEASE_TABLE} (name varchar(64) NOT NULL PRIMARY KEY, holder varchar(100) NULL, expires_at datetime(3) NULL) ` +
      'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci',
  );
  await runner.query(`INSERT IGNORE INTO ${MIGRATION_LEASE_TABLE} (name, holder, expires_at) VALUES (?, NULL, NULL)`, [LEASE_NAME]);
  const holder = leaseHolder();
  const deadline = Date.now() + timeoutSeconds * 1000;
  while (!(await tryTake(runner, holder))) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for another instance to finish migrating');
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  // Renewed on a connection of its own: the migrations hold the runner's, in transactions.
  const url = primaryUrl(dataSource);
  let renewer: Connection | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (url) {
    renewer = await createConnection({ uri: url });
    const connection = renewer;
    timer = setInterval(
      () => {
        void connection
          .query(
            `UPDATE ${MIGRATION_LEASE_TABLE} SET expires_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ${MIGRATION_LEASE_SECONDS} SECOND) WHERE name = ? AND holder = ?`,
            [LEASE_NAME, holder],
          )
          .catch(() => undefined);
      },
      (MIGRATION_LEASE_SECONDS * 1000) / 3,
    );
    timer.unref();
  }
  return {
    release: async () => {
      if (timer) clearInterval(timer);
      await renewer?.end().catch(() => undefined);
      await runner.query(`UPDATE ${MIGRATION_LEASE_TABLE} SET holder = NULL, expires_at = NULL WHERE name = ? AND holder = ?`, [
        LEASE_NAME,
        holder,
      ]);
    },
  };
}
