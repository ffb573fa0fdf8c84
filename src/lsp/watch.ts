import { existsSync } from 'node:fs';

/** A running watch of files and folders. */
export interface FileWatch {
  close(): Promise<void>;
}

/** Quiet time after the last change on disk: an editor's save or a `git checkout` is several events. */
const WATCH_DEBOUNCE_MS = 100;

/**
 * Calls `changed` once changes under `paths` (files or folders; those missing now are left out)
 * have been quiet for a moment. The watcher library loads only here, so `kurel lint` never pays
 * for it. Undefined when nothing exists to watch.
 */
export async function watchFiles(paths: readonly string[], changed: () => void): Promise<FileWatch | undefined> {
  const existing = paths.filter((path) => existsSync(path));
  if (existing.length === 0) return undefined;
  const { watch } = await import('chokidar');
  const watcher = watch(existing, { ignoreInitial: true, followSymlinks: true });
  let timer: NodeJS.Timeout | undefined;
  watcher.on('all', () => {
    clearTimeout(timer);
    timer = setTimeout(changed, WATCH_DEBOUNCE_MS);
  });
  // A watch that fails leaves the client's own notifications (workspace/didChangeWatchedFiles).
  watcher.on('error', () => {});
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    close: () => {
      clearTimeout(timer);
      return watcher.close();
    },
  };
}
