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

// One export only: the CLI refuses a file that exports more than one DataSource.
export default new DataSource({
  ...buildDataSourceOptions(config.database),
  entities: [join(__dirname, '..', '**', '*.entity.{ts,js}')],
});
