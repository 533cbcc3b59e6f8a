// On MySQL/MariaDB (TEST_DATABASE_URL) each Jest worker runs its files on a database of its own,
// `<name>_w<worker>`, so that files run side by side as they do on SQLite: each app empties its
// database's tables when it starts, which one shared database would allow for one file at a time.
// Jest's globalSetup and globalTeardown (jest.config.js) make them fresh before a run and drop them
// after it; test/setup-env.ts points each worker at its own.
const { createConnection } = require('mysql2/promise');

/** The database worker `workerId` (JEST_WORKER_ID, from 1) uses, as a URL on the same server. */
function workerDatabaseUrl(baseUrl, workerId) {
  const url = new URL(baseUrl);
  url.pathname = `/${url.pathname.replace(/^\//, '') || 'cal'}_w${workerId}`;
  return url.toString();
}

function onMysql() {
  return /^(mysql|mariadb):\/\//.test(process.env.TEST_DATABASE_URL ?? '');
}

/** Runs `each(connection, name)` for the database of every worker a run of `workers` may start. */
async function forEachWorkerDatabase(workers, each) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  const connection = await createConnection({ uri: baseUrl });
  try {
    for (let worker = 1; worker <= workers; worker += 1) {
      await each(connection, new URL(workerDatabaseUrl(baseUrl, worker)).pathname.slice(1));
    }
  } finally {
    await connection.end();
  }
}

async function createWorkerDatabases(globalConfig) {
  if (!onMysql()) return;
  await forEachWorkerDatabase(Math.max(1, globalConfig.maxWorkers), async (connection, name) => {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  });
}

async function dropWorkerDatabases(globalConfig) {
  if (!onMysql()) return;
  await forEachWorkerDatabase(Math.max(1, globalConfig.maxWorkers), (connection, name) =>
    connection.query(`DROP DATABASE IF EXISTS \`${name}\``),
  );
}

module.exports = { workerDatabaseUrl, createWorkerDatabases, dropWorkerDatabases };
