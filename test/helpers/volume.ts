import { existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let generation = 0;

/**
 * Writes `files` into `dir` the way the kubelet fills and updates a Secret or ConfigMap volume:
 * the files go to a new timestamped folder, a `..data_tmp` link to it is renamed over `..data`
 * (one atomic step), each file name is a link to `..data/<name>`, links of files no longer
 * present are removed, and so is the previous folder.
 */
export function writeVolume(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  const stamp = `..2026_05_01_12_00_00.${String(++generation).padStart(9, '0')}`;
  mkdirSync(join(dir, stamp));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, stamp, name), text);
  const data = join(dir, '..data');
  const previous = existsSync(data) ? readlinkSync(data) : undefined;
  symlinkSync(stamp, join(dir, '..data_tmp'));
  renameSync(join(dir, '..data_tmp'), data);
  for (const name of Object.keys(files)) if (!existsSync(join(dir, name))) symlinkSync(join('..data', name), join(dir, name));
  for (const entry of readdirSync(dir)) if (!entry.startsWith('..') && !(entry in files)) rmSync(join(dir, entry));
  if (previous) rmSync(join(dir, previous), { recursive: true, force: true });
}
