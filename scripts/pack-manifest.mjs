// The package.json a packed kurel ships (`npm pack` and `npm publish` run this as prepack, then
// with --restore as postpack). The repository's own scripts build, test and benchmark from files
// the package does not ship (scripts/, test/, bench/), and its `prepare` builds a clone on
// `npm install`: shipped, a consumer's npm would list it as an install script to approve. So the
// packed manifest keeps only `start`; prepack builds dist/ first when it is older than its
// sources (packing runs no `prepare` once the manifest has none; a clone's `npm install` has
// built it already), and postpack puts the repository's package.json back as it was, its
// modification time too (dist/ is rebuilt when package.json is newer).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MANIFEST = 'package.json';
// Where the repository's package.json waits while the shipped one is packed (.gitignore lists it).
const KEPT = 'package.json.repository';
// The scripts a consumer of the package may run.
const SHIPPED_SCRIPTS = ['start'];

// Everything scripts/build.mjs reads, as test/setup/build-dist.ts lists it.
const BUILD_INPUTS = ['src', 'handlers', 'console', 'scripts/build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = readdirSync(path).filter((entry) => entry !== 'node_modules' && entry !== 'dist');
  return Math.max(info.mtimeMs, ...entries.map((entry) => newest(join(path, entry))));
}

function distIsStale() {
  if (!existsSync('dist/cli.cjs')) return true;
  const built = statSync('dist/cli.cjs').mtimeMs;
  return BUILD_INPUTS.some((input) => existsSync(input) && newest(input) > built);
}

function restore() {
  if (!existsSync(KEPT)) return;
  const kept = statSync(KEPT);
  renameSync(KEPT, MANIFEST);
  utimesSync(MANIFEST, kept.atime, kept.mtime);
}

if (process.argv.includes('--restore')) restore();
else {
  // A pack that died before its postpack left the repository's manifest aside: it comes back first.
  restore();
  if (distIsStale()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  manifest.scripts = Object.fromEntries(Object.entries(manifest.scripts ?? {}).filter(([name]) => SHIPPED_SCRIPTS.includes(name)));
  const before = statSync(MANIFEST);
  writeFileSync(KEPT, text);
  utimesSync(KEPT, before.atime, before.mtime);
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}
