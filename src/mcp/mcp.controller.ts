import { All, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { RequestContext } from '../auth/request-context';
import { AnyScope } from '../auth/scope-decorators';
import { SCOPES } from '../auth/scopes';
import { ApiError } from '../common/errors/api-error';
import { RATE_LIMIT_STORE, RateLimitStore } from '../common/throttling/rate-limit-store';
import { appConfig } from '../config/app.config';
import { McpAudit } from './mcp-audit';
import { hostAllowed, originAllowed } from './mcp-request-checks';
import { McpServerFactory } from './mcp-server.factory';
import { EVENT_RESOURCE, McpToolsRegistry, SALES_RESOURCE } from './mcp-tools.registry';
import { toolRefusal, ToolRefusal } from '../access/tool-access';

interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; uri?: unknown };
}

/** A JSON-RPC error as the transport's own refusals look, plus the API's envelope in `data`. */
function jsonRpcError(response: Response, status: number, message: string, data?: object, id: string | number | null = null): void {
  response.status(status).json({ jsonrpc: '2.0', id, error: { code: -32000, message, ...(data ? { data } : {}) } });
}

/**
 * `/mcp`: the Streamable HTTP MCP endpoint (docs/mcp.md), stateless with JSON answers: each POST
 * gets a server and a transport of its own (the SDK's stateless pattern), speaking what the SDK
 * speaks (2025-11-25, negotiating 2025-06-18 and 2025-03-26). The caller is whoever the global
 * guards authenticated (anonymous allowed); the request limits apply as to any route. Before the
 * transport sees a request, this checks what the transport rules ask of the HTTP layer: the Origin
 * and Host (403), the step-up challenge of a tool the caller's token or lack of one keeps them from
 * (401/403 with `WWW-Authenticate`), and the tool calls' own per-minute limit (429).
 */
// Any token may connect: each tool asks for its own scope (access/tool-access.ts), with the MCP step-up challenge.
@AnyScope()
@ApiExcludeController()
@Controller()
export class McpController {
  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly servers: McpServerFactory,
    private readonly registry: McpToolsRegistry,
    private readonly audit: McpAudit,
  ) {}

  @Post('mcp')
  async post(@Req() request: Request, @Res() response: Response, @RequestContext() context: RequestContext): Promise<void> {
    if (!this.checkOrigin(request, response)) return;
    const messages = (Array.isArray(request.body) ? request.body : [request.body]) as JsonRpcMessage[];
    for (const message of messages) {
      if (!message || typeof message !== 'object') continue;
      const refusal = this.refusalOf(message, context);
      if (refusal) {
        this.audit.record(context, {
          tool: String(message.params?.name ?? message.params?.uri),
          outcome: 'refused',
          code: refusal.kind,
          ms: 0,
        });
        return this.challenge(response, context, refusal, message.id ?? null);
      }
    }
    const calls = messages.filter((message) => message?.method === 'tools/call').length;
    if (calls > 0 && !(await this.withinToolCallLimit(context, calls, response))) return;

    const server = this.servers.create(context);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  /** No SSE stream to open and no session to end: the endpoint is stateless (2025-11-25 lets GET and DELETE answer 405). */
  @Get('mcp')
  @HttpCode(405)
  get(@Req() request: Request, @Res() response: Response): void {
    this.methodNotAllowed(request, response);
  }

  @All('mcp')
  other(@Req() request: Request, @Res() response: Response): void {
    this.methodNotAllowed(request, response);
  }

  /** RFC 9728 Protected Resource Metadata, at the root and under the resource's path. */
  @Get(['.well-known/oauth-protected-resource', '.well-known/oauth-protected-resource/mcp'])
  @HttpCode(200)
  metadata(@RequestContext() context: RequestContext) {
    return {
      resource: `${context.origin}/mcp`,
      resource_name: this.config.siteName,
      bearer_methods_supported: ['header'],
      scopes_supported: [...SCOPES],
      resource_documentation: `${context.origin}${this.config.apiRoot}/docs`,
    };
  }

  /** Not an MCP message: the API's error envelope. */
  private methodNotAllowed(request: Request, response: Response): void {
    if (!this.checkOrigin(request, response)) return;
    response.setHeader('Allow', 'POST');
    response
      .status(405)
      .json(
        new ApiError(
          'mcp-method-not-allowed',
          'This MCP endpoint is stateless: POST only, no stream to open nor session to end.',
          405,
        ).toBody(),
      );
  }

  private checkOrigin(request: Request, response: Response): boolean {
    const rules = { publicUrl: this.config.publicUrl, ...this.config.mcp };
    const host = request.headers.host;
    if (!hostAllowed(host, rules)) {
      jsonRpcError(response, 403, `Host not allowed: ${String(host)}`);
      return false;
    }
    const origin = request.headers.origin;
    if (!originAllowed(origin, `${request.protocol}://${host}`, rules)) {
      jsonRpcError(response, 403, `Origin not allowed: ${origin}`);
      return false;
    }
    return true;
  }

  /** What keeps the caller from a tools/call or resources/read that a token (or a better one) would allow. */
  private refusalOf(message: JsonRpcMessage, context: RequestContext): ToolRefusal | null {
    if (message.method === 'tools/call' && typeof message.params?.name === 'string') {
      const tool = this.registry.get(message.params.name);
      if (!tool) return null;
      const args =
        message.params.arguments && typeof message.params.arguments === 'object'
          ? (message.params.arguments as Record<string, unknown>)
          : {};
      const refusal = this.registry.refusal(tool, args, context.user);
      return refusal?.kind === 'role' ? null : refusal;
    }
    if (message.method === 'resources/read' && typeof message.params?.uri === 'string' && message.params.uri.startsWith('cal://events/')) {
      const refusal = toolRefusal(context.user, message.params.uri.endsWith('/sales-summary') ? SALES_RESOURCE : EVENT_RESOURCE);
      return refusal?.kind === 'role' ? null : refusal;
    }
    return null;
  }

  /**
   * The MCP authorization step-up: 401 with the metadata's address and the scope for an anonymous
   * caller, 403 `insufficient_scope` for a token without it (RFC 6750 §3, RFC 9728 §5.1).
   */
  private challenge(response: Response, context: RequestContext, refusal: ToolRefusal, id: string | number | null): void {
    if (refusal.kind === 'role') return;
    const metadata = `${context.origin}/.well-known/oauth-protected-resource/mcp`;
    const anonymous = refusal.kind === 'anonymous';
    const error = anonymous ? '' : 'error="insufficient_scope", ';
    response.setHeader('WWW-Authenticate', `Bearer ${error}resource_metadata="${metadata}", scope="${refusal.scope}"`);
    const status = anonymous ? 401 : 403;
    jsonRpcError(
      response,
      status,
      anonymous ? `This tool needs a Bearer token with the scope ${refusal.scope}.` : `The token lacks the scope ${refusal.scope}.`,
      { code: anonymous ? 'rest_forbidden' : 'insufficient_scope', data: { status, scope: refusal.scope } },
      id,
    );
  }

  /** The tool calls' own limit, per token, else per user, else per address (429 past it). */
  private async withinToolCallLimit(context: RequestContext, calls: number, response: Response): Promise<boolean> {
    const user = context.user;
    const key = user?.token ? `token:${user.token.id}` : user ? `user:${user.id}` : `ip:${context.clientAddress ?? 'unknown'}`;
    const limit = this.config.mcp.toolCallsPerMinute;
    let hits = { totalHits: 0, timeToExpire: 60 };
    // A fixed window of a minute, as the request limits count (the store's throttler counter).
    for (let index = 0; index < calls; index += 1) hits = await this.store.increment(key, 60_000, limit, 0, 'mcp-tool-calls');
    if (hits.totalHits <= limit) return true;
    response.setHeader('Retry-After', String(Math.max(1, hits.timeToExpire)));
    jsonRpcError(response, 429, 'Too many tool calls; try again later.', { code: 'rest_too_many_requests', data: { status: 429 } });
    return false;
  }
}
