import { createTestApp, TestApp } from '../helpers/test-app';
import { changedTables, snapshot } from './db-snapshot';
import { envelopeProblem } from './envelope';
import { registeredRoutes } from './registered-routes';
import { Expectation, Outcome, ROUTE_TABLE, routeKey, RouteSpec, Scenario } from './route-table';
import { PRINCIPALS, Principal, World } from './world';

const ROLE_COLUMNS: Principal[] = ['anonymous', 'administrator', 'editor', 'author', 'contributor', 'subscriber'];

function outcome(expectation: Expectation): Outcome {
  return typeof expectation === 'number' ? { status: expectation } : expectation;
}

function describeOutcome(expected: Outcome): string {
  return expected.code ? `${expected.status} ${expected.code}` : String(expected.status);
}

const CASES = ROUTE_TABLE.flatMap((route) =>
  route.scenarios.flatMap((scenario) => Object.keys(scenario.expect).map((principal) => ({ route, scenario, principal }))),
);

describe('Authorization matrix (e2e)', () => {
  let testApp: TestApp;
  let world: World;

  beforeAll(async () => {
    testApp = await createTestApp();
    world = await World.create(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('lists every route the app registers, and only those', () => {
    const registered = registeredRoutes(testApp.app);
    const listed = ROUTE_TABLE.map(routeKey);
    expect(registered.filter((route) => !listed.includes(route))).toEqual([]);
    expect(listed.filter((route) => !registered.includes(route))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it(`gives every scenario all six role columns, and "other" exactly when the object has an owner (${ROUTE_TABLE.length} routes, ${CASES.length} cases)`, () => {
    const incomplete = ROUTE_TABLE.flatMap((route) =>
      route.scenarios
        .filter((scenario) => {
          const columns = Object.keys(scenario.expect);
          const wanted = scenario.other ? PRINCIPALS : ROLE_COLUMNS;
          return columns.length !== wanted.length || wanted.some((principal) => !columns.includes(principal));
        })
        .map((scenario) => `${routeKey(route)} — ${scenario.name}`),
    );
    expect(incomplete).toEqual([]);
  });

  /**
   * Runs every caller of one scenario and reports all mismatches at once. A refused write must leave
   * the database as it was.
   */
  async function runScenario(route: RouteSpec, scenario: Scenario): Promise<string[]> {
    const failures: string[] = [];
    for (const [principal, expectation] of Object.entries(scenario.expect) as Array<[Principal, Expectation]>) {
      const expected = outcome(expectation);
      const prepared = await scenario.prepare(world, world.caller(principal, scenario.other));
      const caller = prepared.caller ?? world.caller(principal, scenario.other);
      const isWrite = route.method !== 'GET';
      const before = isWrite && expected.status >= 400 ? await snapshot(testApp.dataSource) : undefined;
      const response = await world.send(route.method, prepared.request, { ...caller, principal });
      const got = `${response.status}${response.status >= 400 ? ` ${(response.body as { code?: string }).code}` : ''}`;
      if (response.status !== expected.status || (expected.code !== undefined && response.body?.code !== expected.code)) {
        failures.push(`${principal}: expected ${describeOutcome(expected)}, got ${got} ${JSON.stringify(response.body).slice(0, 160)}`);
        continue;
      }
      if (response.status >= 400) {
        const problem = envelopeProblem(response.status, response.body);
        if (problem) failures.push(`${principal}: ${problem}`);
      }
      if (before) {
        const changed = changedTables(before, await snapshot(testApp.dataSource));
        if (changed.length) failures.push(`${principal}: the refused write changed ${changed.join(', ')}`);
      }
      if (response.status < 400 && prepared.verify) {
        try {
          await prepared.verify(response);
        } catch (error) {
          failures.push(`${principal}: ${(error as Error).message}`);
        }
      }
    }
    return failures;
  }

  describe.each(ROUTE_TABLE.map((route) => [routeKey(route), route] as const))('%s', (_key, route) => {
    it.each(route.scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
      expect(await runScenario(route, scenario)).toEqual([]);
    });
  });
});
