import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH } from '../../src/core/data.js';
import { lintInFolder, longestText, PROFILE_HEAD, pinned, runInFolder } from './in-process.js';

// Issue 25, rows 1 and 1b: a did-you-mean compared whole words cell by cell, so an 8,000-character
// value against an enum of 8,000-character strings aborted the process, a 15 MB value failing
// a built-in enum took minutes and gigabytes, and a 4 MB unknown key was quoted whole in its
// message. Each is now a short, positioned diagnostic.

const definition = (options: readonly string[]) =>
  [
    'apiVersion: launcher.gokure.dev/v1alpha1',
    'kind: CapabilityDefinition',
    'metadata:',
    '  name: cache',
    'spec:',
    '  rendering:',
    '    properties:',
    '      tier:',
    '        type: string',
    `        enum: [${options.map((o) => JSON.stringify(o)).join(', ')}]`,
    '',
  ].join('\n');

const bindCache = (tier: string) => `${PROFILE_HEAD}  capabilities:\n    cache:\n      rendering:\n        tier: ${tier}\n`;
const bindExpose = (rendering: string) => `${PROFILE_HEAD}  capabilities:\n    expose:\n      rendering:\n${rendering}`;

describe('huge words against an enum (issue 25, rows 1 and 1b)', () => {
  it('reports an 8,000-character value outside an enum of 8,000-character strings', async () => {
    const files = { 'prof.yaml': bindCache('a'.repeat(8000)), 'defs/cache.yaml': definition(['b'.repeat(8000), `${'a'.repeat(7999)}b`]) };
    const run = await lintInFolder(files, ['prof.yaml', '--definitions', 'defs']);
    expect(run.code).toBe(1);
    expect(pinned(run.json)).toEqual([{ code: 'invalid-value', file: 'prof.yaml', line: 9, column: 15, path: '/spec/capabilities/cache/rendering/tier' }]);
    const [diagnostic] = run.json.diagnostics;
    // The options are cut like the value; nothing is suggested for a word that long.
    expect(diagnostic!.message).toBe(`capability "cache": tier must be one of ${'b'.repeat(57)}..., ${'a'.repeat(57)}..., found string "${'a'.repeat(56)}...`);
    expect(diagnostic!.hint).toBeUndefined();
  });

  it('reports a 100,000-character value against an enum of 100,000-character strings', async () => {
    const files = { 'prof.yaml': bindCache('a'.repeat(100_000)), 'defs/cache.yaml': definition(['b'.repeat(100_000)]) };
    const run = await lintInFolder(files, ['prof.yaml', '--definitions', 'defs']);
    expect(pinned(run.json)).toEqual([{ code: 'invalid-value', file: 'prof.yaml', line: 9, column: 15, path: '/spec/capabilities/cache/rendering/tier' }]);
    expect(longestText(run.json)).toBeLessThanOrEqual(200);
  });

  it('lists the first 20 options of a long enum and counts the rest', async () => {
    const options = [...Array.from({ length: 4999 }, (_, i) => `option-${i}`), 'zebra-grass'];
    const run = await lintInFolder({ 'prof.yaml': bindCache('option-x'), 'defs/cache.yaml': definition(options) }, ['prof.yaml', '--definitions', 'defs']);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ['invalid-value', 9, 15, `capability "cache": tier must be one of ${options.slice(0, 20).join(', ')}, … and 4980 more, found string "option-x"`],
    ]);
  });

  it('looks at the first 500 options for a did-you-mean, however many values fail an enum of thousands', async () => {
    const options = [...Array.from({ length: 4999 }, (_, i) => `option-${i}`), 'zebra-grass'];
    const defs = {
      'defs/cache.yaml': definition(options).replace(
        '      tier:\n        type: string\n        enum:',
        '      tiers:\n        type: array\n        items:\n          type: string\n          enum:',
      ),
    };
    const values = ['optoin-7', 'zebra-gras', ...Array.from({ length: 3000 }, (_, i) => `wrong-${i}`)];
    const profile = `${PROFILE_HEAD}  capabilities:\n    cache:\n      rendering:\n        tiers:\n${values.map((v) => `          - ${v}\n`).join('')}`;
    const run = await lintInFolder({ 'prof.yaml': profile, ...defs }, ['prof.yaml', '--definitions', 'defs']);
    // 1,000 problems are shown, the rest counted in one warning.
    expect(run.json.diagnostics).toHaveLength(1001);
    expect(run.json.diagnostics.slice(0, 4).map((d) => [d.code, d.line, d.column, d.path, d.hint])).toEqual([
      ['too-many-problems', 1, 1, '', undefined],
      ['invalid-value', 10, 13, '/spec/capabilities/cache/rendering/tiers/0', 'did you mean option-7?'],
      // zebra-grass is past the first 500 options.
      ['invalid-value', 11, 13, '/spec/capabilities/cache/rendering/tiers/1', undefined],
      ['invalid-value', 12, 13, '/spec/capabilities/cache/rendering/tiers/2', undefined],
    ]);
    expect(longestText(run.json)).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
  });

  it('reports a 15 MB value failing the built-in controllerType enum, its message cut', async () => {
    const run = await lintInFolder({ 'prof.yaml': bindExpose(`        controllerType: ${'a'.repeat(15 * 1024 * 1024)}\n`) }, ['prof.yaml']);
    expect(run.code).toBe(1);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.message, d.hint])).toEqual([
      [
        'invalid-value',
        9,
        25,
        '/spec/capabilities/expose/rendering/controllerType',
        `capability "expose": controllerType must be one of ingress, gateway, found string "${'a'.repeat(56)}...`,
        undefined,
      ],
    ]);
  });

  it('still suggests the option a short value misspells', async () => {
    const run = await lintInFolder({ 'prof.yaml': bindExpose('        controllerType: ingres\n') }, ['prof.yaml']);
    expect(run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.hint])).toEqual([['invalid-value', 9, 25, 'did you mean ingress?']]);
  });
});

describe('a 4 MB explicit key (issue 25, row 1b)', () => {
  it('is an unknown field whose message quotes the first 253 characters of it', async () => {
    const key = 'k'.repeat(4 * 1024 * 1024);
    const run = await lintInFolder(
      { 'prof.yaml': bindExpose(`        controllerType: gateway\n        gatewayName: public\n        ? ${key}\n        : 1\n`) },
      ['prof.yaml'],
    );
    expect(run.code).toBe(1);
    expect(pinned(run.json)).toEqual([{ code: 'unknown-field', file: 'prof.yaml', line: 11, column: 11, path: `/spec/capabilities/expose/rendering/${key}` }]);
    const [diagnostic] = run.json.diagnostics;
    expect(diagnostic!.message.startsWith(`capability "expose": unknown field "${'k'.repeat(253)}..." (allowed: `)).toBe(true);
    expect(diagnostic!.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(diagnostic!.hint).toBeUndefined();
  });

  it('is cut in the text report too: message, source line and caret', async () => {
    const key = 'k'.repeat(4 * 1024 * 1024);
    const run = await runInFolder(
      { 'prof.yaml': bindExpose(`        controllerType: gateway\n        gatewayName: public\n        ? ${key}\n        : 1\n`) },
      ['lint', 'prof.yaml'],
    );
    const lines = run.stdout.split('\n');
    expect(lines[0]!.startsWith(`prof.yaml:11:11 error unknown-field capability "expose": unknown field "${'k'.repeat(253)}..." (allowed: `)).toBe(true);
    // The source line is shown up to 300 characters, the caret up to 200.
    expect(lines.slice(1, 3)).toEqual([`          ? ${'k'.repeat(290)}…`, `            ${'^'.repeat(200)}`]);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH + 100);
  });
});
