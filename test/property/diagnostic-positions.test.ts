import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Document, isAlias, isMap, isScalar, isSeq, type Node } from 'yaml';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { lintInputs } from '../../src/operations/lint.js';
import { parseYamlStream } from '../../src/yaml/source.js';
import { propertyRuns } from '../helpers/property.js';
import { editedProfileText, yamlishText } from './arbitraries.js';

// Issue #7: every diagnostic has a file, a line and column inside the file, and a path that
// exists in the input or is the missing child of a node that does (docs/profiles.md).
const registry = createCatalogue();

/** JSON Pointer segments, unescaped. */
function segmentsOf(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function existsInData(value: unknown, segments: readonly string[]): boolean {
  let node = value;
  for (const segment of segments) {
    if (Array.isArray(node) && /^\d+$/.test(segment) && Number(segment) < node.length) node = node[Number(segment)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.hasOwn(node, segment))
      node = (node as Record<string, unknown>)[segment];
    else return false;
  }
  return true;
}

// The source tree holds what the data may not: nodes of a document that could not be read
// to the end (an alias bomb, nesting past the limit).
function existsInSource(doc: Document.Parsed, segments: readonly string[]): boolean {
  let node: unknown = doc.contents;
  for (const segment of segments) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (!pair) return false;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(segment) && Number(segment) < node.items.length) {
      node = node.items[Number(segment)] as Node;
    } else {
      return false;
    }
  }
  return true;
}

// A binding written with no rendering has an empty one: a key it requires is reported under
// the rendering the binding would hold (docs/profiles.md: an absent parent points at the nearest ancestor).
function isRenderingKey(d: Diagnostic, segments: readonly string[]): boolean {
  return d.code === 'missing-required' && segments.length === 5 && segments[3] === 'rendering';
}

function checkDiagnostics(text: string, diagnostics: readonly Diagnostic[]): void {
  const documents = parseYamlStream(text, 'cluster.yaml').documents;
  const lines = text.split(/\r?\n|\r/).length;
  for (const d of diagnostics) {
    const segments = segmentsOf(d.path);
    const exists = (s: readonly string[]) => s.length === 0 || documents.some((doc) => existsInData(doc.data, s) || existsInSource(doc.doc, s));
    expect(
      {
        file: d.file,
        line: d.line >= 1 && d.line <= lines,
        column: d.column >= 1,
        end: d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column),
        path: exists(segments) || exists(segments.slice(0, -1)) || (isRenderingKey(d, segments) && exists(segments.slice(0, -2))),
      },
      `${d.code} at ${d.line}:${d.column} ${d.path}: ${d.message}`,
    ).toEqual({ file: 'cluster.yaml', line: true, column: true, end: true, path: true });
  }
}

describe('every diagnostic is positioned in the input', () => {
  it('for valid profiles after random edits', () => {
    fc.assert(
      fc.property(editedProfileText, (text) => {
        checkDiagnostics(text, lintInputs([{ file: 'cluster.yaml', content: text, origin: 'argument' }], registry).diagnostics);
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('for texts made of YAML syntax pieces', () => {
    fc.assert(
      fc.property(yamlishText, (text) => {
        checkDiagnostics(text, lintInputs([{ file: 'cluster.yaml', content: text, origin: 'argument' }], registry).diagnostics);
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});
