import { Injectable } from '@nestjs/common';
import { mayUseTool, ToolRefusal, toolRefusal, ToolRequirement } from '../access/tool-access';
import type { AuthenticatedUser } from '../auth/roles';
import { McpTool, requirementOf } from './mcp-tool';
import { BoxOfficeTools } from './tools/box-office-tools';
import { CalendarTools } from './tools/calendar-tools';
import { TecTools } from './tools/tec-tools';

/** The event resource's and the sales summary resource's requirements (they read what get_event and sales_summary read). */
export const EVENT_RESOURCE: ToolRequirement = { audience: 'anyone', scope: 'events:read' };
export const SALES_RESOURCE: ToolRequirement = { audience: 'publish_events', scope: 'reports:read' };

/**
 * Every tool of the MCP endpoint, built once at start-up, in the order `tools/list` shows them: TEC's
 * three, then the public reads, then the box office.
 */
@Injectable()
export class McpToolsRegistry {
  readonly all: readonly McpTool[];
  private readonly byName: ReadonlyMap<string, McpTool>;

  constructor(tec: TecTools, calendar: CalendarTools, boxOffice: BoxOfficeTools) {
    this.all = [...tec.tools(), ...calendar.tools(), ...boxOffice.tools()];
    this.byName = new Map(this.all.map((tool) => [tool.name, tool]));
  }

  get(name: string): McpTool | undefined {
    return this.byName.get(name);
  }

  /** The tools the caller may use (any of a tool's requirements met). */
  listedFor(user: AuthenticatedUser | undefined): McpTool[] {
    return this.all.filter((tool) => tool.requirements.some((requirement) => mayUseTool(user, requirement)));
  }

  /**
   * What keeps the caller from this call of the tool, or null. Arguments that name no requirement
   * (a bad `postType`) are left to the tool, which answers its 400.
   */
  refusal(tool: McpTool, args: Record<string, unknown>, user: AuthenticatedUser | undefined): ToolRefusal | null {
    let requirement: ToolRequirement;
    try {
      requirement = requirementOf(tool, args);
    } catch {
      return tool.requirements.some((candidate) => mayUseTool(user, candidate)) ? null : toolRefusal(user, tool.requirements[0]);
    }
    return toolRefusal(user, requirement);
  }
}
