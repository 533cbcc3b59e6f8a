import { join } from 'node:path';
import { CLOCK } from '../src/common/clock';
import { ONE_COUNTER_ENVIRONMENT, proveOneCounter, setEnvironment } from './helpers/queue-instances';
import { createTestApp, TestApp } from './helpers/test-app';
import { TestClock } from './helpers/ticketing-fixtures';

/**
 * A waiting room ticked by three instances on one database at once (issue 44): MariaDB when
 * TEST_DATABASE_URL is set, else one SQLite file (each app otherwise has a database of its own in
 * memory). The instances' tickers run on their timers too (QUEUE_TICK_MS), beside the rounds the test
 * asks of all of them at once; test/helpers/queue-instances.ts says what is proven. The Galera run of
 * the same proof, one instance per node, is in test/galera.e2e-spec.ts.
 */
if (!process.env.TEST_DATABASE_URL) {
  process.env.DATABASE_URL = `sqlite:${join(process.env.DATA_DIR as string, 'queue-instances.sqlite')}`;
}

jest.setTimeout(60_000);

describe('Waiting rooms on several instances (e2e)', () => {
  const clock = new TestClock();
  const instances: TestApp[] = [];
  let restoreEnvironment: () => void = () => undefined;

  beforeAll(async () => {
    restoreEnvironment = setEnvironment(ONE_COUNTER_ENVIRONMENT);
    // One after the other, as a rolling start would: the later ones find the tables migrated and keep them.
    for (let index = 0; index < 3; index += 1) {
      instances.push(await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }], keepTables: index > 0 }));
    }
  });

  afterAll(async () => {
    restoreEnvironment();
    for (const instance of instances.reverse()) await instance.close();
  });

  it('opens, admits and closes once: the counter advances as one instance alone would, each entry admitted once', async () => {
    await proveOneCounter({ instances, clock });
  });
});
