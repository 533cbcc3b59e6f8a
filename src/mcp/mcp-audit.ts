import { Injectable, Logger } from '@nestjs/common';
import type { RequestContext } from '../auth/request-context';

export type ToolCallOutcome = 'done' | 'preview' | 'error' | 'refused';

export interface ToolCallRecord {
  tool: string;
  outcome: ToolCallOutcome;
  /** The error code when it failed or was refused. */
  code?: string;
  ms: number;
}

/**
 * The audit trail of the MCP endpoint: one log line per tool call (and per refused one), naming the
 * tool, the caller (user, and the token by id and name), the address and the outcome, in the
 * application log (JSON with LOG_FORMAT=json) under the `McpAudit` context. Arguments are not
 * logged: they may hold personal data.
 */
@Injectable()
export class McpAudit {
  private readonly logger = new Logger('McpAudit');

  record(context: RequestContext, record: ToolCallRecord): void {
    const user = context.user;
    this.logger.log({
      msg: 'mcp tool call',
      tool: record.tool,
      outcome: record.outcome,
      ...(record.code ? { code: record.code } : {}),
      user_id: user?.id ?? null,
      login: user?.login ?? null,
      token_id: user?.token?.id ?? null,
      token_name: user?.token?.name ?? null,
      address: context.clientAddress ?? null,
      ms: record.ms,
    });
  }
}
