/**
 * The `engines` field and the installed packages agree: every package in the lockfile accepts the
 * oldest Node.js release of each line that package.json's `engines.node` admits, so `npm install`
 * on a supported Node prints no EBADENGINE warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = join(__dirname, '..');

describe('engines', () => {
  it('no installed package requires a newer Node.js than engines.node says', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const ours = new semver.Range(manifest.engines.node);
    // The oldest version of each range of ours (20.19.0, 22.13.0, ...).
    const oldest = ours.set.map(
      (comparators) => semver.minVersion(new semver.Range(comparators.map((comparator) => comparator.value).join(' ')))!.version,
    );
    expect(oldest.length).toBeGreaterThan(0);

    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!path || !range) continue;
      for (const version of oldest) {
        if (!semver.satisfies(version, range))
          refused.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version}: node ${range} (not ${version})`);
      }
    }
    expect(refused).toEqual([]);
  });
});
