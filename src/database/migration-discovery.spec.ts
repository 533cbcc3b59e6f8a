import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverMigrations } from './migration-discovery';
import { MIGRATIONS } from './migrations';

/** Migrations are found from their folder: the file is the registration. */
describe('discoverMigrations', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'cal-migrations-'));
  });

  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  function write(file: string, className: string, up = true): void {
    writeFileSync(
      join(folder, file),
      `exports.${className} = class ${className} { ${up ? 'async up() {}' : ''} async down() {} };\nexports.helper = 1;\n`,
    );
  }

  it('lists every migration file of src/database/migrations, oldest first', () => {
    const files = readdirSync(join(__dirname, 'migrations'))
      .filter((file) => /^\d{13}-\w+\.ts$/.test(file))
      .sort();
    expect(MIGRATIONS.map((migration) => migration.name)).toEqual(
      files.map((file) => {
        const [, timestamp, name] = /^(\d{13})-(\w+)\.ts$/.exec(file)!;
        return `${name}${timestamp}`;
      }),
    );
    const timestamps = MIGRATIONS.map((migration) => Number(/\d{13}$/.exec(migration.name)![0]));
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect(MIGRATIONS[0].name).toBe('CreateUsers1764000000000');
  });

  it('orders by the timestamp, skips index, declarations, specs and other extensions', () => {
    write('1766400000001-Second.js', 'Second1766400000001');
    write('1766400000000-First.js', 'First1766400000000');
    write('index.js', 'Index');
    writeFileSync(join(folder, '1766400000000-First.js.map'), '{}');
    writeFileSync(join(folder, '1766400000002-Typed.d.js'), '');
    writeFileSync(join(folder, '1766400000003-Source.ts'), '');
    expect(discoverMigrations(folder, '.js').map((migration) => migration.name)).toEqual(['First1766400000000', 'Second1766400000001']);
  });

  it('refuses a file not named <timestamp>-<Name>', () => {
    write('1766400000000_First.js', 'First1766400000000');
    expect(() => discoverMigrations(folder, '.js')).toThrow(/1766400000000_First\.js is not named <13-digit timestamp>-<Name>\.js/);
  });

  it('refuses a file that does not export its class, or a class without up', () => {
    write('1766400000000-First.js', 'Frist1766400000000');
    expect(() => discoverMigrations(folder, '.js')).toThrow(
      /1766400000000-First\.js does not export its migration class First1766400000000/,
    );
    rmSync(join(folder, '1766400000000-First.js'));
    write('1766400000000-Other.js', 'Other1766400000000', false);
    expect(() => discoverMigrations(folder, '.js')).toThrow(/does not export its migration class Other1766400000000/);
  });

  it('refuses two migrations with one timestamp', () => {
    write('1766400000000-First.js', 'First1766400000000');
    write('1766400000000-Twin.js', 'Twin1766400000000');
    expect(() => discoverMigrations(folder, '.js')).toThrow(/1766400000000-Twin\.js has the timestamp of First1766400000000/);
  });
});
