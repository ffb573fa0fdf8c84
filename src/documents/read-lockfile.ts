import type { Diagnostic } from '../core/diagnostics.js';
import type { SourceText, YamlDocument } from '../yaml/source.js';
import { LOCK_KIND, type LockData, readLock } from './capability-lock.js';
import { readInput } from './read-input.js';

/** A lockfile read from its text: its data when it is a sound CapabilityLock, else the positioned reasons. */
export interface LockfileReading {
  lock: LockData | undefined;
  /** Problems in the lockfile, positioned in it; any error means the run is misconfigured (exit 2). */
  diagnostics: Diagnostic[];
  source: SourceText;
  /** The lockfile's document, to position diagnostics about its entries. */
  document: YamlDocument | undefined;
}

/**
 * Reads a lockfile's text (docs/versions.md): one YAML document of kind CapabilityLock, checked as
 * strictly as a profile. `file` names it in diagnostics. Never throws.
 */
export function readLockfileText(file: string, content: string | Uint8Array): LockfileReading {
  const read = readInput({ file, content, origin: 'document', kind: LOCK_KIND });
  const diagnostics = [...read.diagnostics];
  if (!read.document || !read.clean) return { lock: undefined, diagnostics, source: read.source, document: read.document };
  const document = read.document;
  const reading = readLock(document.data);
  for (const issue of reading.issues) diagnostics.push(document.toDiagnostic(issue));
  return { lock: reading.lock, diagnostics, source: read.source, document };
}
