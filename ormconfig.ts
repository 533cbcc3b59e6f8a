// The TypeORM CLI's data source; the one definition lives in src/database/data-source.ts.
export { default } from './src/database/data-source';
