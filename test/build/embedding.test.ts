// Uses kurel exactly as a downstream program does: through the package entry ('kurel'), never
// through internal paths.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  addPlugins,
  type BuildSources,
  buildApplication,
  checkRendering,
  createCatalogue,
  defineHandler,
  type JsonSchema,
  lintInputs,
  RegistryError,
  type ResolvedTrait,
} from 'kurel';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const JobQueueRendering: JsonSchema = {
  type: 'object',
  properties: {
    queue: { type: 'string', minLength: 1 },
    retries: { type: 'integer', minimum: 0, default: 3 },
  },
  required: ['queue'],
  additionalProperties: false,
};

const jobQueue = defineHandler({
  type: 'job-queue',
  description: 'Connects a component to the cluster job queue',
  capabilityAware: true,
  capabilityRequired: true,
  renderingSchema: JobQueueRendering,
  validateAndApplyDefaults: (rendering) => checkRendering(JobQueueRendering, rendering),
});

const APP = `apiVersion: launcher.gokure.dev/v1alpha1
kind: Application
metadata:
  name: billing
spec:
  components:
  - name: worker
    type: worker
    traits:
    - type: job-queue
      properties:
        concurrency: 4
`;

const profile = (retries: string) => `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    job-queue:
      rendering:
        queue: billing-jobs
${retries}`;

function sources(profileText: string): BuildSources {
  return { application: { file: 'app.yaml', content: APP }, profile: { file: 'cluster.yaml', content: profileText }, definitions: [] };
}

describe('embedding kurel through its package entry', () => {
  it('registers a handler of its own and builds with it', () => {
    const registry = createCatalogue({ handlers: [{ handler: jobQueue, source: 'plugin:billing-platform' }] });
    const report = buildApplication(sources(profile('')), registry);
    expect(report.diagnostics).toEqual([]);
    const trait: ResolvedTrait | undefined = report.application?.components[0]?.traits[0];
    expect(trait).toEqual({
      type: 'job-queue',
      capabilityKey: 'job-queue',
      capabilityVersion: null,
      properties: { queue: 'billing-jobs', retries: 3, concurrency: 4 },
    });
  });

  it("reports the handler's own checks positioned in the profile", () => {
    const registry = createCatalogue({ handlers: [{ handler: jobQueue, source: 'plugin:billing-platform' }] });
    const report = buildApplication(sources(profile('        retries: -1\n')), registry);
    expect(report.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.path])).toEqual([
      ['invalid-value', 'cluster.yaml', 10, 18, '/spec/capabilities/job-queue/rendering/retries'],
    ]);
    expect(report.application).toBeNull();
  });

  it('lints a profile knowing the registered handler', () => {
    const registry = createCatalogue({ handlers: [{ handler: jobQueue, source: 'plugin:billing-platform' }] });
    const report = lintInputs([{ file: 'cluster.yaml', content: profile('        retrie: 2\n'), origin: 'argument' }], registry);
    expect(report.diagnostics.map((d) => [d.code, d.line, d.column, d.hint])).toEqual([['unknown-field', 10, 9, 'did you mean retries?']]);
  });

  it('refuses a second handler for a built-in type with a RegistryError', () => {
    const registry = createCatalogue();
    expect(() => registry.withHandlers([{ handler: { ...jobQueue, type: 'expose' }, source: 'plugin:billing-platform' }])).toThrow(RegistryError);
  });

  it('loads the example plugin and builds the custom-capability package with it', async () => {
    const registry = await addPlugins(createCatalogue(), ['examples/plugins/redis-sidecar.mjs'], ROOT);
    const read = (path: string) => readFileSync(`${ROOT}test/fixtures/${path}`, 'utf8');
    const report = buildApplication(
      {
        application: { file: 'app.yaml', content: read('packages/custom-capability/app.yaml') },
        profile: { file: 'cluster.yaml', content: read('profiles/custom-capability.yaml') },
        definitions: [
          { file: 'definitions/redis-sidecar.yaml', content: read('packages/custom-capability/definitions/redis-sidecar.yaml'), origin: 'definition' },
        ],
      },
      registry,
    );
    expect(report.diagnostics).toEqual([]);
    expect(report.application?.components[0]?.traits[1]).toEqual({
      type: 'redis-sidecar',
      capabilityKey: 'redis-sidecar',
      capabilityVersion: null,
      properties: { image: 'redis:7-alpine', maxMemory: '512Mi', port: 6379 },
    });
  });

  it("applies the example plugin's own semantic check", async () => {
    const registry = await addPlugins(createCatalogue(), ['examples/plugins/redis-sidecar.mjs'], ROOT);
    const check = registry.validateRendering('redis-sidecar', { image: 'redis:7', maxMemory: 'lots' });
    expect(check.result.issues.map((i) => [i.code, i.path])).toEqual([['invalid-value', ['maxMemory']]]);
  });
});
