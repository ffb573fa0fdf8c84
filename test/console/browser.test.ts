import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTool, skipWithout } from '../helpers/real-tool.js';
import {
  CHROMIUM,
  type Chromium,
  describeFocus,
  launchChromium,
  type PageWatch,
  readCursor,
  readGutterMarks,
  readUnderlines,
  type Served,
  startKurelServe,
  startPrefixProxy,
  watchPage,
} from './browser-support.js';

// The web console (docs/console.md) in Debian's Chromium, against the built `kurel serve`.
// Skipped without Debian's chromium (apt-get install -y chromium), except in CI, where it fails.
const BROWSER = findTool(CHROMIUM, ['--version']);

const DEFINITIONS = fileURLToPath(new URL('../fixtures/console-definitions', import.meta.url));
/** The package's definitions: named definitions replace the embedded default, so the console's service names both. */
const PACKAGE_DEFINITIONS = fileURLToPath(new URL('../../definitions', import.meta.url));
/** Where the screenshots go, for a person to look at (git-ignored). */
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/console/', import.meta.url));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The rules axe runs: WCAG 2.0, 2.1 and 2.2 at levels A and AA (2.2's `target-size` among them), and its best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/** A profile with five mistakes, one diagnostic each; line 14 has an astral character before its mistake. */
const FIVE_MISTAKES = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: edge
  name: edge-2
spec:
  capabilities:
    expose:
      rendering:
        controllerType: gateway
        gatewayName: public-gw
        gatewayNamespce: edge
    object-bucket:
      rendering: {region: "🌍 eu-west", storageClass: glacier}
    certificate:
      rendering:
        issuerRef:
          name: 42
    managed-postgres:
      rendering:
        instances: 3
`;

/** The five diagnostics, as the service positions them (columns in UTF-16 code units, ends exclusive). */
const EXPECTED = [
  { line: 5, column: 3, endColumn: 7, text: 'name', code: 'duplicate-key', message: 'duplicate key "name" (first defined on line 4)', hint: null },
  {
    line: 12,
    column: 9,
    endColumn: 24,
    text: 'gatewayNamespce',
    code: 'unknown-field',
    message:
      'capability "expose": unknown field "gatewayNamespce" (allowed: controllerType, gatewayName, gatewayNamespace, allowedHostnameWildcard, networkPolicy)',
    hint: 'did you mean gatewayNamespace?',
  },
  // Column 55 counts the globe as two code units; counted in code points it would be 54.
  {
    line: 14,
    column: 55,
    endColumn: 62,
    text: 'glacier',
    code: 'invalid-value',
    message: 'capability "object-bucket": storageClass must be one of standard, infrequent, archive, found string "glacier"',
    hint: null,
  },
  {
    line: 18,
    column: 17,
    endColumn: 19,
    text: '42',
    code: 'wrong-type',
    message: 'capability "certificate": issuerRef.name must be a string, found integer 42',
    hint: 'quote it: "42"',
  },
  {
    line: 20,
    column: 7,
    endColumn: 16,
    text: 'rendering',
    code: 'missing-required',
    message: 'capability "managed-postgres": storage is required',
    hint: null,
  },
];

const FIXED = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: edge
spec:
  capabilities:
    expose:
      rendering:
        controllerType: gateway
        gatewayName: public-gw
        gatewayNamespace: edge
    object-bucket:
      rendering: {region: "🌍 eu-west", storageClass: archive}
    certificate:
      rendering:
        issuerRef:
          name: "42"
    managed-postgres:
      rendering:
        instances: 3
        storage: {size: 20Gi}
`;

/** What the screenshots show: the five mistakes, without the globe (a headless Chromium may have no emoji font). */
const SCREENSHOT_PROFILE = FIVE_MISTAKES.replace('"🌍 eu-west"', 'eu-west');

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

describe.skipIf(skipWithout(BROWSER))(`the web console in Chromium (${BROWSER.version})`, () => {
  let served: Served;
  let browser: Chromium;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [served, browser] = await Promise.all([startKurelServe(['--definitions', PACKAGE_DEFINITIONS, '--definitions', DEFINITIONS]), launchChromium()]);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), served?.stop()]);
  });

  /** A new page at the console, watched for errors; viewport and colour scheme as given. */
  async function open(
    fragment = '',
    options: { width?: number; height?: number; scheme?: 'light' | 'dark'; base?: string } = {},
  ): Promise<{ page: Page; watch: PageWatch }> {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 800 });
    await page.emulateMedia({ colorScheme: options.scheme ?? 'light' });
    const base = options.base ?? served.url;
    const watch = await watchPage(page, base);
    await page.goto(`${base}${fragment}`);
    return { page, watch };
  }

  async function expectNoProblems(watch: PageWatch): Promise<void> {
    expect(await watch.collect()).toEqual([]);
  }

  /** Replaces the editor's text as a paste would (typing would be re-indented by the editor). */
  async function replaceProfile(page: Page, text: string): Promise<void> {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(text);
  }

  async function waitForProblems(page: Page, count: number): Promise<void> {
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('.problem-list > li').length === n &&
        document.querySelector('.check-status')?.getAttribute('data-state') === (n === 0 ? 'valid' : 'invalid'),
      count,
    );
  }

  async function runAxe(page: Page): Promise<string[]> {
    // Evaluated through the debugging protocol, which the page's CSP does not govern; an injected <script> would be refused.
    await page.evaluate(AXE_SOURCE);
    return page.evaluate(async (AXE_TAGS) => {
      const axe = (
        window as unknown as {
          axe: { run(context: Document, options: object): Promise<{ violations: { id: string; help: string; nodes: { target: unknown[] }[] }[] }> };
        }
      ).axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
    }, AXE_TAGS);
  }

  it('loads the page with no console error, no CSP violation and no request leaving the origin', async () => {
    const { page, watch } = await open();
    await page.waitForSelector('.capability-link');
    await page.waitForSelector('.capability-detail tr[data-field]');
    await expect(page.title()).resolves.toBe('Catalogue · kurel console');
    await page.click('nav.views a[data-view="playground"]');
    await waitForProblems(page, 0);
    await expectNoProblems(watch);
    expect(watch.requests.every((url) => url.startsWith(served.url))).toBe(true);
    // The editor loads only with the playground: the first page load did not fetch it.
    const editorChunk = watch.requests.findIndex((url) => /assets\/playground-view-/.test(url));
    const firstValidate = watch.requests.findIndex((url) => url.endsWith('/v1/validate'));
    expect(editorChunk).toBeGreaterThan(watch.requests.findIndex((url) => url.endsWith('/v1/capabilities')));
    expect(firstValidate).toBeGreaterThan(editorChunk);
    await page.close();
  });

  it('lists the definition loaded with --definitions in the catalogue, with its fields', async () => {
    const { page, watch } = await open();
    const link = page.locator('.capability-link[data-type="object-bucket"]');
    await expect(link.locator('.badge').first().textContent()).resolves.toBe('definition');
    await expect(link.locator('.capability-summary').textContent()).resolves.toBe('Provisions an S3-compatible object bucket for a component');
    await link.click();
    await page.waitForSelector('.capability-detail[data-type="object-bucket"]');
    expect(page.url()).toBe(`${served.url}#catalogue/object-bucket`);
    const rows = await page.$$eval('.capability-detail tr[data-field]', (trs) =>
      trs.map((tr) => [tr.getAttribute('data-field'), ...[...tr.querySelectorAll('td')].map((td) => td.textContent)]),
    );
    expect(rows).toEqual([
      ['region', 'string', 'yes', '—', 'any', '—'],
      ['storageClass', 'string', 'no', '"standard"', '"standard""infrequent""archive"', '—'],
      ['versioning', 'object', 'no', '—', 'fields below', '—'],
      ['versioning.enabled', 'boolean', 'no', 'false', 'any', '—'],
      ['versioning.retainDays', 'integer', 'no', '30', 'from 1 to 3650', '—'],
    ]);
    await expect(page.locator('.capability-detail tr[data-field="versioning.retainDays"] .field-description').textContent()).resolves.toBe(
      'Days an earlier version is kept',
    );
    await expect(page.locator('.capability-detail .facts dd').first().textContent()).resolves.toContain('object-bucket.yaml');
    await expectNoProblems(watch);
    await page.close();
  });

  it('shows a discriminated union per branch and re-fetches the fields for a platform version', async () => {
    const { page, watch } = await open('#catalogue/expose');
    await page.waitForSelector('.capability-detail[data-type="expose"]');
    await expect(page.locator('.capability-detail h4').allTextContents()).resolves.toEqual(['controllerType: "ingress"', 'controllerType: "gateway"']);
    const gatewayTable = page.locator('.capability-detail .table-scroll').nth(1);
    await expect(gatewayTable.locator('tr[data-field="gatewayNamespace"] td[data-column="default"]').textContent()).resolves.toBe('"gateway-system"');
    await expect(gatewayTable.locator('tr[data-field="ingressClassName"]').count()).resolves.toBe(0);

    const asked = page.waitForRequest((req) => req.url().includes('/v1/capabilities/expose?'));
    await page.fill('input[name="version"]', '1.29');
    await page.press('input[name="version"]', 'Enter');
    expect(new URL((await asked).url()).search).toBe('?platform=kubernetes=1.29');
    await page.waitForSelector('text=As kubernetes 1.29 sees them.');
    await page.fill('input[name="version"]', 'v1.29');
    await page.press('input[name="version"]', 'Enter');
    await expect(page.locator('.platform-status').textContent()).resolves.toBe('Expected a version such as 1.29 or 1.29.3, found "v1.29".');
    await expect(page.locator('input[name="version"]').getAttribute('aria-invalid')).resolves.toBe('true');

    // The service narrows the schema (docs/platform.md): service-routing's trafficDistribution
    // (Kubernetes 1.30) disappears at 1.29, and PreferSameZone (1.33) is offered from 1.33 on.
    const distribution = page.locator('.capability-detail tr[data-field="trafficDistribution"]');
    const narrowedTo = async (version: string) => {
      const narrowed = page.waitForResponse((res) => res.url().endsWith(`/v1/capabilities/service-routing?platform=kubernetes=${version}`));
      await page.fill('input[name="version"]', version);
      await page.press('input[name="version"]', 'Enter');
      await narrowed;
      await page.waitForSelector(`text=As kubernetes ${version} sees them.`);
    };
    await page.click('.capability-link[data-type="service-routing"]');
    await narrowedTo('1.33');
    await expect(distribution.locator('td[data-column="allowed"] code').allTextContents()).resolves.toEqual([
      '"PreferClose"',
      '"PreferSameZone"',
      '"PreferSameNode"',
    ]);
    await expect(distribution.locator('td[data-column="lifecycle"] span').allTextContents()).resolves.toEqual([
      'introduced in Kubernetes 1.30',
      'PreferSameZone: introduced in Kubernetes 1.33',
      'PreferSameNode: introduced in Kubernetes 1.33',
      'PreferClose: deprecated in Kubernetes 1.33',
    ]);
    await narrowedTo('1.30');
    await expect(distribution.locator('td[data-column="allowed"] code').allTextContents()).resolves.toEqual(['"PreferClose"']);
    await narrowedTo('1.29');
    await expect(distribution.count()).resolves.toBe(0);
    await expect(page.locator('.capability-detail tr[data-field]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-field')))).resolves.toEqual([
      'internalTrafficPolicy',
      'topologyMode',
    ]);
    await narrowedTo('1.21');
    await expect(page.locator('.capability-detail tr[data-field="topologyKeys"]').getAttribute('class')).resolves.toBe('deprecated');
    await page.click('button:text("Clear")');
    await page.waitForSelector('.capability-detail tr[data-field="trafficDistribution"]');
    await expect(page.locator('.capability-detail tr[data-field="topologyKeys"]').getAttribute('class')).resolves.toBe(null);
    await expectNoProblems(watch);
    await page.close();
  });

  it('shows published versions and the latest when the service lists them', async () => {
    const page = await browser.context.newPage();
    const watch = await watchPage(page, served.url);
    // The served object-bucket is unversioned (the other views rely on it), so the listing is
    // given two versions here, and the detail of either is the served definition: the service
    // itself answers 404 for a version a capability does not have (docs/service.md).
    await page.route('**/v1/capabilities/object-bucket?*', async (route) => {
      const url = new URL(route.request().url());
      const version = url.searchParams.get('version');
      url.searchParams.delete('version');
      const detail = (await (await route.fetch({ url: url.href })).json()) as Record<string, unknown>;
      await route.fulfill({ json: { ...detail, version } });
    });
    await page.route('**/v1/capabilities', async (route) => {
      const listing = (await (await route.fetch()).json()) as { type: string }[];
      const versions = [
        { version: '1.0.0', file: 'definitions/object-bucket-1.0.0.yaml', digest: 'sha256:aaaaaaaa' },
        { version: '2.1.0', file: 'definitions/object-bucket-2.1.0.yaml', digest: 'sha256:bbbbbbbb' },
      ];
      await route.fulfill({ json: listing.map((c) => (c.type === 'object-bucket' ? { ...c, versions, latest: '2.1.0' } : c)) });
    });
    await page.goto(`${served.url}#catalogue/object-bucket`);
    const asked = page.waitForRequest((req) => req.url().includes('/v1/capabilities/object-bucket?'));
    await page.waitForSelector('.capability-detail[data-type="object-bucket"]');
    expect(new URL((await asked).url()).search).toBe('?version=2.1.0');
    await expect(page.locator('.capability-link[data-type="object-bucket"] .badge.version').textContent()).resolves.toBe('v2.1.0');
    await expect(page.locator('.capability-detail select option').allTextContents()).resolves.toEqual(['1.0.0', '2.1.0 (latest)']);
    await expect(page.locator('.capability-detail tr[data-version]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-version')))).resolves.toEqual([
      '1.0.0',
      '2.1.0',
    ]);
    const older = page.waitForRequest((req) => req.url().includes('/v1/capabilities/object-bucket?version=1.0.0'));
    await page.selectOption('.capability-detail select', '1.0.0');
    await older;
    await expectNoProblems(watch);
    await page.close();
  });

  it('underlines each of five mistakes at its exact line and column, lists them, and clears the marks once they are fixed', async () => {
    const { page, watch } = await open('#playground');
    await waitForProblems(page, 0);
    await replaceProfile(page, FIVE_MISTAKES);
    await waitForProblems(page, 5);
    await expect(page.locator('.cm-content > .cm-line').count()).resolves.toBe(FIVE_MISTAKES.split('\n').length);

    expect(await readUnderlines(page)).toEqual(EXPECTED.map(({ line, column, endColumn, text }) => ({ line, column, endColumn, text, severity: 'error' })));
    expect(await readGutterMarks(page)).toEqual(EXPECTED.map(({ line }) => ({ line, severity: 'error' })));
    const listed = await page.$$eval('.problem-list > li', (items) =>
      items.map((li) => ({
        line: Number(li.getAttribute('data-line')),
        column: Number(li.getAttribute('data-column')),
        endColumn: Number(li.getAttribute('data-end-column')),
        code: li.getAttribute('data-code'),
        message: li.querySelector('.problem-message')?.textContent,
        hint: li.querySelector('.problem-hint')?.textContent ?? null,
        link: li.querySelector('a.problem-code')?.getAttribute('href'),
      })),
    );
    expect(listed).toEqual(
      EXPECTED.map(({ line, column, endColumn, code, message, hint }) => ({ line, column, endColumn, code, message, hint, link: `codes/${code}` })),
    );
    await expect(page.locator('.check-status').textContent()).resolves.toBe('5 errors');
    await expect(page.locator('.resolved-note').textContent()).resolves.toBe('The resolved profile appears once the profile has no errors.');

    // Hovering an underline shows its message, hint and code, linked to the explanation.
    await page.locator('.cm-lintRange', { hasText: 'gatewayNamespce' }).hover();
    const tooltip = page.locator('.cm-tooltip-lint .diagnostic-details');
    await tooltip.waitFor();
    await expect(tooltip.locator('.diagnostic-message').textContent()).resolves.toBe(EXPECTED[1]!.message);
    await expect(tooltip.locator('.diagnostic-hint').textContent()).resolves.toBe('Hint: did you mean gatewayNamespace?');
    await expect(tooltip.locator('a').getAttribute('href')).resolves.toBe('codes/unknown-field');
    await expect(tooltip.locator('.diagnostic-code').textContent()).resolves.toBe('unknown-field · line 12, column 9');
    await page.mouse.move(0, 0);

    // A click on a listed problem puts the cursor on it.
    await page.locator('.problem-list > li').nth(2).locator('button').click();
    await expect(readCursor(page)).resolves.toEqual({ line: 14, column: 55, isEditorFocused: true });

    // The explanation the links point to is served.
    const explanation = await page.request.get(`${served.url}codes/yaml-syntax`);
    expect(explanation.headers()['content-type']).toBe('text/markdown; charset=utf-8');
    expect(await explanation.text()).toContain('# yaml-syntax');

    await replaceProfile(page, FIXED);
    await waitForProblems(page, 0);
    expect(await readUnderlines(page)).toEqual([]);
    expect(await readGutterMarks(page)).toEqual([]);
    await expect(page.locator('.check-status').textContent()).resolves.toBe('Valid: no problems found');
    const resolved = await page.locator('pre.resolved').textContent();
    // Named and focusable for keyboard scrolling, so a region (a plain pre may not carry a name).
    expect(await page.locator('pre.resolved').getAttribute('role')).toBe('region');
    expect(resolved).toContain('gatewayNamespace: edge');
    expect(resolved).toContain('kind: ClusterIssuer');
    expect(resolved).toContain('version: "16"');
    await expectNoProblems(watch);
    await page.close();
  });

  it('shares the profile in the URL fragment only, and downloads it as cluster.yaml', async () => {
    const { page, watch } = await open('#playground');
    await waitForProblems(page, 0);
    await replaceProfile(page, FIVE_MISTAKES);
    await waitForProblems(page, 5);
    await page.click('text=Copy share link');
    const link = await shareLink(page);
    expect(link.startsWith(`${served.url}#playground/`)).toBe(true);
    expect(page.url()).toBe(link);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Download cluster.yaml')]);
    expect(download.suggestedFilename()).toBe('cluster.yaml');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(FIVE_MISTAKES);
    await expectNoProblems(watch);
    await page.close();

    const shared = await open(link.slice(served.url.length));
    await waitForProblems(shared.page, 5);
    await expect(shared.page.evaluate(() => document.querySelector('.cm-content')!.textContent)).resolves.toBe(FIVE_MISTAKES.replaceAll('\n', ''));
    // The fragment is the browser's own: no request carried the profile.
    expect(shared.watch.requests.filter((url) => url.includes('#') || url.includes('playground/'))).toEqual([]);
    await expectNoProblems(shared.watch);
    await shared.page.close();

    const damaged = await open('#playground/not+base64');
    await damaged.page.waitForSelector('.notice-error:not([hidden])');
    await expect(damaged.page.locator('.notice-error').textContent()).resolves.toBe(
      'Cannot open the shared profile: the shared link is damaged: it holds characters base64url does not use. The editor keeps its profile.',
    );
    await waitForProblems(damaged.page, 0);
    await expectNoProblems(damaged.watch);
    await damaged.page.close();
  });

  it('can be used with the keyboard alone through both views, with the focus always visible', async () => {
    const { page, watch } = await open();
    await page.waitForSelector('.capability-link');
    const tab = async (key = 'Tab') => {
      await page.keyboard.press(key);
      const focus = await describeFocus(page);
      expect(focus.isVisible, `the focus on ${focus.tag} "${focus.text}" is visible`).toBe(true);
      return focus;
    };
    expect(await tab()).toMatchObject({ tag: 'a', text: 'Skip to content' });
    expect(await tab()).toMatchObject({ tag: 'a', text: 'Catalogue' });
    expect(await tab()).toMatchObject({ tag: 'a', text: 'Playground' });
    expect(await tab()).toMatchObject({ tag: 'input', text: 'Find a capability' });
    await page.keyboard.type('bucket');
    expect(await tab()).toMatchObject({ tag: 'a', text: 'object-bucketdefinitionProvisions an S3-compatible object bucket for a component' });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.capability-detail[data-type="object-bucket"] tr[data-field]');
    await page.waitForFunction(() => document.activeElement?.classList.contains('detail-title'));
    expect(await tab('Shift+Tab')).toMatchObject({ tag: 'button', text: 'Apply' });
    expect(await tab('Shift+Tab')).toMatchObject({ tag: 'input', text: 'Version' });
    await page.keyboard.type('1.30');
    const narrowed = page.waitForResponse((res) => res.url().endsWith('/v1/capabilities/object-bucket?platform=kubernetes=1.30'));
    await page.keyboard.press('Enter');
    await narrowed;
    // The narrowed fields are shown before the focus moves on: a detail drawn again under the focus would move it.
    await page.waitForSelector('text=As kubernetes 1.30 sees them.');
    expect(await tab()).toMatchObject({ tag: 'button', text: 'Apply' });
    expect(await tab()).toMatchObject({ tag: 'button', text: 'Clear' });
    expect(await tab()).toMatchObject({ tag: 'div', text: expect.stringMatching(/^Fields of object-bucketNameTypeRequired/) });

    // Back to the views, then to the playground, through its controls into the editor and out again.
    for (let i = 0; i < 12 && (await describeFocus(page)).text !== 'Playground'; i++) await tab('Shift+Tab');
    expect(await describeFocus(page)).toMatchObject({ tag: 'a', text: 'Playground' });
    await page.keyboard.press('Enter');
    await waitForProblems(page, 0);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await tab()).toMatchObject({ tag: 'button', text: 'Copy share link' });
    expect(await tab()).toMatchObject({ tag: 'button', text: 'Download cluster.yaml' });
    expect(await tab()).toMatchObject({ tag: 'div' });
    expect((await readCursor(page)).isEditorFocused).toBe(true);
    await page.keyboard.press('Control+End');
    await page.keyboard.type('kind: Again');
    await waitForProblems(page, 1);
    await expect(page.locator('.problem-list > li').getAttribute('data-code')).resolves.toBe('duplicate-key');
    expect(await tab()).toMatchObject({ tag: 'button', text: expect.stringMatching(/^errorLine 17, column 1duplicate key "kind"/) });
    await page.keyboard.press('Enter');
    await expect(readCursor(page)).resolves.toEqual({ line: 17, column: 1, isEditorFocused: true });
    await tab();
    expect(await tab()).toMatchObject({ tag: 'a', text: 'duplicate-key: what it means' });
    expect(await tab()).toMatchObject({ tag: 'a', text: 'openapi.yaml' });
    await expectNoProblems(watch);
    await page.close();
  });

  it('has no accessibility violation axe-core finds under WCAG 2.2 AA and its best practices, in either view, colour scheme and width', async () => {
    for (const { width, height } of VIEWPORTS)
      for (const scheme of SCHEMES) {
        const { page, watch } = await open('#catalogue/expose', { width, height, scheme });
        await page.waitForSelector('.capability-detail[data-type="expose"] tr[data-field]');
        expect(await runAxe(page), `catalogue, ${scheme}, ${width}px`).toEqual([]);
        await page.click('nav.views a[data-view="playground"]');
        await waitForProblems(page, 0);
        await replaceProfile(page, FIVE_MISTAKES);
        await waitForProblems(page, 5);
        await page.click('text=Copy share link');
        await shareLink(page);
        expect(await runAxe(page), `playground, ${scheme}, ${width}px`).toEqual([]);
        await expectNoProblems(watch);
        await page.close();
      }
  }, 240_000);

  it('works behind a path prefix, with every request under it', async () => {
    const proxy = await startPrefixProxy(served.url, '/tools/kurel/');
    try {
      const { page, watch } = await open('#catalogue/object-bucket', { base: proxy.url });
      await page.waitForSelector('.capability-detail[data-type="object-bucket"] tr[data-field]');
      await page.click('nav.views a[data-view="playground"]');
      await replaceProfile(page, FIVE_MISTAKES);
      await waitForProblems(page, 5);
      expect(watch.requests.filter((url) => !url.startsWith(proxy.url))).toEqual([]);
      expect(watch.requests.some((url) => url === `${proxy.url}v1/validate`)).toBe(true);
      await expectNoProblems(watch);
      await page.close();
    } finally {
      // Connections the browser still holds would keep close() waiting.
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  it('saves screenshots of both views at 1280×800 and 390×844, light and dark', async () => {
    for (const { width, height } of VIEWPORTS) {
      for (const scheme of SCHEMES) {
        const { page, watch } = await open('#catalogue/managed-postgres', { width, height, scheme });
        await page.waitForSelector('.capability-detail[data-type="managed-postgres"] tr[data-field]');
        await page.screenshot({ path: `${SCREENSHOTS}catalogue-${width}x${height}-${scheme}.png` });
        await page.click('nav.views a[data-view="playground"]');
        await waitForProblems(page, 0);
        await replaceProfile(page, SCREENSHOT_PROFILE);
        await waitForProblems(page, 5);
        // The cursor at the start, so the shot shows the profile from its first line.
        await page.keyboard.press('Control+Home');
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `${SCREENSHOTS}playground-${width}x${height}-${scheme}.png` });
        await expectNoProblems(watch);
        await page.close();
      }
    }
    expect(readFileSync(`${SCREENSHOTS}playground-390x844-dark.png`).subarray(1, 4).toString()).toBe('PNG');
  });
});

/**
 * The share link, once the click has finished writing it: the link is packed asynchronously, and
 * the note under the field is filled in last (console/playground/playground-view.ts), so what is
 * read is never the field before the click's work is done.
 */
async function shareLink(page: Page): Promise<string> {
  await page.waitForFunction(() => (document.querySelector('.share-note p')?.textContent ?? '') !== '');
  return page.locator('.share-output').inputValue();
}
