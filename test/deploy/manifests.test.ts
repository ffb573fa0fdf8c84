import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { VERSION } from '../../src/core/package-version.js';
import { DEFAULT_LIMITS } from '../../src/http/service-limits.js';
import { runKurel } from '../helpers/cli.js';
import { type KubernetesObject, schemaProblems, unknownFieldProblems } from '../helpers/kubernetes-schemas.js';
import { findTool, skipWithout } from '../helpers/real-tool.js';
import { type ServedProcess, startServe } from '../helpers/serve.js';
import { structuralProblems } from '../helpers/structural.js';
import { httpsGet, makePair, type PemPair, writeSecretVolume } from '../helpers/tls.js';
import { writeVolume } from '../helpers/volume.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEPLOY = join(ROOT, 'deploy');
// The files of the base; a folder of deploy/ is a kustomize component the base does not use (deploy/registry-source/).
const FILES = readdirSync(DEPLOY, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name !== 'kustomization.yaml')
  .map((entry) => entry.name)
  .sort();

interface Kustomization {
  namespace: string;
  resources: string[];
  images: { name: string; newName: string; newTag: string }[];
}
const kustomization = parse(readFileSync(join(DEPLOY, 'kustomization.yaml'), 'utf8')) as Kustomization;

const documents = FILES.flatMap((file) => parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8')).map((document) => ({ file, document })));
const OBJECTS = documents.map(({ document }) => document.toJS() as KubernetesObject);

function the<T = Record<string, unknown>>(kind: string, name: string): KubernetesObject & T {
  const found = OBJECTS.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name} in deploy/, found ${found.length}`);
  return found[0] as KubernetesObject & T;
}

interface Probe {
  httpGet: { path: string; port: string; scheme: string };
}
interface Container {
  name: string;
  image: string;
  args: string[];
  ports: { name: string; containerPort: number }[];
  readinessProbe: Probe;
  livenessProbe: Probe;
  lifecycle: { preStop: { exec: { command: string[] } } };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: Record<string, unknown>;
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  terminationGracePeriodSeconds: number;
  securityContext: Record<string, unknown>;
  containers: Container[];
  volumes: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[];
}
interface DeploymentSpec {
  spec: { replicas?: number; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: PodSpec } };
}

const deployment = the<DeploymentSpec>('Deployment', 'kurel');
const pod = deployment.spec.template.spec;
const container = pod.containers[0]!;
const argValue = (flag: string) => {
  const at = container.args.indexOf(flag);
  return at === -1 ? undefined : container.args[at + 1];
};
const mebibytes = (quantity: string) => {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`unexpected memory quantity ${quantity}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
};

describe('deploy/ as a kustomize base', () => {
  it('lists every file of deploy/ in kustomization.yaml, once', () => {
    expect([...kustomization.resources].sort()).toEqual(FILES);
    expect(new Set(kustomization.resources).size).toBe(kustomization.resources.length);
  });

  it('holds YAML without errors or warnings', () => {
    expect(documents.flatMap(({ file, document }) => [...document.errors, ...document.warnings].map((e) => `${file}: ${e.message}`))).toEqual([]);
  });

  it('puts every namespaced object in the namespace it creates', () => {
    const clusterScoped = new Set(['Namespace', 'CustomResourceDefinition', 'ValidatingWebhookConfiguration']);
    expect(the('Namespace', kustomization.namespace).metadata.name).toBe('kurel-system');
    expect(
      OBJECTS.filter((o) => !clusterScoped.has(o.kind) && o.metadata.namespace !== kustomization.namespace).map((o) => `${o.kind} ${o.metadata.name}`),
    ).toEqual([]);
  });

  it('runs the image the Dockerfile builds, tagged with the package version', () => {
    expect(kustomization.images).toEqual([{ name: 'kurel', newName: 'kurel', newTag: VERSION }]);
    expect(container.image).toBe('kurel');
  });
});

// kubectl's kustomize (v5.5 here) renders deploy/ as a cluster would get it, and what it renders
// is checked against the Kubernetes and cert-manager schemas. In CI a missing kubectl fails.
const KUBECTL = findTool('kubectl', ['version', '--client']);

describe.skipIf(skipWithout(KUBECTL))(`kubectl kustomize deploy/ (${KUBECTL.version})`, () => {
  const rendered = () => parseAllDocuments(execFileSync(KUBECTL.command, ['kustomize', DEPLOY], { encoding: 'utf8' })).map((d) => d.toJS() as KubernetesObject);

  it('renders into the same objects, the image tagged', () => {
    const objects = rendered();
    const key = (o: KubernetesObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    expect(objects.map(key).sort()).toEqual(OBJECTS.map(key).sort());
    const image = (objects.find((o) => o.kind === 'Deployment') as unknown as DeploymentSpec).spec.template.spec.containers[0]!.image;
    expect(image).toBe(`kurel:${VERSION}`);
  });

  it('renders objects the Kubernetes and cert-manager API schemas accept, with no field they do not have', async () => {
    const objects = rendered();
    expect((await Promise.all(objects.map(async (o) => (await schemaProblems(o)).map((p) => `${o.kind} ${o.metadata.name}: ${p}`)))).flat()).toEqual([]);
    expect(await unknownFieldProblems(objects)).toEqual([]);
  });
});

describe('the manifests against the Kubernetes and cert-manager API schemas', () => {
  it.each(OBJECTS.map((o) => [`${o.kind} ${o.metadata.name}`, o] as const))('%s validates', async (_name, object) => {
    expect(await schemaProblems(object)).toEqual([]);
  });

  it('names no field the APIs do not have, in deploy/ or in the output of kurel crd', async () => {
    const crds = (JSON.parse((await runKurel(['crd', '--format', 'json'])).stdout) as { items: KubernetesObject[] }).items;
    expect(await unknownFieldProblems([...OBJECTS, ...crds])).toEqual([]);
  });

  it('would name a misspelled field and a value of the wrong type', async () => {
    const broken = structuredClone(deployment) as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    // First in spec, where a count is written: the problems come in the order of the fields.
    (broken as { spec: unknown }).spec = { replicas: 'two', ...broken.spec };
    broken.spec.template.spec.containers[0]!['readinesProbe'] = {};
    delete broken.spec.template.spec.containers[0]!['readinessProbe'];
    const object = broken as unknown as KubernetesObject;
    expect(await schemaProblems(object)).toEqual(['Deployment kurel: data/spec/replicas must be integer']);
    expect(await unknownFieldProblems([object])).toEqual([
      "Deployment kurel: Type 'string' is not assignable to type 'number'.",
      `Deployment kurel: Object literal may only specify known properties, and '"readinesProbe"' does not exist in type 'IContainer'.`,
    ]);
  });
});

describe('the CRDs in deploy/', () => {
  it('are exactly what kurel crd prints (regenerate with: node dist/cli.cjs crd > deploy/crds.yaml)', async () => {
    const run = await runKurel(['crd']);
    expect(run.code).toBe(0);
    expect(readFileSync(join(DEPLOY, 'crds.yaml'), 'utf8')).toBe(run.stdout);
  });

  it('have structural schemas', () => {
    const crds = OBJECTS.filter((o) => o.kind === 'CustomResourceDefinition') as unknown as {
      spec: { versions: { schema: { openAPIV3Schema: Record<string, unknown> } }[] };
    }[];
    expect(crds).toHaveLength(2);
    expect(crds.flatMap((crd) => crd.spec.versions.flatMap((v) => structuralProblems(v.schema.openAPIV3Schema)))).toEqual([]);
  });
});

describe('the Deployment', () => {
  it('leaves its replicas to the autoscaler, and runs as a non-root user on a read-only root filesystem', () => {
    // A count in the Deployment would reset the autoscaler's at every apply (deploy/hpa.yaml holds the minimum).
    expect('replicas' in deployment.spec).toBe(false);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } });
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
  });

  it('requests and limits CPU and memory, the memory limit covering every process: its worker heaps plus 256 MiB', () => {
    expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(container.resources.limits).sort()).toEqual(['cpu', 'memory']);
    // The worker threads of all serving processes match the CPU limit.
    const processes = Number(argValue('--processes'));
    const workers = Number(argValue('--workers'));
    expect(processes * workers).toBe(Number(container.resources.limits['cpu']));
    const workerHeap = Number(argValue('--worker-memory'));
    expect(mebibytes(container.resources.limits['memory']!)).toBeGreaterThanOrEqual(processes * (workers * workerHeap + 256));
  });

  it('probes readiness on /readyz and liveness on /healthz over HTTPS on the serving port', () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'https', scheme: 'HTTPS' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'https', scheme: 'HTTPS' });
    expect(container.ports).toEqual([{ name: 'https', containerPort: Number(argValue('--port')), protocol: 'TCP' }]);
  });

  it('waits in preStop for endpoints to drain, and gives kurel its shutdown grace after that', () => {
    const command = container.lifecycle.preStop.exec.command;
    expect(command.slice(0, 1)).toEqual(['sleep']);
    const preStop = Number(command[1]);
    expect(preStop).toBeGreaterThanOrEqual(5);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + 15);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + DEFAULT_LIMITS.shutdownGraceMs / 1000);
  });

  it('serves TLS from the serving certificate and watches the definitions ConfigMap where it is mounted', () => {
    expect(container.args).toEqual([
      '--host',
      '0.0.0.0',
      '--port',
      '8443',
      '--tls-cert',
      '/etc/kurel/tls/tls.crt',
      '--tls-key',
      '/etc/kurel/tls/tls.key',
      '--definitions',
      '/etc/kurel/definitions',
      '--watch-definitions',
      '--processes',
      '2',
      '--workers',
      '1',
      '--worker-memory',
      '512',
      '--request-timeout',
      '4s',
    ]);
    const mountOf = (volume: { secret?: { secretName: string }; configMap?: { name: string } } | undefined) =>
      container.volumeMounts.find((m) => m.name === pod.volumes.find((v) => v === volume)?.name);
    const tls = pod.volumes.find((v) => v.secret);
    const definitions = pod.volumes.find((v) => v.configMap);
    expect(tls?.secret?.secretName).toBe((the('Certificate', 'kurel-serving')['spec'] as { secretName: string }).secretName);
    expect(mountOf(tls)).toEqual({ name: 'tls', mountPath: dirname(argValue('--tls-cert')!), readOnly: true });
    expect(dirname(argValue('--tls-key')!)).toBe(dirname(argValue('--tls-cert')!));
    expect(definitions?.configMap?.name).toBe(the('ConfigMap', 'kurel-definitions').metadata.name);
    expect(mountOf(definitions)).toEqual({ name: 'definitions', mountPath: '/etc/kurel/definitions', readOnly: true });
  });
});

describe('the objects around the Deployment', () => {
  const podLabels = deployment.spec.template.metadata.labels;
  const service = the<{ spec: { selector: Record<string, string>; ports: { name: string; port: number; targetPort: string }[] } }>('Service', 'kurel');

  it("select the Deployment's pods: Service, PodDisruptionBudget and autoscaler", () => {
    expect(podLabels).toMatchObject(deployment.spec.selector.matchLabels);
    expect(podLabels).toMatchObject(service.spec.selector);
    const pdb = the<{ spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } } }>('PodDisruptionBudget', 'kurel');
    expect(podLabels).toMatchObject(pdb.spec.selector.matchLabels);
    expect(pdb.spec.minAvailable).toBe(1);
    const hpa = the<{ spec: Record<string, unknown> }>('HorizontalPodAutoscaler', 'kurel');
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'kurel' },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    });
  });

  it('expose the serving port as 443', () => {
    expect(service.spec.ports).toEqual([{ name: 'https', port: 443, targetPort: container.ports[0]!.name, protocol: 'TCP' }]);
  });

  it('send every create and update of both kinds to /v1/admission, failing closed within 5 s', () => {
    const webhook = the<{ webhooks: Record<string, unknown>[] }>('ValidatingWebhookConfiguration', 'kurel');
    const crds = OBJECTS.filter((o) => o.kind === 'CustomResourceDefinition') as unknown as {
      spec: { group: string; names: { plural: string }; versions: { name: string }[] };
    }[];
    // kurel answers (a 503 at worst) before the API server gives up on it.
    expect(Number(/^(\d+)s$/.exec(argValue('--request-timeout') ?? '')?.[1])).toBeLessThan(webhook.webhooks[0]!['timeoutSeconds'] as number);
    expect(webhook.webhooks).toEqual([
      {
        name: 'validate.launcher.gokure.dev',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Fail',
        timeoutSeconds: 5,
        matchPolicy: 'Equivalent',
        clientConfig: {
          service: { name: service.metadata.name, namespace: service.metadata.namespace, path: '/v1/admission', port: service.spec.ports[0]!.port },
        },
        rules: [
          {
            apiGroups: [...new Set(crds.map((c) => c.spec.group))],
            apiVersions: [...new Set(crds.flatMap((c) => c.spec.versions.map((v) => v.name)))],
            operations: ['CREATE', 'UPDATE'],
            resources: ['clusterprofiles', 'capabilitydefinitions'],
            scope: '*',
          },
        ],
      },
    ]);
    expect(crds.map((c) => c.spec.names.plural).sort()).toEqual(['capabilitydefinitions', 'clusterprofiles']);
  });

  it('trust the serving certificate through a CA cert-manager injects into the webhook', () => {
    const webhook = the('ValidatingWebhookConfiguration', 'kurel');
    const serving = the<{ spec: { dnsNames: string[]; issuerRef: { name: string; kind: string } } }>('Certificate', 'kurel-serving');
    expect(webhook.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': `${serving.metadata.namespace}/${serving.metadata.name}` });
    expect(serving.spec.dnsNames).toContain(`${service.metadata.name}.${service.metadata.namespace}.svc`);
    const caIssuer = the<{ spec: { ca: { secretName: string } } }>(serving.spec.issuerRef.kind, serving.spec.issuerRef.name);
    const ca = the<{ spec: { isCA: boolean; secretName: string; issuerRef: { name: string; kind: string } } }>('Certificate', 'kurel-ca');
    expect([ca.spec.isCA, ca.spec.secretName]).toEqual([true, caIssuer.spec.ca.secretName]);
    expect(the<{ spec: Record<string, unknown> }>(ca.spec.issuerRef.kind, ca.spec.issuerRef.name).spec).toEqual({ selfSigned: {} });
  });
});

describe("kurel serve started with the Deployment's args", () => {
  let pair: PemPair;
  let work: string;
  let served: ServedProcess;
  let port: number;

  beforeAll(async () => {
    pair = await makePair('kurel-deploy-check');
    work = mkdtempSync(join(tmpdir(), 'kurel-deploy-'));
    writeSecretVolume(join(work, 'tls'), pair);
    const configMap = the<{ data: Record<string, string> }>('ConfigMap', 'kurel-definitions');
    writeVolume(join(work, 'definitions'), configMap.data);
    port = await freePort();
    // The mounted paths become temporary folders laid out as the kubelet mounts them, and the
    // port a free one (the test above pins it to the container port); every other arg is as written.
    const substitutes: Record<string, string> = {
      '/etc/kurel/tls/tls.crt': join(work, 'tls', 'tls.crt'),
      '/etc/kurel/tls/tls.key': join(work, 'tls', 'tls.key'),
      '/etc/kurel/definitions': join(work, 'definitions'),
      [String(container.ports[0]!.containerPort)]: String(port),
    };
    served = await startServe(
      container.args.map((arg) => substitutes[arg] ?? arg),
      { cwd: ROOT },
    );
  });
  afterAll(async () => {
    await served?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const probe = (path: string) => httpsGet(`https://127.0.0.1:${port}${path}`, [pair.cert]);

  it('answers the readiness probe and the liveness probe with 200 over TLS', async () => {
    const readiness = await probe(container.readinessProbe.httpGet.path);
    const liveness = await probe(container.livenessProbe.httpGet.path);
    expect([readiness.status, liveness.status]).toEqual([200, 200]);
    expect(JSON.parse(readiness.body)).toMatchObject({ status: 'ready', lastReload: { ok: true, diagnostics: [] } });
  });

  it('listens on every interface with TLS and watches the definitions', () => {
    expect(served.lines.find((l) => l['msg'] === 'listening')).toMatchObject({ url: `https://0.0.0.0:${port}`, tls: true, watchDefinitions: true });
  });

  it("serves the ConfigMap's definitions", async () => {
    const capabilities = JSON.parse((await probe('/v1/capabilities')).body) as { type: string; source: string }[];
    const configMap = the<{ data: Record<string, string> }>('ConfigMap', 'kurel-definitions');
    const names = Object.values(configMap.data).map((text) => (parse(text) as { metadata: { name: string } }).metadata.name);
    expect(names).toEqual(['message-queue']);
    expect(capabilities.filter((c) => names.includes(c.type)).map((c) => c.type)).toEqual(names);
  });

  it("drains and exits 0 on SIGTERM within the pod's grace period after preStop", async () => {
    const started = Date.now();
    expect(await served.stop()).toBe(0);
    const preStop = Number(container.lifecycle.preStop.exec.command[1]);
    expect(Date.now() - started).toBeLessThan((pod.terminationGracePeriodSeconds - preStop) * 1000);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
