// `npm start` and the CLI run the built server; this rebuilds it only when a source or build
// setting is newer than the build, so a start takes about a second instead of a full compile.
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const built = join(root, 'dist', 'main.js');
const settings = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

function newestIn(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isStale() {
  if (!existsSync(built)) return true;
  const sources = Math.max(newestIn(join(root, 'src')), ...settings.map((name) => statSync(join(root, name)).mtimeMs));
  return sources > statSync(built).mtimeMs;
}

if (isStale()) {
  process.stdout.write('Building (sources changed since the last build)...\n');
  execSync('npm run --silent build', { cwd: root, stdio: 'inherit' });
}
