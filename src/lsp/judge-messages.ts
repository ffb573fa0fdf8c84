import type { Diagnostic } from '../core/diagnostics.js';
import type { ProfileOutcome } from '../operations/lint.js';

/** What the server's thread asks the judging thread: judge a text, or forget repositories that changed on disk. */
export type JudgeRequest = { kind: 'judge'; id: number; root: string; path: string; text: string } | { kind: 'stale'; roots: string[] };

/**
 * The judging thread's messages about one judge request: `started` once the repository is open
 * and the text is being judged (the deadline counts from then), then the answer.
 */
export type JudgeReply =
  | { id: number; started: true }
  | { id: number; ok: true; diagnostics: Diagnostic[]; profile: ProfileOutcome | undefined }
  | { id: number; ok: false; message: string };
