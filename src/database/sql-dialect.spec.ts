import type { DataSource, EntityManager } from 'typeorm';
import { SqlDialect } from './sql-dialect';

function dataSource(type: 'mysql' | 'better-sqlite3'): DataSource {
  return { options: { type } } as unknown as DataSource;
}

function managerOf(source: DataSource): EntityManager {
  return { connection: source } as unknown as EntityManager;
}

const parseError = Object.assign(new Error('You have an error in your SQL syntax'), { code: 'ER_PARSE_ERROR' });

describe('SqlDialect', () => {
  it('is one object per data source, reached from the data source or any of its managers', () => {
    const mysql = dataSource('mysql');
    expect(SqlDialect.of(mysql)).toBe(SqlDialect.of(managerOf(mysql)));
    expect(SqlDialect.of(mysql)).not.toBe(SqlDialect.of(dataSource('mysql')));
  });

  it('writes the expressions each database understands', () => {
    const mysql = SqlDialect.of(dataSource('mysql'));
    const sqlite = SqlDialect.of(dataSource('better-sqlite3'));
    expect(mysql.concat('a', "':'", 'b')).toBe("CONCAT(a, ':', b)");
    expect(sqlite.concat('a', "':'", 'b')).toBe("a || ':' || b");
    expect(mysql.dayOf('at')).toBe("DATE_FORMAT(at, '%Y-%m-%d')");
    expect(sqlite.dayOf('at')).toBe('substr(at, 1, 10)');
    expect(mysql.greatest('x', 'y')).toBe('GREATEST(x, y)');
    expect(sqlite.greatest('x', 'y')).toBe('MAX(x, y)');
    expect(mysql.comparableDateTime('t.at')).toBe('t.at');
    expect(sqlite.comparableDateTime('t.at')).toBe("strftime('%Y-%m-%d %H:%M:%f', t.at)");
    expect(mysql.onConflictUpdate(['id'], 'n = n + VALUES(n)')).toBe('ON DUPLICATE KEY UPDATE n = n + VALUES(n)');
    expect(sqlite.onConflictUpdate(['id', 'day'], `n = n + ${sqlite.inserted('n')}`, 'excluded.v >= v')).toBe(
      'ON CONFLICT (id, day) DO UPDATE SET n = n + excluded.n WHERE excluded.v >= v',
    );
    expect(mysql.onConflictKeepNewest(['id'], ['a', 'b'], 'v')).toBe(
      'ON DUPLICATE KEY UPDATE a = IF(VALUES(v) >= v, VALUES(a), a), b = IF(VALUES(v) >= v, VALUES(b), b), v = GREATEST(v, VALUES(v))',
    );
    expect(sqlite.onConflictKeepNewest(['id'], ['a', 'b'], 'v')).toBe(
      'ON CONFLICT (id) DO UPDATE SET v = excluded.v, a = excluded.a, b = excluded.b WHERE excluded.v >= v',
    );
  });

  it('answers updated rows from the UPDATE itself only on SQLite', () => {
    expect(SqlDialect.of(dataSource('better-sqlite3')).updateReturning).toBe(true);
    expect(SqlDialect.of(dataSource('mysql')).updateReturning).toBe(false);
  });

  it('locks rows only where the database has row locks', () => {
    const setOnLocked = jest.fn().mockReturnThis();
    const query = { setLock: jest.fn().mockReturnThis(), setOnLocked };
    SqlDialect.of(dataSource('better-sqlite3')).forUpdateSkipLocked(query as never);
    expect(query.setLock).not.toHaveBeenCalled();
    SqlDialect.of(dataSource('mysql')).forUpdateSkipLocked(query as never);
    expect(query.setLock).toHaveBeenCalledWith('pessimistic_write');
    expect(setOnLocked).toHaveBeenCalledWith('skip_locked');
    expect(SqlDialect.of(dataSource('mysql')).findForUpdate()).toEqual({ lock: { mode: 'pessimistic_write' } });
    expect(SqlDialect.of(dataSource('better-sqlite3')).findForUpdate()).toEqual({});
  });

  describe('compound statements', () => {
    it('are never tried on SQLite', async () => {
      const statement = jest.fn();
      await expect(SqlDialect.of(dataSource('better-sqlite3')).compound(statement)).resolves.toBeNull();
      expect(statement).not.toHaveBeenCalled();
    });

    it('are given up after a server refuses the first one, and not tried again', async () => {
      const dialect = SqlDialect.of(dataSource('mysql'));
      await expect(dialect.compound(() => Promise.reject(parseError))).resolves.toBeNull();
      const statement = jest.fn();
      await expect(dialect.compound(statement)).resolves.toBeNull();
      expect(statement).not.toHaveBeenCalled();
      expect(dialect.mayRunCompound).toBe(false);
    });

    it('are kept once one ran: a later parse error is a real error', async () => {
      const dialect = SqlDialect.of(dataSource('mysql'));
      await expect(dialect.compound(() => Promise.resolve(7))).resolves.toBe(7);
      await expect(dialect.compound(() => Promise.reject(parseError))).rejects.toBe(parseError);
      await expect(dialect.compound(() => Promise.resolve(8))).resolves.toBe(8);
    });

    it('pass any other error through', async () => {
      const dialect = SqlDialect.of(dataSource('mysql'));
      const deadlock = Object.assign(new Error('deadlock'), { code: 'ER_LOCK_DEADLOCK' });
      await expect(dialect.compound(() => Promise.reject(deadlock))).rejects.toBe(deadlock);
      expect(dialect.mayRunCompound).toBe(true);
    });
  });
});
