import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainEvents } from '../src/common/domain-events/domain-events';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * CONTRIBUTING.md's "Reacting to a write" names every way the code reacts to a write, in two
 * tables: the domain-event listeners (as the running app has them) and the database triggers (as
 * the migrated database has them). A listener or trigger added, renamed or removed without its row
 * fails here.
 */
const CONTRIBUTING = readFileSync(join(__dirname, '..', 'CONTRIBUTING.md'), 'utf8');

/** The first cells (in backquotes) of the table that follows `heading` in CONTRIBUTING.md; rows saying "MySQL/MariaDB only" only on those. */
function firstCellsAfter(heading: string, mysql = false): string[] {
  const start = CONTRIBUTING.indexOf(heading);
  if (start < 0) throw new Error(`CONTRIBUTING.md has no "${heading}"`);
  const lines = CONTRIBUTING.slice(start).split('\n');
  const table = lines.slice(lines.findIndex((line) => line.startsWith('|')));
  const rows = table
    .slice(
      0,
      table.findIndex((line) => !line.startsWith('|')),
    )
    .slice(2)
    .filter((row) => mysql || !row.includes('MySQL/MariaDB only'));
  return rows.map((row) => /^\|\s*`([^`]+)`/.exec(row)?.[1] ?? `(no backquoted first cell: ${row})`);
}

describe('CONTRIBUTING.md lists every reaction to a write', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(() => testApp.close());

  it('names every domain-event listener, with its phase and kinds', () => {
    const running = testApp.app.get(DomainEvents).listeners().sort();
    expect(firstCellsAfter('<!-- listeners -->').sort()).toEqual(running);
  });

  it('names every database trigger', async () => {
    const { dataSource } = testApp;
    const mysql = dataSource.options.type === 'mysql';
    const rows: Array<{ name: string }> = mysql
      ? await dataSource.query('SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()')
      : await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'trigger'`);
    expect(firstCellsAfter('<!-- triggers -->', mysql).sort()).toEqual(rows.map((row) => row.name).sort());
  });
});
