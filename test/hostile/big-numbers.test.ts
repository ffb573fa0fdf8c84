import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose, err, lintText } from '../helpers/profile.js';
import { lintBounded } from './bounded-cli.js';

// Issue #7: integers beyond 2^53 are invalid-value where an integer is expected, and kept
// exact as data where no integer is expected (docs/profiles.md).
const BEYOND = '9007199254740993'; // 2^53 + 1: a double would silently read it as 2^53
const HUGE = '123456789012345678901234567890';
const DEFINITION = `apiVersion: launcher.gokure.dev/v1alpha1
kind: CapabilityDefinition
metadata:
  name: cache
spec:
  rendering:
    properties:
      size: {type: integer}
      anything:
`;
// The value of `size` or `anything` sits on line 9, from column 15 (size) or 19 (anything).
const cache = (line: string) => `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: prod
spec:
  capabilities:
    cache:
      rendering:
        ${line}
`;
const withDefinition = { definitions: { 'cache.yaml': DEFINITION } };

describe('an integer beyond 2^53 where an integer is expected', () => {
  it.each([BEYOND, `-${BEYOND}`, HUGE, '1.0e30', '0x20000000000001'])('reports size: %s as invalid-value at the value', (value) => {
    expect(diagnose(cache(`size: ${value}`), withDefinition)).toEqual([err('invalid-value', 9, 15, '/spec/capabilities/cache/rendering/size')]);
  });

  it('says the value cannot be represented exactly, with every digit', () => {
    const [diagnostic] = lintText(cache(`size: ${BEYOND}`), withDefinition).diagnostics;
    expect(diagnostic?.message).toBe(`capability "cache": size is ${BEYOND}, beyond 2^53: it cannot be represented exactly`);
  });

  it.each(['9007199254740991', '-9007199254740991'])('accepts size: %s, the last exact integer', (value) => {
    const report = lintText(cache(`size: ${value}`), withDefinition);
    expect({ diagnostics: report.diagnostics, size: report.files[0]?.resolved?.capabilities['cache']?.['size'] }).toEqual({
      diagnostics: [],
      size: Number(value),
    });
  });

  it.each(['.inf', '-.inf', '.nan'])('reports size: %s as invalid-value: not a finite number', (value) => {
    expect(diagnose(cache(`size: ${value}`), withDefinition)).toEqual([err('invalid-value', 9, 15, '/spec/capabilities/cache/rendering/size')]);
  });

  it('reports one where a string is expected as wrong-type at the value, hinting to quote it', () => {
    const text = cache(`size: 1`).replace(
      '    cache:\n      rendering:\n        size: 1\n',
      `    expose:\n      rendering: {controllerType: ingress, ingressClassName: ${BEYOND}}\n`,
    );
    const report = lintText(text);
    expect(report.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.hint])).toEqual([
      ['wrong-type', 8, 62, '/spec/capabilities/expose/rendering/ingressClassName', `quote it: "${BEYOND}"`],
    ]);
  });
});

describe('an integer beyond 2^53 where no integer is expected', () => {
  it('is kept exact in a definition property that accepts any value', () => {
    const report = lintText(cache(`anything: ${HUGE}`), withDefinition);
    expect({ diagnostics: report.diagnostics, anything: report.files[0]?.resolved?.capabilities['cache']?.['anything'] }).toEqual({
      diagnostics: [],
      anything: BigInt(HUGE),
    });
  });

  it('is kept exact in a pass-through rendering and in a podSelector', () => {
    const text = cache('size: 1').replace(
      '    cache:\n      rendering:\n        size: 1\n',
      `    ingress:\n      rendering: {maxBodyBytes: ${HUGE}, floor: -${BEYOND}}\n    expose:\n      rendering:\n        controllerType: gateway\n        gatewayName: public\n        networkPolicy: {trafficSources: [{namespace: apps, podSelector: {weight: ${BEYOND}}}]}\n`,
    );
    const report = lintText(text);
    const capabilities = report.files[0]?.resolved?.capabilities ?? {};
    expect({
      diagnostics: report.diagnostics.map((d) => d.code),
      ingress: capabilities['ingress'],
      selector: (capabilities['expose'] as { networkPolicy: { trafficSources: { podSelector: unknown }[] } }).networkPolicy.trafficSources[0]?.podSelector,
    }).toEqual({
      // The ingress rendering is validated by nothing (docs/codes/unvalidated-capability.md).
      diagnostics: ['unvalidated-capability'],
      ingress: { maxBodyBytes: BigInt(HUGE), floor: -BigInt(BEYOND) },
      selector: { weight: BigInt(BEYOND) },
    });
  });
});

describe('the CLI', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kurel-big-numbers-'));
    writeFileSync(join(dir, 'cache.yaml'), DEFINITION);
    writeFileSync(join(dir, 'exact.yaml'), cache(`anything: [${HUGE}, -${BEYOND}]`));
    writeFileSync(join(dir, 'beyond.yaml'), cache(`size: ${BEYOND}`));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints every digit of kept integers in --format json resolved output', async () => {
    const run = await lintBounded(['exact.yaml', '--capability-def', 'cache.yaml'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`"anything": [\n              ${HUGE},\n              -${BEYOND}\n            ]`);
  });

  it('exits 1 for an integer beyond 2^53 where an integer is expected', async () => {
    const run = await lintBounded(['beyond.yaml', '--capability-def', 'cache.yaml'], { cwd: dir });
    expect({ code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.line, d.column]) }).toEqual({
      code: 1,
      diagnostics: [['invalid-value', 9, 15]],
    });
  });
});
