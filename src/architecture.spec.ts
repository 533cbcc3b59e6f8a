import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The shape CONTRIBUTING.md promises, checked on the source: every `.ts` file under src/ but specs. */
const SRC = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
const services = files.filter((file) => file.path.endsWith('.service.ts'));

describe('architecture', () => {
  it('finds the services', () => {
    expect(services.length).toBeGreaterThan(30);
  });

  it('has no service that injects DataSource or takes an EntityManager: transactions go through TransactionHost', () => {
    const injectsDataSource = (text: string) =>
      text.includes('@InjectDataSource(') || /\bDataSource\b/.test(/constructor\(([\s\S]*?)\)\s*\{/.exec(text)?.[1] ?? '');
    const offenders = services
      .filter((file) => injectsDataSource(file.text) || /:\s*EntityManager\b/.test(file.text))
      .map((file) => file.path);
    expect(offenders).toEqual([]);
  });

  it('has no hook registry: reactions are domain-event listeners', () => {
    const offenders = files
      .filter((file) => /onUnitsMayBeFree|class \w+Hooks\b|registerHook|TransactionWriteCollector/.test(file.text))
      .map((file) => file.path);
    expect(offenders).toEqual([]);
  });
});
