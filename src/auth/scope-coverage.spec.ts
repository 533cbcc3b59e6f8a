import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PATH_METADATA } from '@nestjs/common/constants';
import { REQUIRED_SCOPE, routeHandlers, ScopeRequirement } from './scope-decorators';

/**
 * Every route of every controller declares what an API token needs on it (`@RequireScope`,
 * `@AnyScope` or `@NoTokens`, on the handler or its class): a route added without one fails here.
 * The scope guard refuses token callers on an undeclared route anyway; this keeps that from being
 * how a route ends up closed (or, worse, what someone "fixes" by opening it wide).
 */
const SRC = join(__dirname, '..');

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

type ControllerClass = abstract new (...args: never[]) => unknown;

function controllersOf(path: string): ControllerClass[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(path) as Record<string, unknown>;
  return Object.values(exported).filter(
    (value): value is ControllerClass => typeof value === 'function' && Reflect.hasMetadata(PATH_METADATA, value),
  );
}

describe('scope declarations', () => {
  const files = controllerFiles(SRC);
  const controllers = files.flatMap((path) => controllersOf(path).map((controller) => ({ path: relative(SRC, path), controller })));

  it('finds the controllers', () => {
    expect(controllers.length).toBeGreaterThan(35);
  });

  it('declares a scope (or AnyScope, or NoTokens) on every route of every controller', () => {
    const undeclared = controllers.flatMap(({ path, controller }) =>
      routeHandlers(controller)
        .filter((handler) => !Reflect.getMetadata(REQUIRED_SCOPE, handler) && !Reflect.getMetadata(REQUIRED_SCOPE, controller))
        .map((handler) => `${path} ${controller.name}.${(handler as { name: string }).name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('counts the routes open to any token: public ones only', () => {
    const open = controllers.flatMap(({ controller }) =>
      routeHandlers(controller)
        .filter((handler) => {
          const requirement = (Reflect.getMetadata(REQUIRED_SCOPE, handler) ?? Reflect.getMetadata(REQUIRED_SCOPE, controller)) as
            ScopeRequirement | undefined;
          return requirement?.kind === 'any';
        })
        .map((handler) => `${controller.name}.${(handler as { name: string }).name}`),
    );
    // Indexes and docs, health and metrics, nonces, the waiting room's buyer routes, the payment
    // provider's webhook, a device's initialization, the WordPress discovery routes, and the MCP endpoint
    // (whose tools each ask for their own scope, src/access/tool-access.ts) with its metadata.
    expect(open.sort()).toEqual([
      'ApiRootController.index',
      'AuthNamespaceController.doc',
      'AuthNamespaceController.index',
      'DevicesController.initialize',
      'EventsNamespaceController.doc',
      'EventsNamespaceController.index',
      'HealthController.check',
      'HealthController.live',
      'HealthController.ready',
      'McpController.get',
      'McpController.metadata',
      'McpController.other',
      'McpController.post',
      'MetricsController.scrape',
      'NoncesController.issue',
      'PaymentWebhookController.receive',
      'QueuesController.claim',
      'QueuesController.entry',
      'QueuesController.join',
      'QueuesController.revoke',
      'QueuesController.sharedStatus',
      'TecNamespaceController.docs',
      'TecNamespaceController.index',
      'TicketsNamespaceController.doc',
      'TicketsNamespaceController.index',
      'WpDiscoveryController.me',
      'WpDiscoveryController.settings',
    ]);
  });
});
