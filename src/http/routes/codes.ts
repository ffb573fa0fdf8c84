import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { packageRoot } from '../../files/package-files.js';
import { HttpProblem } from '../problem.js';
import { sendText } from '../respond.js';

/** The shape of a diagnostic code (docs/profiles.md); checked before any file is touched. */
export const CODE_PATTERN = /^[a-z]+(-[a-z]+)*$/;

/**
 * `GET /codes/{code}`: the explanation of a diagnostic code, the package's
 * `docs/codes/<code>.md` as Markdown; 404 for a name that is not a code or has no page.
 */
export function codeExplanationRoute(): RequestHandler {
  return async (req, res) => {
    const code = String(req.params['code']);
    if (!CODE_PATTERN.test(code)) {
      throw new HttpProblem(404, `no explanation for ${JSON.stringify(code)}: expected a diagnostic code such as yaml-syntax (lowercase words joined by -)`);
    }
    let text: string;
    try {
      text = await readFile(join(packageRoot(), 'docs', 'codes', `${code}.md`), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      throw new HttpProblem(404, `no explanation for the code ${code}; kurel's codes are listed in docs/diagnostics.md`);
    }
    sendText(res, 200, 'text/markdown', text);
  };
}
