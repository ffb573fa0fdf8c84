import type { Diagnostic } from '../core/diagnostics.js';
import type { ProfileOutcome } from '../operations/lint.js';
import type { TextMigration } from './migrations.js';

/**
 * What the server's thread asks the judging thread: judge a text, migrate a binding of a text to
 * later versions, or forget repositories that changed on disk.
 */
export type JudgeRequest =
  | { kind: 'judge'; id: number; root: string; path: string; text: string }
  | { kind: 'migrate'; id: number; root: string; path: string; text: string; type: string; versions: string[] }
  | { kind: 'stale'; roots: string[] };

/**
 * The judging thread's messages about one request: `started` once the repository is open and
 * the text is being judged or migrated (the deadline counts from then), then the answer.
 */
export type JudgeReply =
  | { id: number; started: true }
  | { id: number; ok: true; diagnostics: Diagnostic[]; profile: ProfileOutcome | undefined }
  | { id: number; ok: true; migrations: TextMigration[] }
  | { id: number; ok: false; message: string };
