import { PoolConnection } from 'mysql2';
import { keepMysqlPromiseWrappers } from './mysql-promise-wrappers';

describe('keepMysqlPromiseWrappers', () => {
  // A pooled connection as far as promise() looks at it: the wrapper only keeps a reference.
  const connection = () => Object.create(PoolConnection.prototype) as PoolConnection;

  beforeAll(() => {
    keepMysqlPromiseWrappers();
    keepMysqlPromiseWrappers(); // a second call changes nothing
  });

  it('hands each pooled connection the same wrapper every time, around that connection', () => {
    const first = connection();
    const second = connection();
    const wrapper = first.promise();
    expect(first.promise()).toBe(wrapper);
    expect((wrapper as unknown as { connection: unknown }).connection).toBe(first);
    expect(second.promise()).not.toBe(wrapper);
    expect((second.promise() as unknown as { connection: unknown }).connection).toBe(second);
  });

  it('builds a wrapper of its own for another Promise class', () => {
    const pooled = connection();
    const kept = pooled.promise();
    const other = pooled.promise(Promise);
    expect(other).not.toBe(kept);
    expect(pooled.promise()).toBe(kept);
  });
});
