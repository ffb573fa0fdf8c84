import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// kurel runs on Node 20.10 or later (package.json's engines): CI runs every test on Node 20 and
// again on Node 22 (.ci/run), and the Docker image runs Node 22, an LTS line (Node 20's life
// ended in April 2026). Every package the lockfile installs, test-only ones included, accepts
// both, so `npm ci` prints no EBADENGINE warning on either. (The test runner itself needs Node
// 20.19 or 22.13 or later.)
const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const lock = JSON.parse(read('../package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };
const engines = (JSON.parse(read('../package.json')) as { engines: { node: string } }).engines.node;

describe('the lockfile', () => {
  it.each(['20.19.0', '22.13.0'])('holds no package that refuses Node %s', (node) => {
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => typeof entry.engines?.node === 'string' && !semver.satisfies(node, entry.engines.node))
      .map(([name, entry]) => `${name} ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});

describe('the Node lines', () => {
  it("are the ones package.json's engines accept: the image's and CI's second run", () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(read('../Dockerfile'))?.[1];
    const ci = /node@(\d+)/.exec(read('../.ci/run'))?.[1];
    expect([image, ci]).toEqual(['22', '22']);
    expect([engines, semver.satisfies('22.0.0', engines), semver.satisfies('20.9.0', engines)]).toEqual(['>=20.10', true, false]);
  });
});
