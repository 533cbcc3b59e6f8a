import { Controller, RequestMethod } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import type { RouteInfo } from '@nestjs/common/interfaces';

/** Controllers mounted under API_ROOT but outside API_PREFIX, each with its path below API_ROOT. */
const mounted = new Map<object, string>();

/**
 * A controller whose routes sit right under the API root (`/wp-json/tec/v1/events` in drop-in
 * mode, `/tec/v1/events` natively), beside the `{API_PREFIX}/...` namespaces rather than inside
 * them: the namespaces of other plugins (`tec/v1`) and of WordPress itself (`wp/v2`) keep their
 * names whatever API_PREFIX is. `mountBesideNamespaces` gives them their final path at set-up.
 */
export function BesideNamespaces(path: string): ClassDecorator {
  return (target) => {
    mounted.set(target, path.replace(/^\/+|\/+$/g, ''));
    Controller(path)(target);
  };
}

/**
 * Puts every `@BesideNamespaces` controller under `apiRoot` and answers the routes to leave out of the
 * global prefix. Called by setupApp before the routes are registered; calling it again with another
 * API root (another app in the same process) moves them.
 */
export function mountBesideNamespaces(apiRoot: string): RouteInfo[] {
  const root = apiRoot.replace(/^\/+/, '');
  const exclusions: RouteInfo[] = [];
  const seen = new Set<string>();
  for (const [target, path] of mounted) {
    const full = root === '' ? path : `${root}/${path}`;
    Reflect.defineMetadata(PATH_METADATA, full, target);
    // One exclusion per namespace (`tec/v1`, `wp/v2`) covers all its controllers.
    const namespace = full
      .split('/')
      .slice(0, root === '' ? 2 : root.split('/').length + 2)
      .join('/');
    if (seen.has(namespace)) continue;
    seen.add(namespace);
    exclusions.push({ path: namespace, method: RequestMethod.ALL }, { path: `${namespace}/*rest`, method: RequestMethod.ALL });
  }
  return exclusions;
}
