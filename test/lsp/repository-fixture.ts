import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A definition with a lifecycle per property (the one of test/operations/platform-gating.test.ts). */
export const EDGE_PROXY = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: edge-proxy
spec:
  description: Runs an edge proxy in front of the cluster.
  rendering:
    properties:
      replicas: {type: integer, default: 2, description: how many proxy pods run}
      tls:
        type: object
        introducedIn: "1.29"
        properties:
          mode:
            type: string
            enum: [simple, mutual, passthrough]
            default: simple
            enumLifecycle:
              mutual: {introducedIn: "1.31"}
              passthrough: {deprecatedIn: "1.30", removedIn: "1.32", deprecationNote: "terminate TLS at the proxy instead"}
          legacyCiphers:
            type: boolean
            description: accept ciphers older clients need
            deprecatedIn: "1.30"
            removedIn: "1.32"
            deprecationNote: "use mode: mutual"
      hostNetwork: {type: boolean, introducedIn: "1.10"}
`;

/** A versioned definition of redis-sidecar. */
export function redisSidecar(version: string, extra: string[] = []): string {
  return [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityDefinition',
    'metadata:',
    '  name: redis-sidecar',
    'spec:',
    `  version: ${version}`,
    '  description: Injects a Redis sidecar container.',
    '  rendering:',
    '    properties:',
    '      image: {type: string, required: true}',
    ...extra.map((line) => `      ${line}`),
    '',
  ].join('\n');
}

/**
 * The profile the language server test opens (line numbers are 1-based, as lint's): line 11 a
 * misspelt key, line 12 a YAML 1.1 `yes`, line 14 a key removed at kubernetes 1.32, line 15 an
 * unpinned binding of a versioned definition (the configuration requires pins).
 */
export const PROFILE = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  platform:
    kubernetes: "1.32"
  capabilities:
    edge-proxy:
      rendering:
        replicsa: 3
        hostNetwork: yes
        tls:
          legacyCiphers: true
    redis-sidecar:
      rendering: {image: "redis:7"}
`;

/**
 * A plugin of type `counted` that appends each rendering's `size` it judges to the file `notes`,
 * so that a test can tell a file judged from one whose result was taken from a cache.
 */
export function countingPlugin(notes: string): string {
  return `import { appendFileSync } from 'node:fs';
export default {
  type: 'counted',
  description: 'notes each rendering it judges',
  capabilityAware: true,
  capabilityRequired: false,
  renderingSchema: { type: 'object', properties: { size: { type: 'integer' } }, additionalProperties: false },
  validateAndApplyDefaults(rendering) {
    appendFileSync(${JSON.stringify(notes)}, String(rendering.size) + '\\n');
    return { rendering: { ...rendering }, issues: [] };
  },
};
`;
}

/** Writes a repository (a `.git` folder stops the search for `.kurel.yaml`) and returns its folder. */
export function writeRepository(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kurel-lsp-'));
  mkdirSync(join(root, '.git'));
  for (const [path, text] of Object.entries(files)) writeFile(root, path, text);
  return root;
}

/** Writes one file of a repository. */
export function writeFile(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** The repository of the language server test. */
export function standardRepository(): string {
  return writeRepository({
    '.kurel.yaml': 'definitions: [definitions]\nrequirePinned: true\n',
    'definitions/edge-proxy.yaml': EDGE_PROXY,
    'definitions/redis-sidecar-1.0.0.yaml': redisSidecar('1.0.0'),
    'definitions/redis-sidecar-1.1.0.yaml': redisSidecar('1.1.0', ['port: {type: integer, default: 6379}']),
    'clusters/prod.yaml': PROFILE,
  });
}
