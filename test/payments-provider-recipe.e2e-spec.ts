import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ConfigError } from '../src/config/config-error';
import { acmePayments } from './fixtures/example-provider';

const ROOT = join(__dirname, '..');
const FIXTURE = join(__dirname, 'fixtures', 'example-provider', 'index.ts');

/** The fixture as it would read in src/payments/providers/acme/index.ts (the page shows it there), without its header comment. */
function asInTheCode(source: string): string {
  return source
    .replace(/^(\/\/.*\n)+/, '')
    .replaceAll("'../../../src/config/", "'../../../config/")
    .replaceAll("'../../../src/payments/", "'../../");
}

describe('docs/payments.md\'s "Adding a provider" example', () => {
  it('is the fixture, word for word', () => {
    const page = readFileSync(join(ROOT, 'docs', 'payments.md'), 'utf8');
    const example = /## Adding a provider[\s\S]*?```ts\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example).toBeDefined();
    expect(example).toBe(asInTheCode(readFileSync(FIXTURE, 'utf8')));
  });

  it('compiles against the provider interface with the project settings', () => {
    const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
    const program = ts.createProgram([FIXTURE], { ...options, noEmit: true, types: ['node'] });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 60_000);

  it('reads and checks its own settings, and makes a provider named as registered', () => {
    expect(() => acmePayments.readSettings({}, true, 'USD')).toThrow(
      new ConfigError('ACME_API_KEY', 'is required when PAYMENT_PROVIDER=acme'),
    );
    expect(acmePayments.readSettings({}, false, 'USD')).toBeNull();
    const settings = acmePayments.readSettings({ ACME_API_KEY: 'key' }, true, 'USD');
    expect(settings).toEqual({ apiKey: 'key', apiBase: 'https://api.acme.example' });
    const provider = acmePayments.create!(settings!, { now: () => new Date() });
    expect(provider.name).toBe(acmePayments.name);
  });
});
