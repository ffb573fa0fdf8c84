import { DIAGNOSTIC_CODES, isDiagnosticCode } from '../../core/diagnostics.js';
import { didYouMean } from '../../core/suggest.js';
import { readCodePage } from '../../files/package-files.js';
import { EXIT } from '../exit-code.js';
import { formatUsage } from '../format/text.js';
import type { CommandIo } from '../io.js';

/**
 * Runs `kurel explain CODE` (docs/configuration.md): prints the code's page, `docs/codes/<code>.md` as the
 * package ships it. A name that is not a code (or a code without a page) is a usage error (exit
 * 2), with the nearest code as a hint.
 */
export function runExplain(code: string, io: CommandIo): number {
  const page = isDiagnosticCode(code) ? readCodePage(code) : undefined;
  if (page === undefined) {
    const what = isDiagnosticCode(code) ? `the code ${code} has no explanation page` : `${JSON.stringify(code)} is not a kurel diagnostic code`;
    io.stderr(`${formatUsage(`${what} (the codes are listed in docs/diagnostics.md and in docs/codes/)`, didYouMean(code, DIAGNOSTIC_CODES))}\n`);
    return EXIT.usage;
  }
  io.stdout(page.endsWith('\n') ? page : `${page}\n`);
  return EXIT.ok;
}
