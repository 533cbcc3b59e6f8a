// Unit specs sit beside the code (src/**/*.spec.ts); e2e specs drive the whole app over HTTP
// (test/**/*.e2e-spec.ts) on SQLite by default, or on MySQL/MariaDB when TEST_DATABASE_URL is set.
// Type checking is done by `npm run build`/`npm run lint`; Jest only transpiles, for speed.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] };

const unit = {
  displayName: 'unit',
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform,
};

const e2e = {
  displayName: 'e2e',
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/security/fuzz.e2e-spec.ts'],
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/cleanup-env.ts'],
  transform,
  slowTestThreshold: 30,
};

// Property-based fuzzing of every route: long by nature, so `npm test` leaves it out and
// `npm run test:fuzz` (JEST_FUZZ=1) runs it alone, FUZZ_RUNS cases per route. CI runs both.
const fuzz = {
  displayName: 'fuzz',
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/security/fuzz.e2e-spec.ts'],
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/cleanup-env.ts'],
  transform,
  slowTestThreshold: 120,
};

/**
 * Workers that run files side by side; TEST_WORKERS to choose. On SQLite each app has its own
 * in-memory database: one more worker than cores, since the slowest files spend much of their time
 * waiting on servers they start (the service, MariaDB, Chromium). On MariaDB each worker has a
 * database of its own (test/worker-databases.js), and the server shares the cores: one per core.
 * The fuzzing runs alone.
 */
function workers() {
  if (process.env.JEST_FUZZ === '1') return 1;
  const chosen = Number(process.env.TEST_WORKERS);
  if (Number.isInteger(chosen) && chosen > 0) return chosen;
  const cores = require('node:os').availableParallelism();
  return process.env.TEST_DATABASE_URL ? cores : cores + 1;
}

module.exports = {
  // The unit specs use no database (pure logic, or SQLite in memory): a MariaDB run leaves them to
  // the SQLite one (UNIT_TESTS=1 runs them anyway).
  projects: process.env.JEST_FUZZ === '1' ? [fuzz] : process.env.TEST_DATABASE_URL && process.env.UNIT_TESTS !== '1' ? [e2e] : [unit, e2e],
  testTimeout: 30000,
  maxWorkers: workers(),
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  // Each e2e file boots the whole app, and the memory a file leaves behind adds up over a run in one
  // process until garbage collection takes all the time (at about 4 GB the run crawls, then stalls).
  // Jest replaces a worker once it holds more than this after a file.
  workerIdleMemoryLimit: '1536MB',
};
