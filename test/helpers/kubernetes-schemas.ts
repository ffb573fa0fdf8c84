import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A Kubernetes object as read from a manifest. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** Where the model (validator class and TypeScript interface) of one apiVersion/kind lives. */
interface ModelSource {
  module: string;
  name: string;
}

const MODELS: Readonly<Record<string, ModelSource>> = {
  'v1/Namespace': { module: 'kubernetes-models/v1/Namespace', name: 'Namespace' },
  'v1/ServiceAccount': { module: 'kubernetes-models/v1/ServiceAccount', name: 'ServiceAccount' },
  'v1/ConfigMap': { module: 'kubernetes-models/v1/ConfigMap', name: 'ConfigMap' },
  'v1/Service': { module: 'kubernetes-models/v1/Service', name: 'Service' },
  'apps/v1/Deployment': { module: 'kubernetes-models/apps/v1/Deployment', name: 'Deployment' },
  'policy/v1/PodDisruptionBudget': { module: 'kubernetes-models/policy/v1/PodDisruptionBudget', name: 'PodDisruptionBudget' },
  'autoscaling/v2/HorizontalPodAutoscaler': { module: 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler', name: 'HorizontalPodAutoscaler' },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': {
    module: 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration',
    name: 'ValidatingWebhookConfiguration',
  },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    module: 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition',
    name: 'CustomResourceDefinition',
  },
  'cert-manager.io/v1/Issuer': { module: '@kubernetes-models/cert-manager/cert-manager.io/v1/Issuer', name: 'Issuer' },
  'cert-manager.io/v1/Certificate': { module: '@kubernetes-models/cert-manager/cert-manager.io/v1/Certificate', name: 'Certificate' },
};

function modelOf(object: KubernetesObject): ModelSource {
  const model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!model) throw new Error(`no schema known for ${object.apiVersion} ${object.kind}`);
  return model;
}

/**
 * Checks `object` with the validator of its kind (the Kubernetes or cert-manager API schema:
 * types, required fields, enums, formats); resolves with the problems, empty when valid.
 */
export async function schemaProblems(object: KubernetesObject): Promise<string[]> {
  const model = modelOf(object);
  const loaded = (await import(model.module)) as Record<string, new (data: unknown) => { validate(): void }>;
  try {
    new loaded[model.name]!(object).validate();
    return [];
  } catch (err) {
    return [`${object.kind} ${object.metadata.name}: ${(err as Error).message}`];
  }
}

/**
 * Type-checks every object as a literal of its kind's TypeScript interface with the compiler,
 * whose excess-property check names any field the API does not have, at any depth (the
 * validators allow unknown fields, as the API schemas do). Resolves with the compiler's
 * messages, empty when every field is known and well typed.
 */
export async function unknownFieldProblems(objects: readonly KubernetesObject[]): Promise<string[]> {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'kurel-manifest-types-'));
  try {
    const imports = new Map<string, string>();
    for (const object of objects) imports.set(modelOf(object).module, `I${modelOf(object).name}`);
    const lines = [...imports].map(([module, type]) => `import type { ${type} } from '${module}';`);
    // The first line of each object's literal, to name the object a message is about.
    const starts: [number, KubernetesObject][] = [];
    for (const [i, object] of objects.entries()) {
      starts.push([lines.length + 1, object]);
      lines.push(...`export const object${i}: I${modelOf(object).name} = ${JSON.stringify(object, null, 2)};`.split('\n'));
    }
    writeFileSync(join(dir, 'manifests.ts'), `${lines.join('\n')}\n`);
    const name = (line: number) => {
      const object = starts.filter(([start]) => start <= line).at(-1)![1];
      return `${object.kind} ${object.metadata.name}`;
    };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true, types: [] },
        files: ['manifests.ts'],
      }),
    );
    try {
      await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir });
      return [];
    } catch (err) {
      const output = (err as { stdout?: string }).stdout ?? String(err);
      // tsc names the file by a longer path when node_modules is a link to another folder.
      return output
        .split('\n')
        .filter((line) => line.includes('error TS'))
        .map((line) => line.replace(/^(?:.*[\\/])?manifests\.ts\((\d+),\d+\): error TS\d+: /, (_all, at: string) => `${name(Number(at))}: `));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
