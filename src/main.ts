import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { CalExpressAdapter } from './common/http/cal-express-adapter';
import { AppLogger } from './common/app-logger';
import { AppConfig, appConfig, ConfigError, loadAppConfig, loadDotEnvFile } from './config/app.config';
import { readPayments } from './payments/providers/registry';
import { OpenApiDocument } from './namespaces/openapi-document';

async function bootstrap(): Promise<void> {
  // Fail fast, naming the bad setting, before anything else starts.
  try {
    loadDotEnvFile();
    loadAppConfig(process.env);
    readPayments(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule, new CalExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  const config = app.get<ReturnType<typeof loadAppConfig>>(appConfig.KEY);
  setupApp(app, config);
  // At start rather than on the first request: a route the document cannot describe stops the start.
  app.get(OpenApiDocument).get();
  await app.listen(config.port);
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  app
    .get(AppLogger)
    .log(
      `cal is listening on ${base}${config.apiRoot}/${config.apiPrefix}/events/v1 (API docs: ${base}${config.apiRoot}/docs; database: ${describeDatabase(config.database)})`,
      'Bootstrap',
    );
}

/** Where the data lives, without credentials. */
function describeDatabase(database: AppConfig['database']): string {
  if (database.type === 'sqlite') return `SQLite ${database.path}`;
  const url = new URL(database.url);
  const replicas = database.replicaUrls?.length ? ` + ${database.replicaUrls.length} read replica(s)` : '';
  return `MySQL/MariaDB ${url.host}${url.pathname}${replicas}`;
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
