import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpToolsRegistry } from './mcp-tools.registry';
import { BoxOfficeTools } from './tools/box-office-tools';
import { CalendarTools } from './tools/calendar-tools';
import { TecTools } from './tools/tec-tools';

/** The tools as the server registers them; building them touches none of the services. */
function registeredTools() {
  const none = null as never;
  return new McpToolsRegistry(
    new TecTools(none, none, none, none),
    new CalendarTools(none, none, none, none),
    new BoxOfficeTools(none, none, none, none, none, none, none, none, none, none),
  ).all;
}

/** The rows of docs/mcp.md's table of tools: name, scope cell, who cell. */
function documentedTools(): Array<{ name: string; scope: string; who: string }> {
  const text = readFileSync(join(__dirname, '..', '..', 'docs', 'mcp.md'), 'utf8');
  const section = text.slice(text.indexOf('## The tools'), text.indexOf('\n## ', text.indexOf('## The tools') + 1));
  return section
    .split('\n')
    .filter((line) => /^\| `[a-z_-]+` /.test(line))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      return { name: cells[1].replaceAll('`', ''), scope: cells[3], who: cells[4] };
    });
}

describe('docs/mcp.md', () => {
  it('lists every tool the server registers, in its order, and no other', () => {
    expect(documentedTools().map((tool) => tool.name)).toEqual(registeredTools().map((tool) => tool.name));
  });

  it('names the scopes and the role each tool asks for', () => {
    const documented = new Map(documentedTools().map((tool) => [tool.name, tool]));
    for (const tool of registeredTools()) {
      const row = documented.get(tool.name)!;
      for (const requirement of tool.requirements) {
        expect({ tool: tool.name, scope: row.scope.includes(`\`${requirement.scope}\``) }).toEqual({ tool: tool.name, scope: true });
        const who =
          requirement.audience === 'anyone' || requirement.audience === 'door' ? requirement.audience : `\`${requirement.audience}\``;
        expect({ tool: tool.name, who: row.who.includes(who) }).toEqual({ tool: tool.name, who: true });
      }
    }
  });
});
