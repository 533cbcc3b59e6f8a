import { ConfigModule } from '@nestjs/config';
import { appConfig } from './app.config';

/**
 * Typed configuration for the app and the CLI. Tests never read `.env`. A feature's own settings are
 * registered by its module (`ConfigModule.forFeature`), so this folder imports no feature.
 */
export const AppConfigModule = ConfigModule.forRoot({
  isGlobal: true,
  cache: true,
  load: [appConfig],
  ignoreEnvFile: process.env.NODE_ENV === 'test',
});
