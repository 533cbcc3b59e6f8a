import { HttpException, Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { mayUseTool } from '../access/tool-access';
import { redactPersonalData, shouldRedact } from '../auth/personal-data';
import type { RequestContext } from '../auth/request-context';
import { ApiError } from '../common/errors/api-error';
import { EventReads } from '../catalogue/event-reads.service';
import type { EventResponse } from '../events/dto/event.response';
import { SummaryReportQuery } from '../reports/dto/report.query';
import { ReportsService } from '../reports/reports.service';
import { parseJsonText } from '../tec-v1/tec-responses';
import { Confirmations, CONFIRMATION_TTL_MS } from './confirmations';
import { McpAudit, ToolCallOutcome } from './mcp-audit';
import { asQuery, McpTool, signedIn, ToolCall, validated } from './mcp-tool';
import { EVENT_RESOURCE, McpToolsRegistry, SALES_RESOURCE } from './mcp-tools.registry';

export const SERVER_INFO = { name: 'cal', title: 'cal events and box office', version: '1.0.0' };

const INSTRUCTIONS =
  'Tools over the cal calendar and box office. Reads are public; writes need a Bearer API token with the scopes each tool names. ' +
  'refund_order, cancel_order, delete_event and revoke_device answer a preview and a confirmation handle first: show the preview to the person, and call again with `confirmation` only if they agree.';

/**
 * One JSON Schema validator for every request's server: the SDK makes an Ajv instance per server
 * unless given one, which cost 4 to 7 ms a request here, more than the rest of a `ping` together.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

const EVENT_URI = /^cal:\/\/events\/(\d{1,10})(\/sales-summary)?$/;

/** A tool's answer: TEC's tools a sentence and the JSON, the others the JSON. */
function toolResult(value: unknown, redact: boolean): CallToolResult {
  const shown = redact ? redactPersonalData(value) : value;
  if (shown && typeof shown === 'object' && (shown as { tec?: boolean }).tec === true) {
    const { summary, body } = shown as { summary: string; body: unknown };
    return {
      content: [
        { type: 'text', text: summary },
        { type: 'text', text: JSON.stringify(body, null, 2) },
      ],
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify(shown, null, 2) }] };
}

/** The REST API's error envelope as a tool error (MCP: errors of a tool's own work are results with isError). */
function errorBody(error: unknown): { code: string; message: string; data: Record<string, unknown> } | null {
  if (error instanceof ApiError) return error.toBody();
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message = typeof response === 'object' && response && 'error' in response ? String(response.error) : error.message;
    return { code: 'rest_error', message, data: { status: error.getStatus() } };
  }
  return null;
}

/**
 * Builds the MCP server of one request (the SDK's stateless pattern: a server and a transport per
 * POST). What it holds is small: the handlers close over the caller and the registry built at
 * start-up, so a request costs a few objects.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly registry: McpToolsRegistry,
    private readonly confirmations: Confirmations,
    private readonly audit: McpAudit,
    private readonly eventReads: EventReads,
    private readonly reports: ReportsService,
  ) {}

  create(context: RequestContext): Server {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {}, resources: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: SHARED_VALIDATOR,
    });
    const call: ToolCall = { context, user: context.user };
    const redact = shouldRedact(context.user);

    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.registry.listedFor(context.user).map(describe) }));

    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.registry.get(request.params.name);
      if (!tool || !this.registry.listedFor(context.user).includes(tool))
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      const args = request.params.arguments ?? {};
      const started = Date.now();
      const record = (outcome: ToolCallOutcome, code?: string) =>
        this.audit.record(context, { tool: tool.name, outcome, code, ms: Date.now() - started });
      try {
        const refusal = this.registry.refusal(tool, args, context.user);
        if (refusal) {
          record('refused', 'rest_forbidden');
          return { isError: true, content: [{ type: 'text', text: JSON.stringify(refusalBody(refusal.kind)) }] };
        }
        const result = await this.run(tool, args, call);
        record(result.preview ? 'preview' : 'done');
        return toolResult(result.value, redact);
      } catch (error) {
        const body = errorBody(error);
        record('error', body?.code ?? 'internal');
        if (!body) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
        const shown = body ?? { code: 'internal_error', message: 'The tool failed; the error was logged.', data: { status: 500 } };
        return { isError: true, content: [{ type: 'text', text: JSON.stringify(redact ? redactPersonalData(shown) : shown) }] };
      }
    });

    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [
        ...(mayUseTool(context.user, EVENT_RESOURCE)
          ? [{ uriTemplate: 'cal://events/{id}', name: 'event', title: 'An event', mimeType: 'application/json' }]
          : []),
        ...(mayUseTool(context.user, SALES_RESOURCE)
          ? [
              {
                uriTemplate: 'cal://events/{id}/sales-summary',
                name: 'event-sales-summary',
                title: "An event's sales summary",
                mimeType: 'application/json',
              },
            ]
          : []),
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const { uri } = request.params;
      const match = EVENT_URI.exec(uri);
      if (!match) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
      const summary = match[2] !== undefined;
      if (!mayUseTool(context.user, summary ? SALES_RESOURCE : EVENT_RESOURCE))
        throw new McpError(ErrorCode.InvalidRequest, 'Sorry, you are not allowed to read this resource.');
      try {
        const value = summary
          ? await this.reports.summary(
              await validated(SummaryReportQuery, asQuery({ post_id: Number(match[1]) }), 'query'),
              signedIn(call).user,
            )
          : await parseJsonText<EventResponse>(await this.eventReads.get({ id: Number(match[1]) }, context));
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(redact ? redactPersonalData(value) : value) }] };
      } catch (error) {
        const body = errorBody(error);
        if (!body) throw error;
        throw new McpError(body.data.status === 404 ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest, body.message, body);
      }
    });
    return server;
  }

  /** Runs the tool; a confirmed one without its handle answers the preview and a new handle instead. */
  private async run(tool: McpTool, args: Record<string, unknown>, call: ToolCall): Promise<{ value: unknown; preview: boolean }> {
    if (!tool.confirm) return { value: await tool.run(args, call), preview: false };
    const { user } = signedIn(call);
    if (args.confirmation === undefined) {
      const preview = await tool.confirm.preview(args, signedIn(call));
      const { handle, expiresAt } = this.confirmations.issue(tool.name, user, args);
      return {
        value: {
          preview,
          confirmation: handle,
          expires_at: expiresAt.toISOString(),
          next: `Nothing was done. To do it, call ${tool.name} again with the same arguments and "confirmation" set to this handle within ${CONFIRMATION_TTL_MS / 60_000} minutes.`,
        },
        preview: true,
      };
    }
    await this.confirmations.consume(args.confirmation, tool.name, user, args);
    const { confirmation: _handle, ...rest } = args;
    return { value: await tool.run(rest, call), preview: false };
  }
}

function refusalBody(kind: 'anonymous' | 'insufficient_scope' | 'role') {
  return kind === 'role'
    ? { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } }
    : {
        code: kind === 'anonymous' ? 'rest_forbidden' : 'insufficient_scope',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: kind === 'anonymous' ? 401 : 403 },
      };
}

/** A tool as `tools/list` shows it. */
export function describe(tool: McpTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: !tool.readOnly && !!tool.confirm,
      openWorldHint: false,
    },
  };
}
