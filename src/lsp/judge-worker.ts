// The entry of `kurel lsp`'s judging thread (bundled as dist/lsp-worker.js): it judges one text,
// or parses it for code actions, at a time, so the server's own thread keeps answering while a large file is judged,
// and a judgement past its deadline is ended by ending the thread (docs/editors.md).
import { parentPort, workerData } from 'node:worker_threads';
import { useRegistry } from '../sources/registry-resolver.js';
import { judgeText } from './judge.js';
import { JudgeCache } from './judge-cache.js';
import type { JudgeReply, JudgeRequest } from './judge-messages.js';
import { openRepository, type Repository, type RepositoryFlags } from './repository.js';
import { actOnText } from './text-actions.js';
import { readText } from './text-reading.js';

const flags = workerData as RepositoryFlags;
// This thread reads the repositories' definitions, so the registry client resolves their oci://
// entries here; when a registry cannot be reached, the cache serves (docs/registries.md).
useRegistry({ env: process.env, cacheWhenUnreachable: true });
const repositories = new Map<string, Promise<Repository>>();
// The results judged in each repository as opened, kept in kurel's cache folder (docs/editors.md, "Cache").
const caches = new WeakMap<Repository, JudgeCache | undefined>();

parentPort?.on('message', (request: JudgeRequest) => {
  if (request.kind === 'stale') {
    for (const root of request.roots) repositories.delete(root);
    return;
  }
  void answer(request).then((reply) => parentPort?.postMessage(reply satisfies JudgeReply));
});

async function answer(request: Exclude<JudgeRequest, { kind: 'stale' }>): Promise<JudgeReply> {
  try {
    if (request.kind === 'read') {
      parentPort?.postMessage({ id: request.id, started: true } satisfies JudgeReply);
      return { id: request.id, ok: true, reading: readText(request.text, request.offset) };
    }
    let repository = repositories.get(request.root);
    if (!repository) {
      repository = openRepository(request.root, flags);
      repositories.set(request.root, repository);
    }
    const opened = await repository;
    parentPort?.postMessage({ id: request.id, started: true } satisfies JudgeReply);
    if (request.kind === 'act') {
      const actions = await actOnText(opened, request.path, request.text, { plans: request.plans, migrate: request.migrate });
      return { id: request.id, ok: true, ...actions };
    }
    if (!caches.has(opened)) caches.set(opened, JudgeCache.open(opened, flags, process.env));
    const judgement = await judgeText(opened, request.path, request.text, caches.get(opened));
    return { id: request.id, ok: true, diagnostics: judgement.diagnostics, profile: judgement.profile };
  } catch (err) {
    return { id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
