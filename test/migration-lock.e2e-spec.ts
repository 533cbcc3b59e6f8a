import { createConnection, Connection, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/database.module';
import { MIGRATION_LEASE_TABLE } from '../src/database/migration-lease';

/**
 * The start-up migration lock is a lease row in the database itself (migration-lease.ts), which a
 * Galera cluster certifies: named locks (node-local on Galera), the old lock names or another
 * database's lease do not hold this one's start; an instance of the same database holding the
 * lease does, until it releases it or its lease lapses.
 */

const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
const onMariaDb = /^(mysql|mariadb):\/\//.test(databaseUrl);
const describeOnMariaDb = onMariaDb ? describe : describe.skip;

jest.setTimeout(60_000);

describeOnMariaDb(
  onMariaDb ? 'Migration lock (e2e, MariaDB)' : 'Migration lock: skipped, MySQL/MariaDB only (set TEST_DATABASE_URL=mysql://...)',
  () => {
    let dataSource: DataSource;
    let other: Connection;
    let databaseName: string;

    beforeAll(async () => {
      dataSource = await new DataSource(buildDataSourceOptions({ type: 'mysql', url: databaseUrl, poolSize: 2 })).initialize();
      databaseName = new URL(databaseUrl).pathname.slice(1);
      other = await createConnection({ uri: databaseUrl });
    });

    afterAll(async () => {
      await other?.end();
      await dataSource?.destroy();
    });

    async function lock(name: string): Promise<void> {
      const [rows] = await other.query<RowDataPacket[]>('SELECT GET_LOCK(?, 0) AS acquired', [name]);
      expect(Number(rows[0].acquired)).toBe(1);
    }

    it('runs while named locks (the old per-database and server-wide ones) are held', async () => {
      // The old server-wide name: held by this test, or already by another instance of the server.
      await other.query("SELECT GET_LOCK('cal_migrations', 0)");
      const [held] = await other.query<RowDataPacket[]>("SELECT IS_USED_LOCK('cal_migrations') AS holder");
      expect(held[0].holder).not.toBeNull();
      await lock('cal_migrations:some_other_calendar');
      await lock(`cal_migrations:${databaseName}`.slice(0, 64));
      try {
        await expect(runMigrations(dataSource)).resolves.toBeUndefined();
      } finally {
        await other.query('SELECT RELEASE_ALL_LOCKS()');
      }
    });

    async function holdLease(secondsLeft: number): Promise<void> {
      await runMigrations(dataSource);
      await other.query(
        `UPDATE ${MIGRATION_LEASE_TABLE} SET holder = 'another instance', expires_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? SECOND) WHERE name = 'migrations'`,
        [secondsLeft],
      );
    }

    it("waits while another instance holds this database's lease, and runs once it is released", async () => {
      await holdLease(60);
      let done = false;
      const migrating = runMigrations(dataSource).then(() => {
        done = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(done).toBe(false);
      await other.query(`UPDATE ${MIGRATION_LEASE_TABLE} SET holder = NULL, expires_at = NULL WHERE name = 'migrations'`);
      await migrating;
      expect(done).toBe(true);
      const [rows] = await other.query<RowDataPacket[]>(`SELECT holder FROM ${MIGRATION_LEASE_TABLE} WHERE name = 'migrations'`);
      expect(rows[0].holder).toBeNull();
    });

    it('takes over a lease whose holder died without releasing it, once it lapsed', async () => {
      await holdLease(-1);
      await expect(runMigrations(dataSource)).resolves.toBeUndefined();
    });

    it('lets instances started together migrate one at a time, each finding nothing left to do after the first', async () => {
      const [before] = await other.query<RowDataPacket[]>('SELECT COUNT(*) AS applied FROM migrations');
      await Promise.all([runMigrations(dataSource), runMigrations(dataSource), runMigrations(dataSource)]);
      const [after] = await other.query<RowDataPacket[]>('SELECT COUNT(*) AS applied FROM migrations');
      expect(Number(after[0].applied)).toBe(Number(before[0].applied));
    });
  },
);
