import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { JsonSchema } from '../../src/core/json-schema.js';
import { stringifyJson } from '../../src/core/json-text.js';
import { capabilitySchema } from '../../src/operations/capability-schema.js';
import { REFRESH_COMMAND, snapshotVerdict } from './snapshot-verdict.js';

// docs/compat.md: each built-in's published rendering schema is kept per version, one JSON file
// per type and version, under snapshots/<type>/<version>.json. `npm run snapshots` sets
// KUREL_UPDATE_SNAPSHOTS and records the versions that have none yet; it never rewrites one.
const SNAPSHOTS = fileURLToPath(new URL('./snapshots/', import.meta.url));
const isUpdating = process.env['KUREL_UPDATE_SNAPSHOTS'] === '1';

function snapshotsOf(type: string): Map<string, JsonSchema> {
  const folder = join(SNAPSHOTS, type);
  let files: string[];
  try {
    files = readdirSync(folder).filter((f) => f.endsWith('.json'));
  } catch {
    return new Map();
  }
  return new Map(files.map((f) => [f.slice(0, -'.json'.length), JSON.parse(readFileSync(join(folder, f), 'utf8')) as JsonSchema]));
}

const catalogue = createCatalogue();

describe('built-in schema snapshots (docs/compat.md)', () => {
  it.each(BUILTIN_HANDLERS.map((h) => [h.type, h.version] as const))('%s %s publishes what its version allows', (type, version) => {
    const current = capabilitySchema(catalogue, type)!.schema;
    const verdict = snapshotVerdict(type, version, current, snapshotsOf(type));
    if (isUpdating && verdict.record && version !== undefined) {
      mkdirSync(join(SNAPSHOTS, type), { recursive: true });
      writeFileSync(join(SNAPSHOTS, type, `${version}.json`), `${stringifyJson(current)}\n`);
      return;
    }
    // Compared as text so a failure prints the whole advice.
    expect(verdict.problem ?? 'as its version allows').toBe('as its version allows');
  });

  it('keeps snapshots only of types that are built-ins', () => {
    const types = new Set(BUILTIN_HANDLERS.map((h) => h.type));
    expect(readdirSync(SNAPSHOTS).filter((t) => !types.has(t))).toEqual([]);
  });
});

describe('snapshotVerdict: what a built-in change needs', () => {
  const v1: JsonSchema = { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false };
  const snapshots = new Map([['1.0.0', v1]]);
  const tightened: JsonSchema = { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, additionalProperties: false };
  const added: JsonSchema = { type: 'object', properties: { name: { type: 'string' }, tag: { type: 'string' } }, additionalProperties: false };

  it('accepts a version that publishes its snapshot', () => {
    expect(snapshotVerdict('demo', '1.0.0', structuredClone(v1), snapshots)).toEqual({ problem: undefined, record: false });
  });

  it('refuses a change under the same version, naming the bump to make and the command that refreshes the snapshots', () => {
    expect(snapshotVerdict('demo', '1.0.0', tightened, snapshots)).toEqual({
      problem: `demo 1.0.0 publishes a schema that differs from its snapshot (breaking: name: minLength added (1)); a published version never changes: set version to 2.0.0 in handlers/demo.ts, then run ${REFRESH_COMMAND}`,
      record: false,
    });
  });

  it('refuses a new version that declares less than its changes need', () => {
    expect(snapshotVerdict('demo', '1.1.0', tightened, snapshots)).toEqual({
      problem: `demo changed since its 1.0.0 snapshot in a way that needs a major bump (breaking: name: minLength added (1)), but 1.1.0 declares minor: set version to 2.0.0 in handlers/demo.ts, then run ${REFRESH_COMMAND}`,
      record: false,
    });
  });

  it('records a new version that declares enough, and asks for the refresh until it is recorded', () => {
    expect(snapshotVerdict('demo', '1.1.0', added, snapshots)).toEqual({
      problem: `demo 1.1.0 has no snapshot yet (its changes since 1.0.0 need minor, it declares minor): run ${REFRESH_COMMAND} to record it`,
      record: true,
    });
  });

  it('refuses a version below the highest snapshot', () => {
    expect(snapshotVerdict('demo', '0.9.0', v1, snapshots).problem).toBe(
      'demo declares 0.9.0, below its snapshot of 1.0.0: versions only go up; set version in handlers/demo.ts above 1.0.0',
    );
  });
});
