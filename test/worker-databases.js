// On MySQL/MariaDB (TEST_DATABASE_URL) each Jest worker runs its files on a database of its own,
// `<name>_w<worker>`, so that files run side by side as they do on SQLite: each app empties its
// database's tables when it starts, which one shared database would allow for one file at a time.
// Jest's globalSetup and globalTeardown (jest.config.js) make them fresh before a run and drop them
// after it; test/setup-env.ts points each worker at its own.
const { createConnection } = require('mysql2/promise');

/**
 * The database worker `workerId` (JEST_WORKER_ID, from 1) uses, as a URL on the same server; any
 * other TEST_DATABASE_URL (none, SQLite) as it is.
 */
function workerDatabaseUrl(baseUrl, workerId) {
  if (!/^(mysql|mariadb):\/\//.test(baseUrl ?? '')) return baseUrl;
  const url = new URL(baseUrl);
  url.pathname = `/${url.pathname.replace(/^\//, '') || 'cal'}_w${workerId}`;
  return url.toString();
}

/** Runs `each(connection, name)` on the database of every worker the run may start (none off MySQL/MariaDB). */
async function forEachWorkerDatabase(globalConfig, each) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (workerDatabaseUrl(baseUrl, 1) === baseUrl) return;
  const connection = await createConnection({ uri: baseUrl });
  try {
    for (let worker = 1; worker <= Math.max(1, globalConfig.maxWorkers); worker += 1) {
      await each(connection, new URL(workerDatabaseUrl(baseUrl, worker)).pathname.slice(1));
    }
  } finally {
    await connection.end();
  }
}

function createWorkerDatabases(globalConfig) {
  return forEachWorkerDatabase(globalConfig, async (connection, name) => {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  });
}

function dropWorkerDatabases(globalConfig) {
  return forEachWorkerDatabase(globalConfig, (connection, name) => connection.query(`DROP DATABASE IF EXISTS \`${name}\``));
}

module.exports = { workerDatabaseUrl, createWorkerDatabases, dropWorkerDatabases };
