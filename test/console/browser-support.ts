import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a headless Chromium on a closed network: without the background-networking ones
 * Chromium keeps trying to reach Google's services.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests cannot run here, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM}; install Debian's chromium (apt-get install -y chromium) to run them`;
}

/** A Chromium with a fresh profile folder, removed again on close. */
export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Starts Debian's Chromium headless with a new, empty user data folder. */
export async function launchChromium(): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'kurel-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));

/** A running `kurel serve`. */
export interface Served {
  url: string;
  stop(): Promise<void>;
}

/** Starts the built `kurel serve` on a free port with the arguments given; resolves once every serving process is ready. */
export function startKurelServe(args: string[]): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    let buffered = '';
    let url: string | undefined;
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = JSON.parse(buffered.slice(0, end)) as { msg?: string; url?: string };
        buffered = buffered.slice(end + 1);
        if (line.msg === 'listening' && line.url) url ??= line.url;
        // Every serving process answers once all are ready; one still loading answers 503.
        if (line.msg === 'ready: every worker has loaded' && url) {
          resolve({
            url: `${url}/`,
            async stop() {
              if (child.exitCode === null) child.kill('SIGTERM');
              await exited;
            },
          });
        }
      }
    });
    void exited.then((code) => reject(new Error(`kurel serve exited with ${code} before listening: ${stderr}`)));
  });
}

/** A reverse proxy serving `target` under `prefix` (`http://host:port/kurel/` → target `/`), as an ingress would. */
export async function startPrefixProxy(target: string, prefix: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (!path.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: `/${path.slice(prefix.length)}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${prefix}`, server };
}

/** What went wrong on a page: console errors and warnings, page errors, CSP violations, failed requests, requests leaving the origin. */
export interface PageWatch {
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
  /** The problems so far, with the page's CSP violations read in. */
  collect(): Promise<string[]>;
}

declare global {
  interface Window {
    kurelCspViolations?: string[];
  }
}

/** Watches a page for everything that must not happen while the console is used. */
export async function watchPage(page: Page, origin: string): Promise<PageWatch> {
  const problems: string[] = [];
  const requests: string[] = [];
  await page.addInitScript(() => {
    window.kurelCspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.kurelCspViolations!.push(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (req) => {
    requests.push(req.url());
    if (!req.url().startsWith(new URL(origin).origin) && !/^(data|blob):/.test(req.url())) problems.push(`request leaving the origin: ${req.url()}`);
  });
  page.on('requestfailed', (req) => {
    // A check the user's next keystroke made obsolete is aborted on purpose.
    if (req.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`answered ${res.status()}: ${res.url()}`);
  });
  return {
    problems,
    requests,
    async collect() {
      const violations = await page.evaluate(() => window.kurelCspViolations ?? []).catch(() => []);
      return [...problems, ...violations];
    },
  };
}

/** An underline in the editor, by 1-based line and column (UTF-16 code units, end exclusive), as the DOM shows it. */
export interface Underline {
  line: number;
  column: number;
  endColumn: number;
  severity: string;
  text: string;
}

/**
 * Reads CodeMirror's lint underlines from the DOM: each `.cm-lintRange` mark's line (its
 * `.cm-line`'s place) and column (the text before it on that line). A mark split by syntax
 * highlighting comes back as one underline.
 */
export function readUnderlines(page: Page): Promise<Underline[]> {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll('.cm-content > .cm-line')];
    const found: { line: number; column: number; endColumn: number; severity: string; text: string }[] = [];
    for (const mark of document.querySelectorAll('.cm-content .cm-lintRange')) {
      const lineElement = mark.closest('.cm-line')!;
      const before = document.createRange();
      before.setStart(lineElement, 0);
      before.setEndBefore(mark);
      const column = before.toString().length + 1;
      const text = mark.textContent ?? '';
      const severity = /cm-lintRange-(error|warning|info|hint)/.exec(mark.className)?.[1] ?? 'unknown';
      const line = lines.indexOf(lineElement) + 1;
      const last = found.at(-1);
      if (last && last.line === line && last.endColumn === column && last.severity === severity) {
        last.endColumn += text.length;
        last.text += text;
      } else {
        found.push({ line, column, endColumn: column + text.length, severity, text });
      }
    }
    return found;
  });
}

/** The 1-based line numbers the lint gutter marks, by severity. */
export function readGutterMarks(page: Page): Promise<{ line: number; severity: string }[]> {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll('.cm-content > .cm-line')].map((line) => line.getBoundingClientRect());
    return [...document.querySelectorAll('.cm-gutter-lint .cm-lint-marker')].map((marker) => {
      const box = marker.closest('.cm-gutterElement')!.getBoundingClientRect();
      const nearest = lines.reduce((best, line, index) => (Math.abs(line.top - box.top) < Math.abs(lines[best]!.top - box.top) ? index : best), 0);
      return { line: nearest + 1, severity: /cm-lint-marker-(\w+)/.exec(marker.className)?.[1] ?? 'unknown' };
    });
  });
}

/** The line and column (1-based, UTF-16) of the editor's cursor, read from the DOM selection. */
export function readCursor(page: Page): Promise<{ line: number; column: number; isEditorFocused: boolean }> {
  return page.evaluate(() => {
    const selection = document.getSelection()!;
    const node = selection.focusNode!;
    const element = node instanceof Element ? node : node.parentElement!;
    const lineElement = element.closest('.cm-line')!;
    const lines = [...document.querySelectorAll('.cm-content > .cm-line')];
    const before = document.createRange();
    before.setStart(lineElement, 0);
    before.setEnd(node, selection.focusOffset);
    return {
      line: lines.indexOf(lineElement) + 1,
      column: before.toString().length + 1,
      isEditorFocused: document.activeElement?.classList.contains('cm-content') ?? false,
    };
  });
}

/** What the keyboard focus is on, and whether it is drawn visibly (an outline, or the focus ring of the editor's frame). */
export function describeFocus(page: Page): Promise<{ tag: string; text: string; isVisible: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { tag: 'body', text: '', isVisible: false };
    const ringOf = (e: Element) => {
      const style = getComputedStyle(e);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    };
    const frame = element.closest('.editor-frame');
    const label = element.getAttribute('aria-label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null);
    return {
      tag: element.tagName.toLowerCase(),
      text: (label ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 80),
      isVisible: ringOf(element) || (frame !== null && ringOf(frame)),
    };
  });
}
