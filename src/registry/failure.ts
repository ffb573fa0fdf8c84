/** The codes a registry source fails with (docs/registries.md, docs/codes/). */
export type SourceFailureCode = 'registry-unreachable' | 'registry-auth' | 'artifact-invalid' | 'version-not-found' | 'version-immutable' | 'usage';

/**
 * A source that cannot be fetched, read or written, inside the registry floor; the entry points
 * turn it into a value (`SourceFailure`), so callers never see it thrown. Its message names the
 * reference and never holds a secret.
 */
export class RegistryFailure extends Error {
  constructor(
    readonly code: SourceFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryFailure';
  }
}
