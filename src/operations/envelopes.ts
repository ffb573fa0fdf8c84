import type { Diagnostic } from '../core/diagnostics.js';
import type { FileReport } from '../core/input.js';
import type { ResolvedApplication } from './build-application.js';
import type { CompatPair } from './compat.js';
import type { OutdatedRow } from './outdated.js';

/** The JSON envelope of every command (docs/cli.md): `valid` is true exactly when the exit code is 0. */
export interface RunEnvelope {
  valid: boolean;
  diagnostics: readonly Diagnostic[];
  files: readonly FileReport[];
}

/** `kurel build`'s envelope: the run's, plus the resolved application (null unless valid). */
export interface BuildEnvelope extends RunEnvelope {
  application: ResolvedApplication | null;
}

/** `kurel lock`'s envelope (docs/configuration.md). */
export interface LockEnvelope {
  valid: boolean;
  diagnostics: readonly Diagnostic[];
  /** The lockfile's path as the user would name it; null when the run never got to one. */
  lockfile: string | null;
  /** Whether the lockfile's data differs from what the run resolved (with `--check`: would differ). */
  changed: boolean;
}

/** `kurel outdated`'s envelope (docs/versions.md). */
export interface OutdatedEnvelope {
  valid: boolean;
  diagnostics: readonly Diagnostic[];
  bindings: readonly OutdatedRow[];
}

/** One profile file of a migration in `kurel migrate`'s envelope. */
export interface MigratedFileEntry {
  path: string;
  /** Whether the migration changes the file. */
  changed: boolean;
  /** The unified diff of the change; empty when unchanged. */
  diff: string;
}

/** `kurel migrate`'s envelope (docs/migrate.md). */
export interface MigrateEnvelope {
  valid: boolean;
  diagnostics: readonly Diagnostic[];
  /** Every profile file read, sorted by path. */
  files: readonly MigratedFileEntry[];
  /** Whether the run rewrote the files (`--write` without errors). */
  written: boolean;
  /** Whether the lockfile locks a migrated binding under another pin or version (run `kurel lock`); false without a lockfile. */
  lockOutdated: boolean;
}

/** `kurel compat`'s envelope (docs/compat.md): every pair compared, sorted by name, then version. */
export interface CompatEnvelope {
  valid: boolean;
  diagnostics: readonly Diagnostic[];
  pairs: readonly CompatPair[];
}

/** The commands whose JSON envelope adds members to, or differs from, the run's. */
export type EnvelopeShape = 'run' | 'build' | 'lock' | 'outdated' | 'migrate' | 'compat';

/** The envelope of a run that printed nothing else: a usage error, say, also shaped for its command. */
export function envelopeOf(
  shape: EnvelopeShape,
  valid: boolean,
  diagnostics: readonly Diagnostic[],
  files: readonly FileReport[] = [],
): RunEnvelope | BuildEnvelope | LockEnvelope | OutdatedEnvelope | MigrateEnvelope | CompatEnvelope {
  if (shape === 'lock') return { valid, diagnostics, lockfile: null, changed: false };
  if (shape === 'migrate') return { valid, diagnostics, files: [], written: false, lockOutdated: false };
  if (shape === 'outdated') return { valid, diagnostics, bindings: [] };
  if (shape === 'compat') return { valid, diagnostics, pairs: [] };
  return shape === 'build' ? buildEnvelope(valid, diagnostics, files, null) : { valid, diagnostics, files };
}

/** `kurel build`'s envelope; the application only when the build is valid. */
export function buildEnvelope(
  valid: boolean,
  diagnostics: readonly Diagnostic[],
  files: readonly FileReport[],
  application: ResolvedApplication | null,
): BuildEnvelope {
  return { valid, diagnostics, files, application: valid ? application : null };
}
