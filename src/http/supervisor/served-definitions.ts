import type { Diagnostic } from '../../core/diagnostics.js';
import type { LockfileLocation } from '../../files/lockfile-location.js';
import type { ServedLockfile } from '../../operations/served-catalogue.js';

// The definitions `kurel serve` serves are read once, by the supervisor (read-definitions.ts), at
// start and at each reload; every serving process builds its catalogue from those bytes
// (docs/service.md "Processes and the supervisor"), never from its own read of the disk. This
// module holds what crosses between them, and loads nothing.

/** A folder of CapabilityDefinitions: where it is, and the name diagnostics, `/readyz` and the capability list give it. */
export interface DefinitionFolder {
  path: string;
  /** The folder as the user gave it, or a name of its own for the package's embedded folder (never an absolute path the user did not write). */
  name: string;
}

/** Where a service's definitions are read from. */
export interface DefinitionSources {
  definitionFolders: readonly DefinitionFolder[];
  /** Definition files (the config file's `capabilityDefs`), named as given. */
  definitionFiles?: readonly string[];
  cwd: string;
  /** The lockfile the service serves (`--lockfile`), read again at every load. */
  lockfile?: Pick<LockfileLocation, 'path' | 'display'> | undefined;
}

/** One read of the definitions: the bytes of every file (named as diagnostics show them) and of the lockfile, or why they cannot be served. */
export type DefinitionsRead =
  | { ok: true; definitions: { file: string; content: Uint8Array }[]; lockfile?: ServedLockfile; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** {@link DefinitionsRead} as it crosses the channel between processes (JSON): the bytes in base64. */
export type DefinitionsOnTheWire =
  | { ok: true; definitions: { file: string; content: string }[]; lockfile?: { display: string; content: string }; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** A read, ready to send to a serving process. */
export function toWire(read: DefinitionsRead): DefinitionsOnTheWire {
  if (!read.ok) return read;
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return {
    ok: true,
    definitions: read.definitions.map((d) => ({ file: d.file, content: base64(d.content) })),
    ...(read.lockfile ? { lockfile: { display: read.lockfile.display, content: base64(read.lockfile.content) } } : {}),
    diagnostics: read.diagnostics,
  };
}

/** A read as the supervisor sent it. */
export function fromWire(wire: DefinitionsOnTheWire): DefinitionsRead {
  if (!wire.ok) return wire;
  const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
  return {
    ok: true,
    definitions: wire.definitions.map((d) => ({ file: d.file, content: bytes(d.content) })),
    ...(wire.lockfile ? { lockfile: { display: wire.lockfile.display, content: bytes(wire.lockfile.content) } } : {}),
    diagnostics: wire.diagnostics,
  };
}
