import type { DataSource } from 'typeorm';
import { detectServerFeatures, supportsInsertReturning } from './server-features';

function serverAnswering(type: string, version: string): DataSource {
  return { options: { type }, query: () => Promise.resolve([{ version }]) } as unknown as DataSource;
}

describe('server features', () => {
  it.each([
    ['10.11.19-MariaDB-0+deb12u1', true],
    ['10.5.0-MariaDB', true],
    ['11.4.2-MariaDB-log', true],
    ['10.4.34-MariaDB', false],
    ['8.0.36', false],
    ['8.4.3-standard', false],
  ])('INSERT ... RETURNING on %s: %s', async (version, expected) => {
    const dataSource = serverAnswering('mysql', version);
    await detectServerFeatures(dataSource);
    expect(supportsInsertReturning(dataSource)).toBe(expected);
  });

  it('assumes nothing before detection and on SQLite', async () => {
    expect(supportsInsertReturning(serverAnswering('mysql', '10.11.19-MariaDB'))).toBe(false);
    const sqlite = serverAnswering('better-sqlite3', '');
    await detectServerFeatures(sqlite);
    expect(supportsInsertReturning(sqlite)).toBe(false);
  });
});
