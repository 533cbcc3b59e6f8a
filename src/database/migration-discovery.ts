import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { MigrationInterface } from 'typeorm';

export type MigrationClass = new () => MigrationInterface;

/** `<13-digit timestamp>-<Name>.ts` (or `.js` once built), whose class is `<Name><timestamp>`. */
const MIGRATION_FILE = /^(\d{13})-([A-Z][A-Za-z0-9]*)$/;

/**
 * The migrations of a folder, oldest first: every `<timestamp>-<Name>` file with the extension the
 * code runs from (`.ts` under ts-jest, ts-node and the TypeORM CLI; `.js` from `dist/`), each exporting
 * the class `<Name><timestamp>`. A file of the folder that is not named so, or that does not export its
 * class, or two files with one timestamp, stop the start with a message naming the file: a migration
 * needs no other registration than its file.
 */
export function discoverMigrations(folder: string, extension: '.ts' | '.js', skip: readonly string[] = ['index']): MigrationClass[] {
  const found: Array<{ timestamp: number; migration: MigrationClass }> = [];
  for (const file of readdirSync(folder).sort()) {
    if (!file.endsWith(extension) || file.endsWith(`.d${extension}`) || file.endsWith(`.spec${extension}`)) continue;
    const stem = basename(file, extension);
    if (skip.includes(stem)) continue;
    const match = MIGRATION_FILE.exec(stem);
    if (!match) throw new Error(`${join(folder, file)} is not named <13-digit timestamp>-<Name>${extension}, as a migration must be`);
    const [, timestamp, name] = match;
    const className = `${name}${timestamp}`;
    // A directory read: the folder is the list, so the file is loaded by its name.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = (require(join(folder, file)) as Record<string, unknown>)[className];
    if (typeof exported !== 'function' || typeof (exported.prototype as Partial<MigrationInterface>).up !== 'function') {
      throw new Error(`${join(folder, file)} does not export its migration class ${className} (with up and down)`);
    }
    const clash = found.find((other) => other.timestamp === Number(timestamp));
    if (clash) throw new Error(`${join(folder, file)} has the timestamp of ${clash.migration.name}: each migration needs its own`);
    found.push({ timestamp: Number(timestamp), migration: exported as MigrationClass });
  }
  return found.sort((a, b) => a.timestamp - b.timestamp).map((entry) => entry.migration);
}
