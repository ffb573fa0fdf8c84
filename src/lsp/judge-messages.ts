import type { Diagnostic } from '../core/diagnostics.js';
import type { ProfileOutcome } from '../operations/lint.js';
import type { TextActions, TextActionsRequest } from './text-actions.js';
import type { TextReading } from './text-reading.js';

/**
 * What the server's thread asks the judging thread: judge a text, make the parts of a text's
 * code actions that parse it, read a text for a hover or completion (the reading thread), or
 * forget repositories that changed on disk.
 */
export type JudgeRequest =
  | { kind: 'judge'; id: number; root: string; path: string; text: string }
  | ({ kind: 'act'; id: number; root: string; path: string; text: string } & TextActionsRequest)
  | { kind: 'read'; id: number; text: string; offset: number | undefined }
  | { kind: 'stale'; roots: string[] };

/**
 * The judging thread's messages about one request: `started` once the repository is open and
 * the text is being judged or acted on (the deadline counts from then), then the answer.
 */
export type JudgeReply =
  | { id: number; started: true }
  | { id: number; ok: true; diagnostics: Diagnostic[]; profile: ProfileOutcome | undefined }
  | ({ id: number; ok: true } & TextActions)
  | { id: number; ok: true; reading: TextReading }
  | { id: number; ok: false; message: string };
