import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { runMigrations } from './database.module';
import { MIGRATIONS } from './migrations';

async function openInMemory(): Promise<DataSource> {
  const dataSource = await new DataSource(buildDataSourceOptions({ type: 'sqlite', path: ':memory:' })).initialize();
  await runMigrations(dataSource);
  return dataSource;
}

describe('in-memory SQLite databases start from the migrated image', () => {
  it('migrates the first one, and the next ones are copies with nothing pending, each on its own', async () => {
    const first = await openInMemory();
    const second = await openInMemory();
    try {
      for (const dataSource of [first, second]) {
        const applied = await dataSource.query<Array<{ name: string }>>('SELECT name FROM migrations ORDER BY timestamp');
        expect(applied.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
        expect(await dataSource.showMigrations()).toBe(false);
      }
      await first.query(
        `INSERT INTO users (login, email, role, display_name) VALUES ('only-in-first', 'a@example.org', 'subscriber', 'A')`,
      );
      expect(await second.query(`SELECT id FROM users WHERE login = 'only-in-first'`)).toEqual([]);
      const third = await openInMemory();
      expect(await third.query(`SELECT id FROM users WHERE login = 'only-in-first'`)).toEqual([]);
      await third.destroy();
    } finally {
      await first.destroy();
      await second.destroy();
    }
  });
});
