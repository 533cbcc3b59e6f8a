import { extname } from 'node:path';
import { discoverMigrations } from '../migration-discovery';

/**
 * Every migration of this folder, oldest first (by the timestamp of its file name). A new migration is
 * its file `<timestamp>-<Name>.ts` exporting the class `<Name><timestamp>`, and nothing else.
 */
export const MIGRATIONS = discoverMigrations(__dirname, extname(__filename) === '.js' ? '.js' : '.ts');
