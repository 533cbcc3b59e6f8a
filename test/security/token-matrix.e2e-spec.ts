import request from 'supertest';
import { ApiToken } from '../../src/auth/api-token.entity';
import { REQUIRED_SCOPE, type ScopeRequirement } from '../../src/auth/scope-decorators';
import { McpController } from '../../src/mcp/mcp.controller';
import { OpenApiDocument } from '../../src/namespaces/openapi-document';
import { SCOPES, type Scope } from '../../src/auth/scopes';
import { createTestApp, TestApp } from '../helpers/test-app';
import { envelopeProblem } from './envelope';
import { Expectation, Outcome, ROUTE_TABLE, routeKey, RouteSpec, Scenario } from './route-table';
import { Caller, World } from './world';

/**
 * THE AUTHORIZATION MATRIX FOR API TOKENS (issue 43): every route and scenario of the role matrix
 * (route-table.ts), called with Bearer tokens of the administrator (the widest role, so that what a
 * token is refused is the token's doing):
 *
 * - a token holding only the route's scope gets what the administrator gets with Basic;
 * - a token holding every scope but the route's gets 403 insufficient_scope (routes open to any
 *   token: what the administrator gets; routes closed to tokens, cal/auth/v1: 403 rest_forbidden);
 * - a token limited to another event gets nothing beyond what an anonymous caller gets where the
 *   scenario acts on an event's objects (lists and objects of no event may answer, filtered);
 * - a revoked and an expired token get 401 invalid_token on every route the API serves.
 */

const ADMIN_COLUMN = 'administrator' as const;

function outcome(expectation: Expectation | undefined): Outcome | undefined {
  return expectation === undefined ? undefined : typeof expectation === 'number' ? { status: expectation } : expectation;
}

/** The MCP endpoint's routes (src/mcp), left out of the OpenAPI document. */
const MCP_ROUTES = ['POST /mcp', 'GET /mcp', 'GET /.well-known/oauth-protected-resource', 'GET /.well-known/oauth-protected-resource/mcp'];

/** Routes @nestjs/swagger serves by itself (the documentation page): no guard sees their credentials. */
const OUTSIDE_NEST = (route: RouteSpec) => route.path === '/docs-json' || route.path.startsWith('/docs');

/**
 * Routes whose scenario does not act on one event's objects: a token limited to another event may
 * be answered (lists filtered to its events, terms and webhooks serve every event, one's own
 * devices, carts and export jobs, the waiting room's public routes).
 */
const NOT_ABOUT_ONE_EVENT = [
  /^GET \/cal\/events\/v1\/(categories|tags)/,
  /^(POST|PUT|PATCH|DELETE) \/cal\/events\/v1\/(categories|tags)/,
  /^[A-Z]+ \/cal\/tickets\/v1\/webhooks/,
  /^GET \/cal\/tickets\/v1\/(attendees|orders|coupons|checkin-lists|checkins|devices|waitlist|tickets|nonces)$/,
  /^GET \/cal\/tickets\/v1\/(attendees|orders)\/export$/,
  /^POST \/cal\/tickets\/v1\/(attendees|orders)\/export$/,
  /^[A-Z]+ \/cal\/tickets\/v1\/exports\//,
  /^GET \/cal\/tickets\/v1\/reports\/(sales|summary)$/,
  /^[A-Z]+ \/cal\/tickets\/v1\/cart/,
  /^POST \/cal\/tickets\/v1\/devices\/initialize$/,
  /^GET \/cal\/tickets\/v1\/checkin\/search$/,
  /^[A-Z]+ \/cal\/tickets\/v1\/queues\/:id\/(status|entries)/,
  /^GET \/cal\/events\/v1\/(events|venues|organizers)$/,
  /^GET \/cal\/events\/v1\/events\/ics$/,
  /^GET \/tec\/v1\/(events|venues|organizers|tickets)$/,
  /^GET \/wp\/v2\//,
];

describe('Authorization matrix for API tokens (e2e)', () => {
  let testApp: TestApp;
  let world: World;
  const tokens = new Map<string, string>();
  let otherEventId: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    world = await World.create(testApp);
    otherEventId = (await world.event('administrator')).id;
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** A token of the administrator, made once per kind. */
  async function token(key: string, body: Record<string, unknown>): Promise<string> {
    let secret = tokens.get(key);
    if (!secret) {
      const response = await world.send(
        'POST',
        { path: '/cal/auth/v1/tokens', body: { name: `matrix ${key}`, pii: 'full', ...body } },
        world.caller('administrator'),
      );
      if (response.status !== 201) throw new Error(`token ${key}: ${response.status} ${JSON.stringify(response.body)}`);
      secret = (response.body as { token: string }).token;
      tokens.set(key, secret);
      const id = (response.body as { id: number }).id;
      if (key === 'revoked') await world.send('POST', { path: `/cal/auth/v1/tokens/${id}/revoke` }, world.caller('administrator'));
      if (key === 'expired') await testApp.dataSource.getRepository(ApiToken).update({ id }, { expiresAt: new Date(Date.now() - 1000) });
    }
    return secret;
  }

  const only = (scope: Scope) => token(`only ${scope}`, { scopes: [scope] });
  const allBut = (scope: Scope) => token(`all but ${scope}`, { scopes: SCOPES.filter((other) => other !== scope) });
  const everything = () => token('everything', { scopes: [...SCOPES] });
  const limited = () => token('limited', { scopes: [...SCOPES], limit_events: [otherEventId] });

  /** The scope requirement of the handler serving the route (its OpenAPI operation's x-cal-scope). */
  function requirementOf(route: RouteSpec): ScopeRequirement | 'outside' {
    if (OUTSIDE_NEST(route)) return 'outside';
    return scopeByRoute().get(routeKey(route)) ?? 'outside';
  }

  let scopes: Map<string, ScopeRequirement> | undefined;
  /** `METHOD /path` → the requirement its handler declares, from the OpenAPI document's x-cal-scope. */
  function scopeByRoute(): Map<string, ScopeRequirement> {
    if (scopes) return scopes;
    scopes = new Map();
    for (const [path, item] of Object.entries(testApp.app.get(OpenApiDocument).get().paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const value = (item[method] as Record<string, unknown> | undefined)?.['x-cal-scope'];
        if (typeof value !== 'string') continue;
        const requirement: ScopeRequirement =
          value === 'any' ? { kind: 'any' } : value === 'no-tokens' ? { kind: 'no-tokens' } : { kind: 'scope', scope: value as Scope };
        scopes.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, requirement);
      }
    }
    // The MCP endpoint speaks JSON-RPC and stays out of the OpenAPI document: its controller's declaration.
    const mcp = Reflect.getMetadata(REQUIRED_SCOPE, McpController) as ScopeRequirement;
    for (const key of MCP_ROUTES) scopes.set(key, mcp);
    return scopes;
  }

  async function send(route: RouteSpec, scenario: Scenario, secret: string): Promise<request.Response> {
    const admin = world.caller(ADMIN_COLUMN);
    const prepared = await scenario.prepare(world, admin);
    const caller: Caller = { principal: ADMIN_COLUMN, user: { ...admin.user!, authorization: `Bearer ${secret}` } };
    return world.send(route.method, prepared.request, caller);
  }

  const describeResponse = (response: request.Response) =>
    `${response.status} ${(response.body as { code?: string })?.code ?? ''} ${JSON.stringify(response.body).slice(0, 120)}`;

  /** `response` is `expected` (status, and code when given); else what it was. */
  function mismatch(label: string, expected: Outcome, response: request.Response): string[] {
    if (response.status !== expected.status || (expected.code !== undefined && response.body?.code !== expected.code))
      return [`${label}: expected ${expected.status} ${expected.code ?? ''}, got ${describeResponse(response)}`];
    const problem = response.status >= 400 ? envelopeProblem(response.status, response.body) : null;
    return problem ? [`${label}: ${problem}`] : [];
  }

  /** A token holding only the route's scope gets what the administrator gets. */
  async function withItsScope(route: RouteSpec, scenario: Scenario, requirement: ScopeRequirement, admin: Outcome): Promise<string[]> {
    if (requirement.kind === 'no-tokens') return [];
    const secret = await only(requirement.kind === 'scope' ? requirement.scope : 'queue:bypass');
    return mismatch('with its scope', admin, await send(route, scenario, secret));
  }

  /** A token holding every scope but the route's is refused, naming it. */
  async function withoutItsScope(route: RouteSpec, scenario: Scenario, requirement: ScopeRequirement, admin: Outcome): Promise<string[]> {
    const refused = await send(route, scenario, requirement.kind === 'scope' ? await allBut(requirement.scope) : await everything());
    if (requirement.kind === 'any') return mismatch('without a scope', admin, refused);
    if (requirement.kind === 'no-tokens') return mismatch('closed to tokens', { status: 403, code: 'rest_forbidden' }, refused);
    const failures = mismatch('without its scope', { status: 403, code: 'insufficient_scope' }, refused);
    const challenge = `Bearer error="insufficient_scope", scope="${requirement.scope}"`;
    if (refused.headers['www-authenticate'] !== challenge)
      failures.push(`without its scope: WWW-Authenticate ${refused.headers['www-authenticate']}`);
    return failures;
  }

  /** Limited to another event: nothing beyond what anyone gets, where the scenario is about one event. */
  async function limitedElsewhere(route: RouteSpec, scenario: Scenario, anonymous: Outcome | undefined): Promise<string[]> {
    if (!anonymous || anonymous.status < 400 || NOT_ABOUT_ONE_EVENT.some((pattern) => pattern.test(routeKey(route)))) return [];
    const response = await send(route, scenario, await limited());
    return response.status < 400
      ? [`limited to another event: anonymous gets ${anonymous.status}, the token got ${describeResponse(response)}`]
      : [];
  }

  async function revokedAndExpired(route: RouteSpec, scenario: Scenario): Promise<string[]> {
    const failures: string[] = [];
    for (const key of ['revoked', 'expired'])
      failures.push(
        ...mismatch(key, { status: 401, code: 'invalid_token' }, await send(route, scenario, await token(key, { scopes: [...SCOPES] }))),
      );
    return failures;
  }

  async function runScenario(route: RouteSpec, scenario: Scenario): Promise<string[]> {
    const admin = outcome(scenario.expect[ADMIN_COLUMN]);
    const requirement = requirementOf(route);
    if (!admin) return ['no administrator column'];
    if (requirement === 'outside') {
      const response = await send(route, scenario, await everything());
      return response.status === admin.status ? [] : [`outside Nest: expected ${admin.status}, got ${describeResponse(response)}`];
    }
    return [
      ...(await withItsScope(route, scenario, requirement, admin)),
      ...(await withoutItsScope(route, scenario, requirement, admin)),
      ...(requirement.kind === 'no-tokens' ? [] : await limitedElsewhere(route, scenario, outcome(scenario.expect.anonymous))),
      ...(await revokedAndExpired(route, scenario)),
    ];
  }

  it('reads a scope declaration for every route the role matrix lists', () => {
    const missing = ROUTE_TABLE.filter((route) => !OUTSIDE_NEST(route) && !scopeByRoute().has(routeKey(route))).map(routeKey);
    expect(missing).toEqual([]);
  });

  describe.each(ROUTE_TABLE.map((route) => [routeKey(route), route] as const))('%s', (_key, route) => {
    it.each(route.scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
      expect(await runScenario(route, scenario)).toEqual([]);
    });
  });
});
