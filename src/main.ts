import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { appConfig, ConfigError, loadAppConfig, loadDotEnvFile } from './config/app.config';

async function bootstrap(): Promise<void> {
  // Fail fast, naming the bad setting, before anything else starts.
  try {
    loadDotEnvFile();
    loadAppConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  const config = app.get<ReturnType<typeof loadAppConfig>>(appConfig.KEY);
  setupApp(app, config);
  await app.listen(config.port);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
