import { importModule } from '../../core/import-module.js';
/** Where a watch logs. */
export interface WatchLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Quiet time after the last change before a reload: a ConfigMap update or an editor's save is several events. */
export const WATCH_DEBOUNCE_MS = 500;

/** A running watch of definition folders. */
export interface DefinitionsWatch {
  /** Stops watching; a reload already started still finishes. */
  close(): Promise<void>;
}

/**
 * Calls `reload` (the same atomic reload as SIGHUP and `POST /v1/reload`) when anything under
 * `dirs` changes, once changes have been quiet for `debounceMs`. Symbolic links are followed, so
 * a mounted ConfigMap, which swaps its files through a `..data` link, is seen to change. The
 * watcher library loads only here, so commands that never watch never pay for it. Resolves
 * once the folders are being watched.
 */
export async function watchDefinitions(
  dirs: readonly string[],
  reload: () => void,
  options: { logger: WatchLog; debounceMs?: number },
): Promise<DefinitionsWatch> {
  const { watch } = await importModule<typeof import('chokidar')>('chokidar');
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  const watcher = watch([...dirs], { ignoreInitial: true, followSymlinks: true });
  let timer: NodeJS.Timeout | undefined;
  let changed: string[] = [];
  watcher.on('all', (event, path) => {
    changed.push(`${event} ${path}`);
    clearTimeout(timer);
    timer = setTimeout(() => {
      options.logger.info({ changes: changed.slice(0, 20), count: changed.length }, 'definition files changed: reloading');
      changed = [];
      reload();
    }, debounceMs);
  });
  watcher.on('error', (err) => options.logger.warn({ err }, 'watching the definition folders failed; SIGHUP and POST /v1/reload still reload'));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
