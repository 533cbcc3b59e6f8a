import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every setting the code reads is in `.env.example` and in docs/configuration.md's tables, and
 * neither lists one the code no longer reads. The settings are found where the code reads them:
 * `env.NAME`, `env['NAME']` and the config readers' `(env, 'NAME'` calls, in every non-spec file.
 */
const ROOT = join(__dirname, '..', '..');

/** Read outside src/: by the test setup, and by `npm start`'s script. */
const READ_ELSEWHERE = { example: ['TEST_DATABASE_URL'], docs: ['TEST_DATABASE_URL', 'NODE_MAX_OLD_SPACE_MB'] };

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function settingsReadByTheCode(): Set<string> {
  const reads = /\benv\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|\(env, '([A-Z][A-Z0-9_]+)'/g;
  const names = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(reads)) names.add(match[1] ?? match[2] ?? match[3]);
  }
  return names;
}

function settingsOfEnvExample(): Set<string> {
  const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
  return new Set([...text.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
}

/** The names in the first column of docs/configuration.md's tables (a row may name several). */
function settingsOfConfigurationDocs(): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const names = new Set<string>();
  for (const row of text.split('\n').filter((line) => line.startsWith('| `'))) {
    const firstCell = row.split('|')[1];
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]);
  }
  return names;
}

const missingFrom = (wanted: Iterable<string>, present: Set<string>) => [...wanted].filter((name) => !present.has(name)).sort();

describe('.env.example and docs/configuration.md list every setting', () => {
  const read = settingsReadByTheCode();

  it('finds the settings the code reads', () => {
    expect(read.size).toBeGreaterThan(50);
    expect([...read]).toEqual(expect.arrayContaining(['DATABASE_URL', 'DATABASE_POOL_WAIT_TIMEOUT_MS', 'EVENT_DOCUMENT_CACHE_MB']));
  });

  it('.env.example names every setting the code reads, and none it does not', () => {
    const example = settingsOfEnvExample();
    expect(missingFrom(read, example)).toEqual([]);
    expect(missingFrom(example, new Set([...read, ...READ_ELSEWHERE.example]))).toEqual([]);
  });

  it('docs/configuration.md names every setting the code reads, and none it does not', () => {
    const documented = settingsOfConfigurationDocs();
    expect(missingFrom(read, documented)).toEqual([]);
    expect(missingFrom(documented, new Set([...read, ...READ_ELSEWHERE.docs]))).toEqual([]);
  });
});
