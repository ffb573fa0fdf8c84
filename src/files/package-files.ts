import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The folder of the kurel package this code runs from (where `package.json`, `openapi.yaml`
 * and the embedded `definitions/` are), found by walking up from this module: the same from
 * the sources and from the bundle in `dist/`.
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (isKurelPackage(join(dir, 'package.json'))) {
      root = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the kurel package folder above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The service's contract, `openapi.yaml`, as text. */
export function readOpenApiText(): string {
  return readFileSync(join(packageRoot(), 'openapi.yaml'), 'utf8');
}

/** The package's embedded `definitions/` folder, which `kurel serve` loads by default. */
export function embeddedDefinitionsDir(): string {
  return join(packageRoot(), 'definitions');
}

/**
 * The explanation page of a diagnostic code, `docs/codes/<code>.md` as shipped with the package
 * (docs/configuration.md), or undefined when the name is not a code's or has no page.
 */
export function readCodePage(code: string): string | undefined {
  if (!/^[a-z]+(-[a-z]+)*$/.test(code)) return undefined;
  try {
    return readFileSync(join(packageRoot(), 'docs', 'codes', `${code}.md`), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function isKurelPackage(path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name === 'kurel';
  } catch {
    return false;
  }
}
