import { Command, InvalidArgumentError } from 'commander';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../src/config/app.config';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { DEFAULT_SEED, seedBenchmarkData } from './seed/seed-benchmark-data';

export { DEFAULT_SEED, seedBenchmarkData } from './seed/seed-benchmark-data';
export type { SeedOptions, SeedSummary, TableRows } from './seed/seed-benchmark-data';
export * from './credentials';

export const DEFAULT_BENCH_DATABASE_URL = 'mysql://root@127.0.0.1:3306/cal_bench';

/** Creates the database named by a mysql:// URL when it does not exist, as utf8mb4 (servers may default to latin1). */
export async function createMysqlDatabaseIfMissing(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const database = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_$-]+$/.test(database)) throw new Error(`Refusing to create a database named "${database}"`);
  const connection = await createConnection({
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}

/** A data source on `databaseUrl` (mysql://, mariadb:// or sqlite:), with the service's options. */
export function benchDataSource(databaseUrl: string): DataSource {
  const database = parseDatabaseUrl(databaseUrl, 'data', 2, '--database-url');
  return new DataSource(buildDataSourceOptions(database));
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name('bench:seed')
    .description('Fill a calendar database with benchmark data (tops up an already seeded one).')
    .option('--events <n>', 'events the calendar holds afterwards', wholeNumber, 100_000)
    .option('--database-url <url>', 'mysql://, mariadb:// or sqlite: URL', process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL)
    .option('--seed <seed>', 'seed of the generator (same seed, same calendar)', String(DEFAULT_SEED))
    .option('--create', 'create the MySQL/MariaDB database when it is missing')
    .option('--batch <n>', 'events per transaction', wholeNumber)
    .parse(argv);
  const options = program.opts<{ events: number; databaseUrl: string; seed: string; create?: boolean; batch?: number }>();

  const isMysql = /^(mysql|mariadb):\/\//.test(options.databaseUrl);
  if (options.create && isMysql) await createMysqlDatabaseIfMissing(options.databaseUrl);
  const dataSource = await benchDataSource(options.databaseUrl).initialize();
  try {
    const seed = /^\d+$/.test(options.seed) ? Number(options.seed) : options.seed;
    const summary = await seedBenchmarkData(dataSource, {
      events: options.events,
      seed,
      batchEvents: options.batch,
      log: (line) => process.stdout.write(`[bench:seed] ${line}\n`),
    });
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    await dataSource.destroy();
  }
}

if (require.main === module) {
  main(process.argv).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
