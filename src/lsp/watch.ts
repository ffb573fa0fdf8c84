import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { importModule } from '../core/import-module.js';

/** A running watch of files and folders. */
export interface FileWatch {
  close(): Promise<void>;
}

/** Quiet time after the last change on disk: an editor's save or a `git checkout` is several events. */
const WATCH_DEBOUNCE_MS = 100;

/**
 * Calls `changed` once changes under `paths` (files or folders) have been quiet for a moment. A
 * path missing now is watched for in its folder (not below it), so a lockfile or `.kurel.yaml`
 * created later counts. The watcher library loads only here, so `kurel lint` never pays for it.
 */
export async function watchFiles(paths: readonly string[], changed: () => void): Promise<FileWatch> {
  const existing = paths.filter((path) => existsSync(path));
  const missing = new Set(paths.filter((path) => !existsSync(path)));
  const folders = [...new Set([...missing].map((path) => dirname(path)))].filter((folder) => existsSync(folder));
  const { watch } = await importModule<typeof import('chokidar')>('chokidar');
  let timer: NodeJS.Timeout | undefined;
  const onChange = () => {
    clearTimeout(timer);
    timer = setTimeout(changed, WATCH_DEBOUNCE_MS);
  };
  const watchers = [
    ...(existing.length > 0 ? [watch(existing, { ignoreInitial: true, followSymlinks: true })] : []),
    ...(folders.length > 0 ? [watch(folders, { ignoreInitial: true, depth: 0, ignored: (path) => !folders.includes(path) && !missing.has(path) })] : []),
  ];
  for (const watcher of watchers) {
    watcher.on('all', onChange);
    // A watch that fails leaves the client's own notifications (workspace/didChangeWatchedFiles).
    watcher.on('error', () => {});
  }
  await Promise.all(watchers.map((watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve()))));
  return {
    close: async () => {
      clearTimeout(timer);
      await Promise.all(watchers.map((watcher) => watcher.close()));
    },
  };
}
