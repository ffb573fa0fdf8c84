import { describe, expect, it } from 'vitest';
import { pvc } from '../../handlers/pvc.js';
import { volsync } from '../../handlers/volsync.js';
import { diagnose, err, lintText, resolve, withBindings } from '../helpers/profile.js';

// Binding text line n is profile line 6 + n; column c is column 4 + c (see withBindings).
describe('pvc', () => {
  it('keeps storageClassName and adds no defaults', () => {
    expect(resolve(withBindings('pvc:\n  rendering:\n    storageClassName: gp3'))).toEqual({ pvc: { storageClassName: 'gp3' } });
  });

  it.each([
    ['no rendering', 'pvc: {}'],
    ['a null binding', 'pvc:'],
    ['an empty rendering', 'pvc:\n  rendering: {}'],
  ])('accepts %s and resolves it to an empty map', (_name, bindings) => {
    expect(resolve(withBindings(bindings))).toEqual({ pvc: {} });
  });

  it('reports a non-string storageClassName as wrong-type at the value', () => {
    expect(diagnose(withBindings('pvc:\n  rendering:\n    storageClassName: 3'))).toEqual([
      err('wrong-type', 9, 27, '/spec/capabilities/pvc/rendering/storageClassName'),
    ]);
  });

  it.each([
    ['1.10', '"1.10"'],
    ['0x1F', '"0x1F"'],
    ['1e3', '"1e3"'],
    ['true', '"true"'],
    ['*num', '"1.10"'],
  ])('hints to quote storageClassName: %s as written in the source, not as parsed (issue 16, defect 5)', (written, quoted) => {
    // The pass-through ingress binding holds the anchor an alias may refer to.
    const text = withBindings(`ingress:\n  rendering: {x: &num 1.10}\npvc:\n  rendering:\n    storageClassName: ${written}`);
    // The ingress rendering is validated by nothing: its warning comes first (docs/codes/unvalidated-capability.md).
    const [passThrough, d] = lintText(text).diagnostics;
    expect(passThrough).toMatchObject({ code: 'unvalidated-capability', line: 8, column: 3 + 4 });
    expect(d).toMatchObject({ code: 'wrong-type', line: 11, column: 27, hint: `quote it: ${quoted}` });
  });

  it('reports an unknown key at the key with a did-you-mean hint', () => {
    const report = lintText(withBindings('pvc:\n  rendering:\n    storageClass: gp3'));
    expect(report.diagnostics).toMatchObject([
      { code: 'unknown-field', line: 9, column: 9, path: '/spec/capabilities/pvc/rendering/storageClass', hint: 'did you mean storageClassName?' },
    ]);
    expect(report.diagnostics[0]!.message).toBe('capability "pvc": unknown field "storageClass" (allowed: storageClassName)');
  });

  it('is not capability-aware, yet validates its rendering strictly', () => {
    expect({ aware: pvc.capabilityAware, hasSchema: pvc.renderingSchema !== undefined }).toEqual({ aware: false, hasSchema: true });
  });
});

describe('volsync', () => {
  it('keeps both class names and adds no defaults', () => {
    expect(resolve(withBindings('volsync:\n  rendering:\n    storageClassName: gp3\n    volumeSnapshotClassName: ebs-snap'))).toEqual({
      volsync: { storageClassName: 'gp3', volumeSnapshotClassName: 'ebs-snap' },
    });
  });

  it('reports a non-string volumeSnapshotClassName as wrong-type at the value', () => {
    expect(diagnose(withBindings('volsync:\n  rendering:\n    volumeSnapshotClassName: true'))).toEqual([
      err('wrong-type', 9, 34, '/spec/capabilities/volsync/rendering/volumeSnapshotClassName'),
    ]);
  });

  it('reports every unknown key, each at its key', () => {
    expect(diagnose(withBindings('volsync:\n  rendering:\n    snapshotClass: a\n    schedule: "0 * * * *"'))).toEqual([
      err('unknown-field', 9, 9, '/spec/capabilities/volsync/rendering/snapshotClass'),
      err('unknown-field', 10, 9, '/spec/capabilities/volsync/rendering/schedule'),
    ]);
  });

  it('is not capability-aware, yet validates its rendering strictly', () => {
    expect({ aware: volsync.capabilityAware, hasSchema: volsync.renderingSchema !== undefined }).toEqual({ aware: false, hasSchema: true });
  });
});
