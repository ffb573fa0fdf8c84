import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/catalogue.js';
import { RegistryError } from '../../src/catalogue/errors.js';
import { addPlugins, PluginLoadError } from '../../src/catalogue/load-plugins.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLUGINS = 'test/fixtures/plugins';

async function loadError(spec: string, cwd = ROOT): Promise<RegistryError> {
  try {
    await addPlugins(createCatalogue(), [spec], cwd);
  } catch (err) {
    if (err instanceof RegistryError) return err;
    throw err;
  }
  throw new Error(`expected ${spec} to be refused`);
}

describe('loadPlugins refuses a broken plugin, naming it', () => {
  it.each([
    [
      'claims a built-in type',
      'claims-builtin.mjs',
      'handler "expose" (plugin:test/fixtures/plugins/claims-builtin.mjs): the plugin claims the type of the built-in handler "expose"; a plugin may not replace a built-in',
    ],
    ['throws while loading', 'throws-on-load.mjs', 'plugin test/fixtures/plugins/throws-on-load.mjs: the plugin failed to load: REDIS_URL is not set'],
    [
      'exports a string instead of a handler',
      'not-a-handler.mjs',
      'handler "(unnamed)" (plugin:test/fixtures/plugins/not-a-handler.mjs): a handler must be an object, found string',
    ],
    [
      'exports a list holding something that is not a handler',
      'array-with-non-handler.mjs',
      'handler "(unnamed)" (plugin:test/fixtures/plugins/array-with-non-handler.mjs): a handler must be an object, found number',
    ],
    [
      'is capability-aware without validateAndApplyDefaults',
      'aware-without-validate.mjs',
      'handler "redis-sidecar" (plugin:test/fixtures/plugins/aware-without-validate.mjs): a capability-aware handler must implement validateAndApplyDefaults',
    ],
    [
      'has no default export',
      'no-default-export.mjs',
      'plugin test/fixtures/plugins/no-default-export.mjs: the plugin has no default export (a handler or an array of handlers); found only named exports: handler',
    ],
  ])('when it %s', async (_what, file, message) => {
    const error = await loadError(`${PLUGINS}/${file}`);
    expect(error.message).toBe(message);
    expect(error.source).toBe(`plugin:${PLUGINS}/${file}`);
  });

  it('when its file does not exist', async () => {
    const error = await loadError('./plugins/missing.mjs');
    expect(error).toBeInstanceOf(PluginLoadError);
    expect(error.message).toBe(`plugin ./plugins/missing.mjs: cannot find the plugin file ${resolve(ROOT, 'plugins/missing.mjs')}`);
  });

  it('when a second plugin claims a type the first registered', async () => {
    const registry = await addPlugins(createCatalogue(), [`${PLUGINS}/schemaless-redis-sidecar.mjs`], ROOT);
    await expect(addPlugins(registry, ['examples/plugins/redis-sidecar.mjs'], ROOT)).rejects.toThrow(
      'handler "redis-sidecar" (plugin:examples/plugins/redis-sidecar.mjs): type "redis-sidecar" is already registered by plugin:test/fixtures/plugins/schemaless-redis-sidecar.mjs',
    );
  });
});

describe('loadPlugins loads', () => {
  it('the example plugin docs/plugins.md shows verbatim', () => {
    const example = readFileSync(join(ROOT, 'examples/plugins/redis-sidecar.mjs'), 'utf8');
    const page = readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8');
    expect(page).toContain(`\`\`\`js\n${example}\`\`\`\n`);
  });

  it('the example plugin from its path', async () => {
    const registry = await addPlugins(createCatalogue(), ['examples/plugins/redis-sidecar.mjs'], ROOT);
    const registered = registry.handler('redis-sidecar');
    expect(registered?.source).toBe('plugin:examples/plugins/redis-sidecar.mjs');
    expect(registered?.handler.capabilityRequired).toBe(true);
  });

  describe('a package by name from the working directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurel-plugins-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const handler = (type: string) => `export default { type: '${type}', description: 'from a package', capabilityAware: false };\n`;
    const install = (name: string, manifest: Record<string, unknown>, files: Record<string, string>) => {
      const root = join(dir, 'node_modules', name);
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name, type: 'module', ...manifest }));
      for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
    };
    install('kurel-plugin-esm', { exports: { '.': { import: './index.js' } } }, { 'index.js': handler('esm-only') });
    install('@acme/kurel-plugin', { exports: { '.': { require: './missing.cjs', default: './main.js' } } }, { 'main.js': handler('scoped') });
    install('kurel-plugin-main', { main: 'entry.js' }, { 'entry.js': handler('by-main') });

    it.each([
      ['kurel-plugin-esm', 'esm-only'],
      ['@acme/kurel-plugin', 'scoped'],
      ['kurel-plugin-main', 'by-main'],
    ])('%s registers %s', async (spec, type) => {
      const registry = await addPlugins(createCatalogue(), [spec], join(dir, 'nested'));
      expect(registry.handler(type)?.source).toBe(`plugin:${spec}`);
    });

    it('and names a package it cannot find', async () => {
      const error = await loadError('kurel-plugin-absent', dir);
      expect(error).toBeInstanceOf(PluginLoadError);
      expect(error.message).toBe(
        `plugin kurel-plugin-absent: cannot find the package kurel-plugin-absent from ${dir}; install it there, or give the plugin's path (./kurel-plugin-absent.mjs)`,
      );
    });
  });
});
