/**
 * Where an input came from; it decides what happens to documents of other kinds. A `profile`
 * must be a ClusterProfile (the body of an HTTP validation); a `document` holds exactly one
 * document of the `kind` the input names, its structure checked by that kind's schema (the
 * files of `kurel build`); an `argument` may be a ClusterProfile or a CapabilityDefinition;
 * in a `directory` other kinds are skipped; a `definition` file contributes its
 * CapabilityDefinitions.
 */
export type InputOrigin = 'argument' | 'profile' | 'document' | 'directory' | 'definition';

/** One file's bytes (or text), named as the user gave it. */
export interface InputFile {
  /** The path as the user gave it (or `request`, `definitions[0]` over HTTP). */
  file: string;
  content: Uint8Array | string;
  origin: InputOrigin;
  /** For a `document` input: the kind it must hold, named in messages. */
  kind?: string;
}

/** What became of one input file. */
export interface FileReport {
  path: string;
  kind: string;
  status: 'checked' | 'skipped';
  reason?: string;
  /** For a checked profile without errors: its capabilities with defaults applied. */
  resolved?: ResolvedProfile;
}

/** A profile after evaluation: every binding's rendering with defaults applied. */
export interface ResolvedProfile {
  gitopsEngine: string;
  capabilities: Record<string, Record<string, unknown>>;
  /** The version each binding of a versioned CapabilityDefinition resolved to, by key (`{}` when none). */
  versions: Record<string, string>;
}
