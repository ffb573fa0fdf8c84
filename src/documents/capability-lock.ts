import { Type } from '@sinclair/typebox';
import { compareBytes, compareText, isMap, setOwn } from '../core/data.js';
import { error, type Issue } from '../core/diagnostics.js';
import { compareVersions, isDefinitionVersion, refuseDefinitionVersion, refusePin } from '../core/versions.js';
import { checkSchema } from '../schema/check.js';
import { API_VERSION, ApiVersion, CAPABILITY_KEY, DNS1123_LABEL } from './common.js';

/** The kind of a lockfile document. */
export const LOCK_KIND = 'CapabilityLock';

/** The comment a written lockfile starts with. */
export const LOCK_COMMENT = '# Written by kurel lock. Commit it; kurel lint and build follow it when present.';

const DIGEST = '^sha256:[0-9a-f]{64}$';

const LockedDefinition = Type.Object(
  {
    digest: Type.String({ pattern: DIGEST, 'x-expected': 'sha256: followed by 64 lowercase hex digits' }),
    file: Type.String({ description: 'where the version was loaded from, relative to the lockfile (information only)' }),
  },
  { additionalProperties: false },
);

const LockedSource = Type.Object(
  {
    range: Type.Optional(Type.String({ description: 'the SemVer range the reference was resolved by, when it names one' })),
    tag: Type.String({ description: 'the tag the reference resolved to' }),
    digest: Type.String({ pattern: DIGEST, 'x-expected': 'sha256: followed by 64 lowercase hex digits', description: "the artifact manifest's digest" }),
  },
  { additionalProperties: false },
);

/** How a lockfile's `sources` keys start: each is a definitions entry that names a registry source. */
export const SOURCE_KEY = '^oci://';

const LockedBinding = Type.Object(
  {
    pin: Type.Optional(Type.String({ description: "the binding's version as written; absent when unpinned" })),
    version: Type.String({ description: 'the version the binding resolved to' }),
  },
  { additionalProperties: false },
);

/** The CapabilityLock document structure (docs/versions.md). */
export const CapabilityLockSchema = Type.Object(
  {
    lockfileVersion: Type.Literal(1),
    apiVersion: ApiVersion,
    kind: Type.Literal(LOCK_KIND),
    sources: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: LockedSource,
          propertyNames: { pattern: SOURCE_KEY, 'x-expected': 'a source reference (oci://…) as the definitions entry writes it' },
          description: 'every registry source of definitions, by the reference as written: the tag and digest it resolved to',
        },
      ),
    ),
    definitions: Type.Object(
      {},
      {
        additionalProperties: Type.Object({}, { additionalProperties: LockedDefinition }),
        propertyNames: { pattern: DNS1123_LABEL, 'x-expected': 'a definition name (a DNS-1123 label)' },
        description: 'every version a binding resolved to, by name and version',
      },
    ),
    profiles: Type.Object(
      {},
      {
        additionalProperties: Type.Object(
          {},
          {
            additionalProperties: LockedBinding,
            propertyNames: { pattern: CAPABILITY_KEY, 'x-expected': '<type> or <type>.<scope>' },
          },
        ),
        description: "per profile file (relative to the lockfile): each binding's pin and resolved version",
      },
    ),
  },
  { additionalProperties: false },
);

/** A locked binding: its pin as written (absent when unpinned) and the version it resolved to. */
export interface LockedBindingEntry {
  pin?: string;
  version: string;
}

/** A locked definition version: its digest, and the file it was loaded from (information only). */
export interface LockedDefinitionEntry {
  digest: string;
  file: string;
}

/** A locked source of definitions: the range it was resolved by (absent for a tag or none), the tag, the manifest's digest. */
export interface LockedSourceEntry {
  range?: string;
  tag: string;
  digest: string;
}

/** The data of a lockfile: what `kurel lock` writes and `--check` compares. */
export interface LockData {
  /** source reference as written → what it resolved to; absent when the run has no registry source. */
  sources?: Record<string, LockedSourceEntry>;
  /** name → version → digest and file. */
  definitions: Record<string, Record<string, LockedDefinitionEntry>>;
  /** profile path (relative to the lockfile, `/`-separated) → capability key → locked binding. */
  profiles: Record<string, Record<string, LockedBindingEntry>>;
}

/** What reading a lockfile document gave: its data when it is a sound CapabilityLock, and every problem found. */
export interface LockReading {
  lock: LockData | undefined;
  /** Paths are into the lockfile document. */
  issues: Issue[];
}

/**
 * Checks a lockfile document's data: the structure, then each version and pin by the grammar
 * of docs/versions.md. Never throws; any error leaves `lock` undefined (a malformed lockfile
 * misconfigures the run).
 */
export function readLock(data: unknown): LockReading {
  const issues: Issue[] = [...checkSchema(CapabilityLockSchema, data).issues];
  const doc = isMap(data) ? data : {};
  const definitions = isMap(doc['definitions']) ? doc['definitions'] : {};
  for (const name of Object.keys(definitions)) {
    const versions = definitions[name];
    if (!isMap(versions)) continue;
    for (const version of Object.keys(versions)) {
      const refusal = refuseDefinitionVersion(version);
      if (refusal) issues.push(error('invalid-key', ['definitions', name, version], refusal.reason, refusal.hint ? { hint: refusal.hint } : {}));
    }
  }
  const profiles = isMap(doc['profiles']) ? doc['profiles'] : {};
  for (const path of Object.keys(profiles)) {
    const bindings = profiles[path];
    if (!isMap(bindings)) continue;
    for (const key of Object.keys(bindings)) {
      const binding = bindings[key];
      if (!isMap(binding)) continue;
      if (typeof binding['pin'] === 'string') {
        const refusal = refusePin(binding['pin']);
        if (refusal) issues.push(error('invalid-value', ['profiles', path, key, 'pin'], refusal.reason, refusal.hint ? { hint: refusal.hint } : {}));
      }
      if (typeof binding['version'] === 'string') {
        const refusal = refuseDefinitionVersion(binding['version']);
        if (refusal) issues.push(error('invalid-value', ['profiles', path, key, 'version'], refusal.reason, refusal.hint ? { hint: refusal.hint } : {}));
      }
    }
  }
  if (issues.some((issue) => issue.severity === 'error')) return { lock: undefined, issues };
  return { lock: copyLock(doc as unknown as LockData), issues };
}

/** A deep copy of lock data with own keys only (paths such as `__proto__` stay plain data). */
export function copyLock(lock: LockData): LockData {
  const out: LockData = { definitions: {}, profiles: {} };
  if (lock.sources !== undefined) {
    const sources: Record<string, LockedSourceEntry> = {};
    for (const reference of Object.keys(lock.sources)) {
      const entry = lock.sources[reference]!;
      setOwn(
        sources,
        reference,
        entry.range === undefined ? { tag: entry.tag, digest: entry.digest } : { range: entry.range, tag: entry.tag, digest: entry.digest },
      );
    }
    out.sources = sources;
  }
  for (const name of Object.keys(lock.definitions)) {
    const versions: Record<string, LockedDefinitionEntry> = {};
    for (const version of Object.keys(lock.definitions[name]!)) {
      const entry = lock.definitions[name]![version]!;
      setOwn(versions, version, { digest: entry.digest, file: entry.file });
    }
    setOwn(out.definitions, name, versions);
  }
  for (const path of Object.keys(lock.profiles)) {
    const bindings: Record<string, LockedBindingEntry> = {};
    for (const key of Object.keys(lock.profiles[path]!)) {
      const binding = lock.profiles[path]![key]!;
      setOwn(bindings, key, binding.pin === undefined ? { version: binding.version } : { pin: binding.pin, version: binding.version });
    }
    setOwn(out.profiles, path, bindings);
  }
  return out;
}

/** True when two lockfiles hold the same data (docs/versions.md: `--check` compares data, not bytes). */
export function sameLock(a: LockData, b: LockData): boolean {
  return writeLockText(a) === writeLockText(b);
}

/**
 * The text of a lockfile (docs/versions.md): the comment, the four header keys, then the sources
 * by reference (byte order; the key only when there is one), definitions by name and ascending
 * version, and profiles by path (byte order) and key. The same data always gives the same bytes,
 * on any machine.
 */
export function writeLockText(lock: LockData): string {
  const lines = [LOCK_COMMENT, 'lockfileVersion: 1', `apiVersion: ${API_VERSION}`, `kind: ${LOCK_KIND}`];
  const references = Object.keys(lock.sources ?? {}).sort(compareBytes);
  if (references.length > 0) lines.push('sources:');
  for (const reference of references) {
    const entry = lock.sources![reference]!;
    const range = entry.range === undefined ? '' : `range: ${JSON.stringify(entry.range)}, `;
    lines.push(`  ${scalar(reference)}: {${range}tag: ${scalar(entry.tag)}, digest: ${JSON.stringify(entry.digest)}}`);
  }
  const names = Object.keys(lock.definitions).sort(compareText);
  lines.push(names.length === 0 ? 'definitions: {}' : 'definitions:');
  for (const name of names) {
    const versions = lock.definitions[name]!;
    const ordered = Object.keys(versions).sort((a, b) => (isDefinitionVersion(a) && isDefinitionVersion(b) ? compareVersions(a, b) : compareText(a, b)));
    lines.push(`  ${scalar(name)}:${ordered.length === 0 ? ' {}' : ''}`);
    for (const version of ordered) {
      const entry = versions[version]!;
      lines.push(`    ${scalar(version)}: {digest: ${JSON.stringify(entry.digest)}, file: ${scalar(entry.file)}}`);
    }
  }
  const paths = Object.keys(lock.profiles).sort(compareBytes);
  lines.push(paths.length === 0 ? 'profiles: {}' : 'profiles:');
  for (const path of paths) {
    const bindings = lock.profiles[path]!;
    const keys = Object.keys(bindings).sort(compareText);
    lines.push(`  ${scalar(path)}:${keys.length === 0 ? ' {}' : ''}`);
    for (const key of keys) {
      const binding = bindings[key]!;
      const pin = binding.pin === undefined ? '' : `pin: ${JSON.stringify(binding.pin)}, `;
      lines.push(`    ${scalar(key)}: {${pin}version: ${scalar(binding.version)}}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

// Written plain only when YAML 1.2's core schema reads it back as this very string.
const PLAIN = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;
const NOT_A_STRING = [
  /^[0-9]+$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/,
  /^(null|Null|NULL|true|True|TRUE|false|False|FALSE)$/,
];

function scalar(text: string): string {
  return PLAIN.test(text) && !NOT_A_STRING.some((pattern) => pattern.test(text)) ? text : JSON.stringify(text);
}
