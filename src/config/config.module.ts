import { ConfigModule } from '@nestjs/config';
import { seriesConfig } from '../series/series.config';
import { appConfig } from './app.config';

/** Typed configuration for the app and the CLI. Tests never read `.env`. */
export const AppConfigModule = ConfigModule.forRoot({
  isGlobal: true,
  cache: true,
  load: [appConfig, seriesConfig],
  ignoreEnvFile: process.env.NODE_ENV === 'test',
});
