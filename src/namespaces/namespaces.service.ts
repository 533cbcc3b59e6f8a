import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Request } from 'express';
import { DateTime } from 'luxon';
import { resolveTimeZone } from '../common/dates/timezone';
import { invalidNamespace } from '../common/errors/api-error';
import { ApiUrls, NamespaceName } from '../common/http/api-urls.service';
import { appConfig } from '../config/app.config';
import { OpenApiDocument } from './openapi-document';

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const WRITE_METHODS = new Set<string>(['post', 'put', 'patch']);

const NAMESPACE_TITLES: Record<NamespaceName, { title: string; description: string }> = {
  events: {
    title: 'Events Calendar REST API',
    description: 'Events, venues, organizers, event categories and event tags.',
  },
  tickets: {
    title: 'Event Tickets REST API',
    description: 'Tickets, attendees, carts, checkout and check-in.',
  },
  auth: {
    title: 'Authentication REST API',
    description: 'API tokens with scopes: create, list, revoke (docs/tokens.md). Managed with an application password, never with a token.',
  },
  tec: {
    title: 'TEC REST API (tec/v1)',
    description:
      'Events, venues, organizers and tickets in the WordPress post shape, as The Events Calendar 6.15+ and Event Tickets 5.26+ serve them. ' +
      'Every route but /docs requires the X-TEC-EEA acknowledgement header.',
  },
  wp: {
    title: 'WordPress discovery routes',
    description: 'The signed-in user and the site settings, as WordPress serves them.',
  },
};

export interface RouteArgument {
  required: boolean;
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
}

export interface NamespaceRoute {
  namespace: string;
  methods: string[];
  endpoints: Array<{ methods: string[]; args: Record<string, RouteArgument> }>;
  _links?: { self: Array<{ href: string }> };
}

export interface NamespaceIndex {
  namespace: string;
  routes: Record<string, NamespaceRoute>;
  _links: { up: Array<{ href: string }> };
}

/** WordPress's root index (`GET /wp-json/`), with the parts that describe this API. */
export interface RootIndex {
  name: string;
  description: string;
  url: string;
  home: string;
  /** The site zone's offset from UTC now, in hours. */
  gmt_offset: number;
  timezone_string: string;
  namespaces: string[];
  authentication: Record<string, never>;
  routes: Record<string, NamespaceRoute>;
  _links: { help: Array<{ href: string }> };
}

const NAMESPACE_NAMES: NamespaceName[] = ['events', 'tickets', 'auth', 'tec', 'wp'];

/** The offset of a zone from UTC now, in hours (WordPress's `gmt_offset` option). */
export function siteGmtOffset(zone: string): number {
  return DateTime.now().setZone(resolveTimeZone(zone) ?? 'UTC').offset / 60;
}

function isReference(value: unknown): value is ReferenceObject {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/** The schemas that `root` refers to, directly or through other schemas, in the order of `schemas`. */
export function reachableSchemas(
  root: unknown,
  schemas: Record<string, SchemaObject | ReferenceObject>,
): Record<string, SchemaObject | ReferenceObject> {
  const reached = new Set<string>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...(value as unknown[]));
    else if (typeof value === 'object' && value !== null) {
      const ref = (value as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
        const name = ref.slice(SCHEMA_REF.length);
        if (!reached.has(name) && schemas[name]) {
          reached.add(name);
          pending.push(schemas[name]);
        }
      }
      pending.push(...(Object.values(value) as unknown[]));
    }
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
}

const SCHEMA_REF = '#/components/schemas/';

/** The namespace index and doc, both derived from the generated OpenAPI document. */
@Injectable()
export class NamespacesService {
  private readonly docs = new Map<NamespaceName, OpenAPIObject>();
  private readonly indexes = new Map<NamespaceName, Array<[string, Omit<NamespaceRoute, '_links'>, string | null]>>();

  constructor(
    private readonly openApi: OpenApiDocument,
    private readonly urls: ApiUrls,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  /** The OpenAPI 3 document of one namespace, paths relative to its server URL. */
  doc(name: NamespaceName, request: Request): OpenAPIObject {
    let doc = this.docs.get(name);
    if (!doc) {
      doc = this.buildDoc(name);
      this.docs.set(name, doc);
    }
    return { ...doc, servers: [{ url: `${this.urls.namespaceUrl(request, name)}/` }] };
  }

  /**
   * The WordPress-style index: every route of the namespace with its methods and arguments. As in
   * WordPress, the `namespace` argument names the namespace shown (the route's own by default);
   * one the API does not have is 404 `rest_invalid_namespace`.
   */
  index(name: NamespaceName, request: Request, requested?: unknown): NamespaceIndex {
    const shown = requested === undefined ? name : NAMESPACE_NAMES.find((candidate) => this.urls.namespace(candidate) === requested);
    if (!shown) throw invalidNamespace();
    return {
      namespace: this.urls.namespace(shown),
      routes: this.indexRoutes(shown, request),
      _links: { up: [{ href: this.urls.apiRoot(request) }] },
    };
  }

  /** WordPress's root index: the namespaces and all their routes, with the root route itself. */
  rootIndex(request: Request): RootIndex {
    const apiRoot = this.urls.apiRoot(request);
    const origin = this.urls.origin(request);
    const rootRoute: NamespaceRoute = {
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { required: false, default: 'view' } } }],
      _links: { self: [{ href: apiRoot }] },
    };
    return {
      name: this.urls.siteName,
      description: this.urls.siteDescription,
      url: origin,
      home: origin,
      gmt_offset: siteGmtOffset(this.urls.siteTimezone),
      timezone_string: this.urls.siteTimezone,
      namespaces: NAMESPACE_NAMES.map((name) => this.urls.namespace(name)),
      authentication: {},
      routes: Object.assign({ '/': rootRoute }, ...NAMESPACE_NAMES.map((name) => this.indexRoutes(name, request))) as Record<
        string,
        NamespaceRoute
      >,
      _links: { help: [{ href: `${apiRoot}docs` }] },
    };
  }

  private indexRoutes(name: NamespaceName, request: Request): Record<string, NamespaceRoute> {
    let routes = this.indexes.get(name);
    if (!routes) {
      routes = this.buildRoutes(name);
      this.indexes.set(name, routes);
    }
    return Object.fromEntries(
      routes.map(([key, route, selfPath]) => [
        key,
        selfPath === null ? route : { ...route, _links: { self: [{ href: this.urls.namespaceUrl(request, name, selfPath) }] } },
      ]),
    );
  }

  private namespacePathPrefix(name: NamespaceName): string {
    return `${this.config.apiRoot}/${this.urls.namespace(name)}`;
  }

  /** Paths of one namespace, keyed relative to the namespace root ('' for the root itself). */
  private namespacePaths(name: NamespaceName): Array<[string, PathItemObject]> {
    const prefix = this.namespacePathPrefix(name);
    return Object.entries(this.openApi.get().paths)
      .filter(([path]) => path === prefix || path.startsWith(`${prefix}/`))
      .map(([path, item]) => [path.slice(prefix.length), item]);
  }

  private buildDoc(name: NamespaceName): OpenAPIObject {
    const full = this.openApi.get();
    const paths = Object.fromEntries(this.namespacePaths(name).map(([path, item]) => [path === '' ? '/' : path, item]));
    return {
      openapi: full.openapi,
      info: { version: '1.0.0', ...NAMESPACE_TITLES[name] },
      servers: [],
      paths,
      // Only the schemas this namespace's paths reach, so that a client generated from it has its own types only.
      components: { ...full.components, schemas: reachableSchemas(paths, full.components?.schemas ?? {}) },
      security: full.security,
      tags: full.tags?.filter((tag) => tag.name === name),
    };
  }

  private buildRoutes(name: NamespaceName): Array<[string, Omit<NamespaceRoute, '_links'>, string | null]> {
    const namespace = this.urls.namespace(name);
    return this.namespacePaths(name).map(([path, item]) => {
      const routePattern = path.replace(/\{(\w+)\}/g, (_match, parameter: string) => this.parameterPattern(item, parameter));
      const endpoints: NamespaceRoute['endpoints'] = [];
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const args = this.operationArguments(operation);
        const signature = JSON.stringify(args);
        // Writes sharing their arguments form one endpoint, as the original registers updates.
        const isWrite = WRITE_METHODS.has(method);
        const same = endpoints.find(
          (endpoint) => isWrite && WRITE_METHODS.has(endpoint.methods[0].toLowerCase()) && JSON.stringify(endpoint.args) === signature,
        );
        if (same) same.methods.push(method.toUpperCase());
        else endpoints.push({ methods: [method.toUpperCase()], args });
      }
      const route = { namespace, methods: endpoints.flatMap((endpoint) => endpoint.methods), endpoints };
      const hasVariables = path.includes('{');
      return [`/${namespace}${routePattern}`, route, hasVariables ? null : path];
    });
  }

  private parameterPattern(item: PathItemObject, parameter: string): string {
    const operations = HTTP_METHODS.map((method) => item[method]).filter((operation): operation is OperationObject => !!operation);
    const declared = operations
      .flatMap((operation) => operation.parameters ?? [])
      .find(
        (candidate): candidate is ParameterObject => !isReference(candidate) && candidate.name === parameter && candidate.in === 'path',
      );
    const schema = declared?.schema && !isReference(declared.schema) ? declared.schema : undefined;
    const numeric = schema?.type === 'integer' || schema?.type === 'number';
    return `(?P<${parameter}>${numeric ? '\\d+' : '[^/]+'})`;
  }

  private resolveSchema(schema: SchemaObject | ReferenceObject | undefined): SchemaObject | undefined {
    if (!schema) return undefined;
    if (!isReference(schema)) return schema;
    const name = schema.$ref.split('/').pop() ?? '';
    const resolved = this.openApi.get().components?.schemas?.[name];
    return resolved && !isReference(resolved) ? resolved : undefined;
  }

  private describe(schema: SchemaObject | undefined, required: boolean, description?: string): RouteArgument {
    const argument: RouteArgument = { required };
    if (schema?.type) argument.type = String(schema.type);
    if (description ?? schema?.description) argument.description = description ?? schema?.description;
    if (schema?.default !== undefined) argument.default = schema.default;
    if (schema?.enum) argument.enum = schema.enum;
    return argument;
  }

  private operationArguments(operation: OperationObject): Record<string, RouteArgument> {
    const args: Record<string, RouteArgument> = {};
    for (const parameter of operation.parameters ?? []) {
      if (isReference(parameter) || (parameter.in !== 'path' && parameter.in !== 'query')) continue;
      args[parameter.name] = this.describe(this.resolveSchema(parameter.schema), parameter.required ?? false, parameter.description);
    }
    const body = operation.requestBody;
    const content = body && !isReference(body) ? Object.values(body.content)[0] : undefined;
    const bodySchema = this.resolveSchema(content?.schema);
    const requiredFields = new Set(bodySchema?.required ?? []);
    for (const [field, fieldSchema] of Object.entries(bodySchema?.properties ?? {})) {
      args[field] = this.describe(this.resolveSchema(fieldSchema), requiredFields.has(field));
    }
    return args;
  }
}
