import type { Diagnostic } from '../core/diagnostics.js';
import type { FileReport } from '../core/input.js';
import type { ResolvedApplication } from './build-application.js';

/** The JSON envelope of every command (DESIGN §5.1): `valid` is true exactly when the exit code is 0. */
export interface RunEnvelope {
  valid: boolean;
  diagnostics: readonly Diagnostic[];
  files: readonly FileReport[];
}

/** `kurel build`'s envelope: the run's, plus the resolved application (null unless valid). */
export interface BuildEnvelope extends RunEnvelope {
  application: ResolvedApplication | null;
}

/** The commands whose JSON envelope adds members to the run's. */
export type EnvelopeShape = 'run' | 'build';

/** The envelope of a run that printed nothing else: a usage error, say, also shaped for its command. */
export function envelopeOf(
  shape: EnvelopeShape,
  valid: boolean,
  diagnostics: readonly Diagnostic[],
  files: readonly FileReport[] = [],
): RunEnvelope | BuildEnvelope {
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
