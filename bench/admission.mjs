// The admission webhook's throughput per core (docs/kubernetes.md: the README's replica count comes from
// it): `kurel serve --workers 1` (one worker thread judges every review, so one core does the
// work) answering `POST /v1/admission` with the AdmissionReview an API server sends when the
// repository's multi-gateway profile is applied (as JSON, with the metadata the API server adds),
// under autocannon load (10 connections, loopback) for BENCH_ROUNDS rounds (3) of BENCH_SECONDS
// (10). Prints reviews per second per core (the median of the rounds) and the replicas a few peak
// rates need by the README's rule. A figure, not a budget: none is set for it. Stops by itself.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parse } from 'yaml';
import { median } from './lib/measure.mjs';
import { killAll, ROOT, requireBuild, startKurel, stop } from './lib/servers.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;

requireBuild();
const hardStop = setTimeout(
  () => {
    console.error('the admission bench took too long; stopping');
    killAll();
    process.exit(1);
  },
  (ROUNDS * SECONDS + 60) * 1000,
);
hardStop.unref();

const object = parse(readFileSync(join(ROOT, 'profiles', 'gateway-multi-scope.yaml'), 'utf8'));
object.metadata = {
  ...object.metadata,
  uid: '3f1c7a52-8d0e-4a61-9b7e-2f5d6c1e0a94',
  resourceVersion: '48213',
  generation: 1,
  creationTimestamp: '2026-11-25T09:00:00Z',
  managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'launcher.gokure.dev/v1alpha1' }],
};
const body = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
    kind: { group: 'launcher.gokure.dev', version: 'v1alpha1', kind: 'ClusterProfile' },
    resource: { group: 'launcher.gokure.dev', version: 'v1alpha1', resource: 'clusterprofiles' },
    name: object.metadata.name,
    operation: 'CREATE',
    userInfo: { username: 'admin', groups: ['system:authenticated'] },
    object,
    dryRun: false,
  },
});

const kurel = await startKurel({ args: ['--workers', '1'] });
try {
  const check = await fetch(`${kurel.url}/v1/admission`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const answer = await check.json();
  if (check.status !== 200 || answer.response?.allowed !== true) throw new Error(`the review was not allowed: ${JSON.stringify(answer)}`);
  await run(1);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await run(SECONDS));
  const perCore = median(rounds.map((r) => r.rps));
  console.log(`admission: POST /v1/admission, kurel serve --workers 1, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, loopback`);
  console.log(`  review body ${Buffer.byteLength(body)} bytes (a ClusterProfile of 4 bindings with API server metadata), allowed`);
  console.log(
    `  reviews/s per core: ${perCore.toFixed(0)} (rounds: ${rounds.map((r) => r.rps.toFixed(0)).join(', ')}); p50 ${median(rounds.map((r) => r.p50))} ms, p99 ${median(rounds.map((r) => r.p99))} ms`,
  );
  for (const peak of [50, 500, 5000]) {
    const replicas = Math.max(2, Math.ceil(peak / (perCore * 2 * 0.7)));
    console.log(`  ${String(peak).padStart(5)} reviews/s at peak: ${replicas} replicas of 2 cores (ceil(peak / (per core x 2 x 0.7)), at least 2)`);
  }
} finally {
  await stop(kurel.child);
}

async function run(seconds) {
  const result = await autocannon({
    url: `${kurel.url}/v1/admission`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99 };
}
