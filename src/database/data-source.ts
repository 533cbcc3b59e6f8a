import 'reflect-metadata';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../config/app.config';
import { buildDataSourceOptions } from './data-source-options';

/**
 * The data source of the TypeORM CLI (`npm run migration:generate|run|revert`), configured from
 * the same environment as the app. The app itself builds its connection through TypeOrmModule
 * from the same options.
 */
const config = loadAppConfig(process.env);

export const AppDataSource = new DataSource({
  ...buildDataSourceOptions(config.database),
  entities: [join(__dirname, '..', '**', '*.entity.{ts,js}')],
});

export default AppDataSource;
