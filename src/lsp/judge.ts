import { basename } from 'node:path';
import type { Catalogue } from '../catalogue/catalogue.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { RunInput } from '../core/input.js';
import { CONFIG_FILE_NAME, readKurelConfig } from '../documents/kurel-config.js';
import { mayHoldDefinition } from '../documents/read-input.js';
import { type LintOptions, lintInputs, type ProfileOutcome } from '../operations/lint.js';
import { reportProblems } from '../operations/report-problems.js';
import type { JudgeCache } from './judge-cache.js';
import { displayName, type Repository } from './repository.js';

/** What judging one open file gave. */
export interface Judgement {
  /** Exactly what `kurel lint` reports for the file, in its order; suppressed ones left out. */
  diagnostics: Diagnostic[];
  /** The catalogue the file was judged against (definitions included), for hovers and completion. */
  catalogue: Catalogue | undefined;
  /** The file's profile, when it holds one: how each binding resolved. */
  profile: ProfileOutcome | undefined;
}

/**
 * Judges the text of one open file as `kurel lint FILE` run from the repository's folder judges
 * the file on disk. A profile that holds no definition is judged against the repository's
 * definition catalogue, built once; a file that may hold a definition is linted with every
 * definition file of the repository (its own text in place of what is on disk), as lint reads
 * it. `.kurel.yaml` gets the problems that would make lint refuse to run; while lint would refuse,
 * every other file gets them too, at its start, since lint would judge none. With `cache`, a
 * profile's text judged before under the same judging is not judged again (docs/editors.md).
 */
export async function judgeText(repository: Repository, path: string, text: string, cache?: JudgeCache): Promise<Judgement> {
  const file = displayName(path, repository.cwd);
  if (basename(path) === CONFIG_FILE_NAME)
    return { diagnostics: shown(readKurelConfig(file, text).diagnostics, file), catalogue: undefined, profile: undefined };
  if (repository.refusal || !repository.handlers) return { diagnostics: refusalOf(repository.refusal ?? [], file), catalogue: undefined, profile: undefined };
  let inputs: RunInput[];
  let catalogue: Catalogue;
  let options: LintOptions = repository.lintOptions;
  if (mayHoldDefinition(text)) {
    inputs = (await repository.inputsFor(file)).map((input) => (input.file === file ? { file, content: text, origin: input.origin } : input));
    catalogue = repository.handlers;
  } else {
    // Read as lint reads a file it names, so that a result judged before is taken from the cache (a text holding a definition never is).
    inputs = [{ file, origin: 'argument', read: () => ({ ok: true, content: text }) }];
    catalogue = await repository.definitionCatalogue();
    if (cache) options = { ...options, cache };
  }
  const report = lintInputs(inputs, catalogue, options);
  cache?.save();
  const profile = report.profiles.find((p) => p.file === file);
  return { diagnostics: shown(report.diagnostics, file), catalogue: report.catalogue, profile };
}

// Why lint would not run at all here (a broken .kurel.yaml, a refused plugin), at the start of the file, which it would not judge.
function refusalOf(refusal: readonly Diagnostic[], file: string): Diagnostic[] {
  return refusal.map((d) => fileDiagnostic(file, d.code, `kurel lint refuses to run here: ${d.file}:${d.line}:${d.column} ${d.message}`));
}

// What lint's reports show of one file: the first problems of the run, none suppressed by a comment.
function shown(diagnostics: readonly Diagnostic[], file: string): Diagnostic[] {
  return reportProblems(diagnostics).diagnostics.filter((d) => d.file === file && d.suppressed === undefined);
}
