import { createConnection, Connection, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/database.module';

/**
 * The start-up migration lock is per database: an instance of another database on the same
 * MySQL/MariaDB server (another calendar, a test or benchmark database) holding its lock, or a
 * client holding the old server-wide name, does not hold this one's start; an instance of the
 * same database does, until it releases the lock.
 */

const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
const onMariaDb = /^(mysql|mariadb):\/\//.test(databaseUrl);
const describeOnMariaDb = onMariaDb ? describe : describe.skip;

jest.setTimeout(60_000);

describeOnMariaDb(onMariaDb ? 'Migration lock (e2e, MariaDB)' : 'Migration lock: skipped, MySQL/MariaDB only (set TEST_DATABASE_URL=mysql://...)', () => {
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

  it("runs while other databases' locks and the old server-wide name are held", async () => {
    // The old server-wide name: held by this test, or already by another instance of the server.
    await other.query("SELECT GET_LOCK('cal_migrations', 0)");
    const [held] = await other.query<RowDataPacket[]>("SELECT IS_USED_LOCK('cal_migrations') AS holder");
    expect(held[0].holder).not.toBeNull();
    await lock('cal_migrations:some_other_calendar');
    try {
      await expect(runMigrations(dataSource)).resolves.toBeUndefined();
    } finally {
      await other.query('SELECT RELEASE_ALL_LOCKS()');
    }
  });

  it("waits while this database's lock is held, and runs once it is released", async () => {
    await lock(`cal_migrations:${databaseName}`.slice(0, 64));
    let done = false;
    const migrating = runMigrations(dataSource).then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(done).toBe(false);
    await other.query('SELECT RELEASE_ALL_LOCKS()');
    await migrating;
    expect(done).toBe(true);
  });
});
