import { DataSource, TableColumn } from 'typeorm';
import { addColumns } from './migration-helpers';
import { guardSqliteTableRebuilds, SqliteTableWithTriggersRebuild } from './sqlite-rebuild-guard';

describe('guardSqliteTableRebuilds', () => {
  let dataSource: DataSource;

  beforeAll(() => guardSqliteTableRebuilds());

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE tickets (id INTEGER PRIMARY KEY, name TEXT)');
    await dataSource.query('CREATE TABLE plain (id INTEGER PRIMARY KEY)');
    await dataSource.query('CREATE TABLE ticket_log (ticket_id INTEGER)');
    await dataSource.query(
      'CREATE TRIGGER TRG_tickets_log AFTER INSERT ON tickets FOR EACH ROW BEGIN INSERT INTO ticket_log VALUES (NEW.id); END',
    );
  });

  afterEach(() => dataSource.destroy());

  const triggers = async () =>
    (await dataSource.query<Array<{ name: string }>>(`SELECT name FROM sqlite_master WHERE type = 'trigger'`)).map((row) => row.name);

  it("stops TypeORM's addColumn on a table with triggers, naming the table, its triggers and what to use", async () => {
    const runner = dataSource.createQueryRunner();
    try {
      const attempt = runner.addColumn('tickets', new TableColumn({ name: 'note', type: 'text', isNullable: true }));
      await expect(attempt).rejects.toThrow(SqliteTableWithTriggersRebuild);
      await expect(runner.addColumn('tickets', new TableColumn({ name: 'note', type: 'text', isNullable: true }))).rejects.toThrow(
        /"tickets".*TRG_tickets_log.*addColumns/,
      );
    } finally {
      await runner.release();
    }
    expect(await triggers()).toEqual(['TRG_tickets_log']);
  });

  it('lets a table without triggers be rebuilt, and addColumns change one with triggers in place', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.addColumn('plain', new TableColumn({ name: 'note', type: 'text', isNullable: true }));
      await addColumns(runner, 'tickets', ['note TEXT NULL']);
    } finally {
      await runner.release();
    }
    await dataSource.query(`INSERT INTO tickets (id, name, note) VALUES (1, 'General', 'n')`);
    expect(await dataSource.query('SELECT ticket_id FROM ticket_log')).toEqual([{ ticket_id: 1 }]);
  });

  it('is installed once however often it is called', async () => {
    guardSqliteTableRebuilds();
    guardSqliteTableRebuilds();
    const runner = dataSource.createQueryRunner();
    try {
      await expect(runner.dropColumn('tickets', 'name')).rejects.toThrow(SqliteTableWithTriggersRebuild);
    } finally {
      await runner.release();
    }
  });
});
