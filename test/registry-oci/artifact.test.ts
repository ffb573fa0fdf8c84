import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packLayer, unpackLayer } from '../../src/registry/artifact.js';
import { propertyRuns } from '../helpers/property.js';

const file = fc.record({
  name: fc
    .array(fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,11}$/), { minLength: 1, maxLength: 3 })
    .chain((parts) => fc.constantFrom('.yaml', '.yml', '.json').map((ext) => `${parts.join('/')}${ext}`)),
  bytes: fc.uint8Array({ maxLength: 300 }),
});

describe('the artifact layer (docs/registries.md, "The artifact")', () => {
  it('gzips with no name, no time and an unknown OS, so the bytes are the same on any machine', async () => {
    const layer = await packLayer([{ name: 'a.yaml', bytes: Buffer.from('a: 1\n') }]);
    expect([...layer.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);
  });

  it('for every set of files: unpacking the layer gives them back sorted, and the layer does not depend on their order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(file, { selector: (f) => f.name, maxLength: 8 }), async (files) => {
        const layer = await packLayer(files);
        expect(Buffer.compare(layer, await packLayer([...files].reverse()))).toBe(0);
        const unpacked = await unpackLayer(layer, 'oci://example.com/defs:1.0.0');
        const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : 1));
        expect(unpacked.map((f) => [f.name, Buffer.from(f.bytes).toString('hex')])).toEqual(sorted.map((f) => [f.name, Buffer.from(f.bytes).toString('hex')]));
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
