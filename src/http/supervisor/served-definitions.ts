import type { Diagnostic } from '../../core/diagnostics.js';
import type { ResolvedSource } from '../../sources/definition-entries.js';
import type { ServedDefinitions } from '../../sources/served-definitions.js';

// The definitions `kurel serve` serves are read once, by the supervisor (through the sources
// floor's `readServedDefinitions`), at start and at each reload; every serving process builds its
// catalogue from those bytes (docs/service.md "Processes and the supervisor"), never from its own
// read of the disk. This module holds what crosses between them, and loads nothing.

/** One read of the definitions: the bytes of every file (named as diagnostics show them) and of the lockfile, or why they cannot be served. */
export type DefinitionsRead = ServedDefinitions;

/** {@link DefinitionsRead} as it crosses the channel between processes (JSON): the bytes in base64. */
export type DefinitionsOnTheWire =
  | {
      ok: true;
      definitions: { file: string; content: string }[];
      sources: ResolvedSource[];
      lockfile?: { display: string; content: string };
      diagnostics: Diagnostic[];
    }
  | { ok: false; diagnostics: Diagnostic[] };

/** A read, ready to send to a serving process. */
export function toWire(read: DefinitionsRead): DefinitionsOnTheWire {
  if (!read.ok) return read;
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return {
    ok: true,
    definitions: read.definitions.map((d) => ({ file: d.file, content: base64(d.content) })),
    sources: read.sources,
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
    sources: wire.sources,
    lockfile: wire.lockfile ? { display: wire.lockfile.display, content: bytes(wire.lockfile.content) } : undefined,
    diagnostics: wire.diagnostics,
  };
}
