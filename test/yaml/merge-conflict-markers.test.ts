import { describe, expect, it } from 'vitest';
import { lintInFolder, PROFILE_HEAD } from '../hostile/in-process.js';

// Issue 29, row 5: a profile with git merge markers got seven `yaml-syntax` errors about
// indentation and never named the marker line. It gets one error per conflict, at its
// `<<<<<<<` line (docs/codes/yaml-syntax.md).

const HINT = 'resolve the conflict: keep the side you want (or combine both), then delete the <<<<<<<, ======= and >>>>>>> lines';
const RENDERING = `${PROFILE_HEAD}  capabilities:\n    expose:\n      rendering:\n`;
const OURS = '        controllerType: ingress\n        ingressClassName: nginx\n';
const THEIRS = '        controllerType: gateway\n        gatewayName: public\n';

async function diagnosticsOf(text: string) {
  const run = await lintInFolder({ 'cluster.yaml': text }, ['cluster.yaml']);
  return { code: run.code, diagnostics: run.json.diagnostics.map((d) => [d.code, d.line, d.column, d.endColumn, d.message, d.hint]) };
}

describe('git merge conflict markers (issue 29, row 5)', () => {
  it('are one yaml-syntax error at the <<<<<<< line, naming where the conflict ends', async () => {
    const text = `${RENDERING}<<<<<<< HEAD\n${OURS}=======\n${THEIRS}>>>>>>> feature\n`;
    expect(await diagnosticsOf(text)).toEqual({
      code: 1,
      diagnostics: [['yaml-syntax', 9, 1, 13, 'merge conflict markers: this <<<<<<< line starts an unresolved git conflict that ends on line 15', HINT]],
    });
  });

  it('are one error per conflict, in the diff3 style too', async () => {
    const text = `${PROFILE_HEAD}<<<<<<< ours\n  capabilities: {}\n||||||| base\n  capabilities: null\n=======\n  capabilities: []\n>>>>>>> theirs\n  gitopsEngine: flux\n<<<<<<< ours\n  x: 1\n=======\n  y: 2\n>>>>>>> theirs\n`;
    expect((await diagnosticsOf(text)).diagnostics).toEqual([
      ['yaml-syntax', 6, 1, 13, 'merge conflict markers: this <<<<<<< line starts an unresolved git conflict that ends on line 12', HINT],
      ['yaml-syntax', 14, 1, 13, 'merge conflict markers: this <<<<<<< line starts an unresolved git conflict that ends on line 18', HINT],
    ]);
  });

  it('say so when a conflict never ends', async () => {
    const text = `${RENDERING}<<<<<<< HEAD\n${OURS}=======\n${THEIRS}`;
    expect((await diagnosticsOf(text)).diagnostics).toEqual([
      ['yaml-syntax', 9, 1, 13, 'merge conflict markers: this <<<<<<< line starts an unresolved git conflict that never ends (no >>>>>>> line)', HINT],
    ]);
  });

  it('point at the first marker of a document that holds only the end of a conflict', async () => {
    const definition = 'apiVersion: launcher.gokure.dev/v1alpha1\nkind: CapabilityDefinition\nmetadata:\n  name: cache\nspec: {}\n';
    const text = `${definition}---\n${definition}=======\n  name: queue\n>>>>>>> feature\n`;
    expect((await diagnosticsOf(text)).diagnostics).toEqual([
      ['yaml-syntax', 12, 1, 8, 'merge conflict markers: this line is a marker of an unresolved git conflict', HINT],
    ]);
  });

  it('leave other syntax errors as they were', async () => {
    const text = `${RENDERING}        controllerType: gateway\n       gatewayName: public\n`;
    // At the misindented key (docs/diagnostics.md), as without markers.
    expect((await diagnosticsOf(text)).diagnostics.map((d) => d.slice(0, 3))).toEqual([['yaml-syntax', 10, 8]]);
  });

  it('are text like any other inside a block scalar, where they are indented', async () => {
    const text = `${PROFILE_HEAD}  capabilities:\n    notes:\n      rendering:\n        text: |\n          <<<<<<< HEAD\n          =======\n          >>>>>>> x\n`;
    expect((await diagnosticsOf(text)).diagnostics.map((d) => d[0])).not.toContain('yaml-syntax');
  });
});
