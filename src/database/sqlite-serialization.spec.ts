import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { runInTransaction } from '../common/database/transactions';
import { limitSqliteTransactionWaits, serialiseSqliteTransactions } from './sqlite-serialization';

describe('serialiseSqliteTransactions', () => {
  let dataSource: DataSource;

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    serialiseSqliteTransactions(dataSource);
    await dataSource.query('CREATE TABLE items (name TEXT NOT NULL)');
  });

  afterEach(async () => {
    await dataSource.destroy();
  });

  const names = async () =>
    (await dataSource.query<Array<{ name: string }>>('SELECT name FROM items ORDER BY name')).map((row) => row.name);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('keeps a statement from outside out of a transaction that rolls back', async () => {
    const failing = dataSource.transaction(async (manager) => {
      await manager.query("INSERT INTO items VALUES ('inside')");
      await pause();
      throw new Error('roll back');
    });
    const outside = (async () => {
      await pause();
      await dataSource.query("INSERT INTO items VALUES ('outside')");
    })();
    await expect(failing).rejects.toThrow('roll back');
    await outside;
    expect(await names()).toEqual(['outside']);
  });

  it('runs concurrent transactions one after the other, each committing or rolling back alone', async () => {
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((name) =>
        dataSource.transaction(async (manager) => {
          await manager.query('INSERT INTO items VALUES (?)', [name]);
          await pause();
          if (name === 'b') throw new Error('b fails');
        }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await names()).toEqual(['a', 'c', 'd']);
  });
});

describe('limitSqliteTransactionWaits', () => {
  it('answers 503 database-busy to a transaction that waits longer than the limit, and lets the queue go on', async () => {
    const dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      serialiseSqliteTransactions(dataSource);
      limitSqliteTransactionWaits(dataSource, 30);
      let finishHolder!: () => void;
      const holding = new Promise<void>((resolve) => (finishHolder = resolve));
      const holder = dataSource.transaction(() => holding);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const waiter = dataSource.transaction(async (manager) => manager.query('SELECT 1'));
      await expect(waiter).rejects.toMatchObject({ code: 'database-busy' });
      finishHolder();
      await holder;
      await expect(dataSource.query('SELECT 2 AS two')).resolves.toEqual([{ two: 2 }]);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('SQLite transactions beside another process on the same file', () => {
  it('run again from the start when another process committed between their first read and first write', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cal-sqlite-'));
    const file = join(folder, 'shared.sqlite');
    const dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: file,
      enableWAL: true,
      prepareDatabase: (db: { pragma(statement: string): unknown }) => {
        db.pragma('busy_timeout = 5000');
      },
    }).initialize();
    try {
      serialiseSqliteTransactions(dataSource);
      await dataSource.query('CREATE TABLE items (name TEXT NOT NULL)');
      const writer = `const Database = require('better-sqlite3'); const db = new Database(process.argv[1]);
        db.pragma('busy_timeout = 5000'); db.prepare("INSERT INTO items VALUES ('other process')").run(); db.close();`;
      let attempts = 0;
      await runInTransaction(dataSource, async (manager) => {
        attempts += 1;
        await manager.query('SELECT COUNT(*) FROM items');
        if (attempts === 1) await promisify(execFile)(process.execPath, ['-e', writer, file]);
        await manager.query("INSERT INTO items VALUES ('this process')");
      });
      expect(attempts).toBe(2);
      const rows = await dataSource.query<Array<{ name: string }>>('SELECT name FROM items ORDER BY rowid');
      expect(rows.map((row) => row.name)).toEqual(['other process', 'this process']);
    } finally {
      await dataSource.destroy();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
