import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestHandler, Response } from 'express';
import { packageRoot } from '../files/package-files.js';
import { HttpProblem } from './problem.js';
import { sendText } from './respond.js';

/** Where `scripts/build.mjs` writes the console: the page, `manifest.json` and `assets/`. */
const CONSOLE_DIR = ['dist', 'console'];

/** What the build wrote into the page where each response's CSP nonce goes. */
const NONCE_PLACEHOLDER = '{{nonce}}';

/** The console's build manifest: the page's file name and every asset with its media type. */
interface ConsoleManifest {
  page: string;
  assets: Record<string, string>;
}

/** The console as served: the page split around its nonce placeholders, and the assets by name. */
interface ConsoleBundle {
  pageParts: string[];
  assets: ReadonlyMap<string, { mediaType: string; text: string }>;
}

/** The Content-Security-Policy of the console page (docs/console.md), for a given nonce. */
export function consolePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

// Hashed names never change content, so a browser may keep them for a year without asking again.
const IMMUTABLE = 'public, max-age=31536000, immutable';

let loading: Promise<ConsoleBundle> | undefined;

/**
 * The console files, read on the first request that needs them (never at start: a service used
 * only as an API never pays for the bundle). A failed read is not remembered, so building the
 * console while the service runs makes it available.
 */
function consoleBundle(): Promise<ConsoleBundle> {
  loading ??= readConsoleBundle().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function readConsoleBundle(): Promise<ConsoleBundle> {
  const dir = join(packageRoot(), ...CONSOLE_DIR);
  let manifest: ConsoleManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as ConsoleManifest;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new HttpProblem(500, 'the console is not built: dist/console/manifest.json is missing (npm run build writes it)');
  }
  const page = await readFile(join(dir, manifest.page), 'utf8');
  const assets = new Map<string, { mediaType: string; text: string }>();
  for (const [name, mediaType] of Object.entries(manifest.assets)) {
    assets.set(name, { mediaType, text: await readFile(join(dir, 'assets', name), 'utf8') });
  }
  return { pageParts: page.split(NONCE_PLACEHOLDER), assets };
}

/**
 * `GET /`: the console page, with a fresh CSP nonce per response (the page hands it to the
 * editor for the styles it injects). The page itself is never cached without asking again, so a
 * new release's asset names are picked up at once.
 */
export function consolePageRoute(): RequestHandler {
  return async (_req, res) => {
    const { pageParts } = await consoleBundle();
    const nonce = randomBytes(16).toString('base64');
    res.setHeader('Content-Security-Policy', consolePolicy(nonce));
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Referrer-Policy', 'no-referrer');
    setNoSniff(res);
    sendText(res, 200, 'text/html', pageParts.join(nonce));
  };
}

/** `GET /assets/{name}`: a file of the console bundle, by its hashed name; 404 for any other name. */
export function consoleAssetRoute(): RequestHandler {
  return async (req, res) => {
    const name = String(req.params['name']);
    const asset = (await consoleBundle()).assets.get(name);
    if (!asset) throw new HttpProblem(404, `no console asset ${JSON.stringify(name)}; the console page names its assets`);
    res.setHeader('Cache-Control', IMMUTABLE);
    setNoSniff(res);
    sendText(res, 200, asset.mediaType, asset.text);
  };
}

function setNoSniff(res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
