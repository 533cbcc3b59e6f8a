import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { ApiError } from '../errors/api-error';
import {
  answerNextCommitLocally,
  ConflictLost,
  isLockConflict,
  isUniqueViolation,
  LOCK_CONFLICT_RETRIES,
  lockConflictsOf,
  runInTransaction,
} from './transactions';

function fakeDataSource(type: string, transaction: (work: (manager: EntityManager) => Promise<unknown>) => Promise<unknown>): DataSource {
  return { options: { type }, transaction } as unknown as DataSource;
}

const deadlock = () =>
  Object.assign(new Error('Deadlock found when trying to get lock'), { driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 } });

describe('runInTransaction', () => {
  it('runs a MySQL transaction again after a deadlock or a lock wait timeout', async () => {
    const failures = [deadlock(), Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT' })];
    let attempts = 0;
    const dataSource = fakeDataSource('mysql', async (work) => {
      attempts += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return work({} as EntityManager);
    });
    await expect(runInTransaction(dataSource, async () => 'done')).resolves.toBe('done');
    expect(attempts).toBe(3);
    expect(lockConflictsOf(dataSource)).toEqual({ retried: 2, gaveUp: 0 });
  });

  it(`answers 503 database-busy after ${LOCK_CONFLICT_RETRIES} retries`, async () => {
    let attempts = 0;
    const dataSource = fakeDataSource('mysql', async () => {
      attempts += 1;
      throw deadlock();
    });
    const failure = await runInTransaction(dataSource, async () => 'never').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).toBody()).toMatchObject({ code: 'database-busy', data: { status: 503, retry_after: 1 } });
    expect(attempts).toBe(LOCK_CONFLICT_RETRIES + 1);
    expect(lockConflictsOf(dataSource)).toEqual({ retried: LOCK_CONFLICT_RETRIES, gaveUp: 1 });
  });

  it('passes other errors through at once', async () => {
    let attempts = 0;
    const dataSource = fakeDataSource('mysql', async () => {
      attempts += 1;
      throw new Error('boom');
    });
    await expect(runInTransaction(dataSource, async () => 'never')).rejects.toThrow('boom');
    expect(attempts).toBe(1);
  });

  it('gives way at the first lock conflict with giveWay: ConflictLost, nothing run again or counted', async () => {
    for (const [type, conflict] of [
      ['mysql', deadlock()],
      ['better-sqlite3', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' })],
    ] as const) {
      let attempts = 0;
      const dataSource = fakeDataSource(type, async () => {
        attempts += 1;
        throw conflict;
      });
      const failure = await runInTransaction(dataSource, async () => 'never', { giveWay: true }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ConflictLost);
      expect((failure as ConflictLost).cause).toBe(conflict);
      expect(attempts).toBe(1);
      expect(lockConflictsOf(dataSource)).toEqual({ retried: 0, gaveUp: 0 });
    }
    const other = fakeDataSource('mysql', async () => {
      throw new Error('boom');
    });
    await expect(runInTransaction(other, async () => 'never', { giveWay: true })).rejects.toThrow('boom');
  });

  it('runs SQLite transactions once: they are made exclusive at the data source, and never deadlock', async () => {
    let attempts = 0;
    const dataSource = fakeDataSource('better-sqlite3', async () => {
      attempts += 1;
      throw deadlock();
    });
    await expect(runInTransaction(dataSource, async () => 1)).rejects.toThrow('Deadlock');
    expect(attempts).toBe(1);
  });
});

describe('driver error codes', () => {
  it('recognises lock conflicts and unique violations of both drivers', () => {
    expect(isLockConflict(deadlock())).toBe(true);
    expect(isLockConflict({ errno: 1205 })).toBe(true);
    expect(isLockConflict(new Error('other'))).toBe(false);
    expect(isUniqueViolation({ driverError: { code: 'ER_DUP_ENTRY' } })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});

describe('answerNextCommitLocally', () => {
  function recordingRunner(): { runner: QueryRunner; sent: string[] } {
    const sent: string[] = [];
    const runner = {
      query: (sql: string) => {
        sent.push(sql);
        return Promise.resolve([]);
      },
    } as unknown as QueryRunner;
    return { runner, sent };
  }

  it('answers the next COMMIT without sending it, then sends statements again', async () => {
    const { runner, sent } = recordingRunner();
    answerNextCommitLocally(runner);
    await runner.query('COMMIT');
    await runner.query('UPDATE cache_generations SET generation = generation + 1');
    await runner.query('COMMIT');
    expect(sent).toEqual(['UPDATE cache_generations SET generation = generation + 1', 'COMMIT']);
  });

  it('sends anything else that comes first, and the COMMIT after it', async () => {
    const { runner, sent } = recordingRunner();
    answerNextCommitLocally(runner);
    await runner.query('SELECT 1');
    await runner.query('COMMIT');
    expect(sent).toEqual(['SELECT 1', 'COMMIT']);
  });
});
