import type { Server } from 'node:http';
import { CalExpressAdapter } from '../../src/common/http/cal-express-adapter';
import { ModuleMetadata, Provider } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { setupApp } from '../../src/app.setup';
import { UsersService } from '../../src/auth/users.service';
import type { Role } from '../../src/auth/roles';
import { appConfig, AppConfig } from '../../src/config/app.config';

export const ADMIN = { login: 'admin', password: 'admin-password-for-tests' };

export interface TestApp {
  app: NestExpressApplication;
  server: Server;
  dataSource: DataSource;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra modules, controllers or providers (e.g. a controller exercising a guard). */
  imports?: ModuleMetadata['imports'];
  controllers?: ModuleMetadata['controllers'];
  /** Providers to replace, such as the clock. */
  overrides?: Array<{ provide: Provider | string | symbol; useValue: unknown }>;
  /** MariaDB: keep the rows already there (a second instance on the same database). */
  keepTables?: boolean;
}

/**
 * MariaDB keeps its tables between test files, so each app starts from empty tables; the
 * in-memory SQLite database is new for every app anyway.
 */
async function emptyTables(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') return;
  const runner = dataSource.createQueryRunner();
  try {
    // TRUNCATE costs tens of milliseconds per table even when the table is empty: only the tables
    // that hold a row or have handed out an id are emptied (so ids start at 1 as on a new database).
    const tables = [...new Set(dataSource.entityMetadatas.map((entity) => entity.tableName))];
    const [filled] = (await runner.query(
      `SELECT ${tables.map((table, index) => `EXISTS(SELECT 1 FROM \`${table}\`) AS t${index}`).join(', ')}`,
    )) as Array<Record<string, number | string>>;
    const counters = (await runner.query(
      'SELECT TABLE_NAME AS name, AUTO_INCREMENT AS next FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
    )) as Array<{ name: string; next: number | string | null }>;
    const counted = new Set(counters.filter((row) => row.next !== null && Number(row.next) > 1).map((row) => row.name));
    const used = tables.filter((table, index) => Number(filled[`t${index}`]) === 1 || counted.has(table));
    if (used.length === 0) return;
    await runner.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const table of used) await runner.query(`TRUNCATE TABLE \`${table}\``);
    await runner.query('SET FOREIGN_KEY_CHECKS = 1');
  } finally {
    await runner.release();
  }
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  let builder = Test.createTestingModule({
    imports: [AppModule, ...(options.imports ?? [])],
    controllers: options.controllers ?? [],
  });
  for (const override of options.overrides ?? []) {
    builder = builder.overrideProvider(override.provide).useValue(override.useValue);
  }
  const moduleRef = await builder.compile();
  const dataSource = moduleRef.get(DataSource);
  if (!options.keepTables) await emptyTables(dataSource);
  const app = moduleRef.createNestApplication<NestExpressApplication>(new CalExpressAdapter(), { bodyParser: false });
  setupApp(app, app.get<AppConfig>(appConfig.KEY));
  await app.init();
  return { app, server: app.getHttpServer(), dataSource, close: () => app.close() };
}

export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

export interface TestUser {
  id: number;
  login: string;
  role: Role;
  password: string;
  authorization: string;
}

let userCounter = 0;

/** A user of `role` with a fresh application password. */
export async function createUser(testApp: TestApp, role: Role, login = `${role}${(userCounter += 1)}`): Promise<TestUser> {
  const users = testApp.app.get(UsersService);
  const user = await users.create({ login, role, email: `${login}@example.org` });
  const { password } = await users.createApplicationPassword(login, 'test');
  return { id: user.id, login, role, password, authorization: basicAuth(login, password) };
}
