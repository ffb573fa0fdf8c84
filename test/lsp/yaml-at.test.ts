import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyOfLine, placeAt, placeByLines } from '../../src/lsp/yaml-at.js';

const TEXT = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
spec:
  capabilities:
    edge-proxy:
      rendering: {replicas: 2, tls: {mode: simple}}
    "redis-sidecar":
      rendering:
        image: redis
`;

describe('placeAt', () => {
  it('finds a key inside a flow map, on the key', () => {
    const offset = TEXT.indexOf('mode');
    expect(placeAt(TEXT, offset + 1)).toEqual({
      path: ['spec', 'capabilities', 'edge-proxy', 'rendering', 'tls', 'mode'],
      isOnKey: true,
      key: [offset, offset + 4],
    });
  });

  it('finds the key whose value holds the offset', () => {
    const offset = TEXT.indexOf('redis\n');
    expect(placeAt(TEXT, offset + 2)).toMatchObject({ path: ['spec', 'capabilities', 'redis-sidecar', 'rendering', 'image'], isOnKey: false });
  });

  it('reads a quoted key by its lines, quotes and all in its range', () => {
    const offset = TEXT.indexOf('"redis-sidecar"');
    expect(placeByLines(TEXT, offset + 3)).toEqual({ path: ['spec', 'capabilities', 'redis-sidecar'], isOnKey: true, key: [offset, offset + 15] });
  });

  it('reads nothing off a key by its lines', () => {
    expect(placeByLines(TEXT, TEXT.indexOf('redis\n'))).toBeUndefined();
    expect(keyOfLine('# a comment: here')).toBeUndefined();
  });

  // Every key of a block map: the line reader (used for large texts) agrees with the parser.
  it('agrees with the parser on every key of a block map', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
    type Tree = { [key: string]: Tree | string };
    const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
      tree: fc.dictionary(name, fc.oneof({ depthSize: 'small' }, fc.constant('x'), tie('tree')), { minKeys: 1, maxKeys: 4 }),
    })).tree;
    fc.assert(
      fc.property(tree, (root) => {
        const lines: string[] = [];
        const write = (map: Tree, indent: number) => {
          for (const [key, value] of Object.entries(map)) {
            if (typeof value === 'string') lines.push(`${' '.repeat(indent)}${key}: ${value}`);
            else {
              lines.push(`${' '.repeat(indent)}${key}:`);
              write(value, indent + 2);
            }
          }
        };
        write(root, 0);
        const text = `${lines.join('\n')}\n`;
        let offset = 0;
        for (const line of lines) {
          const at = offset + line.search(/\S/) + 1;
          expect(placeByLines(text, at)).toEqual(placeAt(text, at));
          offset += line.length + 1;
        }
      }),
    );
  });
});
