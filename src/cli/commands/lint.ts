import { relative, resolve, sep } from 'node:path';
import type { CatalogueLockfile } from '../../catalogue/lockfile.js';
import { appendAll } from '../../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../../core/diagnostics.js';
import type { FileReport, RunInput } from '../../core/input.js';
import { VERSION } from '../../core/package-version.js';
import { CONFIG_FILE_NAME } from '../../documents/kurel-config.js';
import type { Search } from '../../files/gather-inputs.js';
import { type LintReport, lintInputs } from '../../operations/lint.js';
import type { LintResultCache } from '../../operations/lint-cache.js';
import { flagComponentDiagnostics } from '../../operations/platform.js';
import { reportProblems } from '../../operations/report-problems.js';
import { gatherRunInputs, registeredSourceResolver } from '../../sources/definition-entries.js';
import { globMatcher } from '../../sources/glob.js';
import { cacheFilePath, LintCacheFile } from '../../sources/lint-cache-file.js';
import { platformOfFlags } from '../../sources/platform-flags.js';
import { registryResolver } from '../../sources/registry-resolver.js';
import type { RunConfig } from '../../sources/run-config.js';
import type { SourceText } from '../../yaml/source.js';
import { type Configured, configureCommand } from '../configure-command.js';
import { EXIT, exitCodeOfCounts } from '../exit-code.js';
import { renderReport } from '../format/index.js';
import { formatText, type Palette, PLAIN, paletteFor, summarize } from '../format/text.js';
import type { CommandIo } from '../io.js';
import { holdYoungGeneration, type LintJudging, prepareJudging } from '../lint-judging.js';
import type { LintCommandOptions } from '../lint-options.js';
import { earlyThreads, jobsFor, LintWorkers, lintInParallel } from '../parallel-lint.js';
import { lockedSourcesOf, registryAccessOf, unlockedSources } from '../registry-access.js';
import { openReports, planReports, writeReport } from '../report-targets.js';

export type { LintCommandOptions } from '../lint-options.js';

/** Runs `kurel lint`; returns the exit code. */
export async function runLint(paths: readonly string[], flags: LintCommandOptions, io: CommandIo): Promise<number> {
  const palette = paletteFor({ isTTY: io.stdoutIsTTY }, io.env, flags.color);
  const plan = planReports(flags.format);
  const stdoutFormat = plan.ok ? plan.stdout : undefined;
  // Problems found before anything is linted (the command line, the configuration) go to standard output, as text unless another format goes there.
  const refuse = (diagnostics: Diagnostic[], sources: Map<string, SourceText>) => {
    const reported = reportProblems(diagnostics);
    const view = { valid: false, diagnostics: reported.diagnostics, problems: reported, files: [], sources, palette };
    io.stdout(`${renderReport(stdoutFormat ?? 'text', view)}\n`);
  };
  if (!plan.ok) {
    refuse([plan.diagnostic], new Map());
    return EXIT.usage;
  }
  const configured = configureCommand(flags, io, refuse);
  if (!configured.ok) return configured.exitCode;
  // Only the JSON report shows resolved profiles.
  const keepResolved = plan.stdout === 'json' || plan.files.some((f) => f.format === 'json');
  // Threads asked for start now and build their catalogues while this one searches the folders,
  // as many as the cores allow and only when the paths may hold more than one batch of files.
  const early = flags.jobs === undefined ? 0 : earlyThreads(paths, flags.jobs, io.cwd);
  const workers = early > 0 ? new LintWorkers(early, { flags, cwd: io.cwd, env: io.env, keepResolved }) : undefined;
  const release = holdYoungGeneration();
  try {
    return await lintGathered(paths, flags, io, { configured, plan, palette, keepResolved, workers });
  } finally {
    release();
    workers?.stop();
  }
}

// The rest of `runLint`, once the configuration is read and any early threads started.
async function lintGathered(
  paths: readonly string[],
  flags: LintCommandOptions,
  io: CommandIo,
  setup: {
    configured: Extract<Configured<LintCommandOptions>, { ok: true }>;
    plan: Extract<ReturnType<typeof planReports>, { ok: true }>;
    palette: Palette;
    keepResolved: boolean;
    workers: LintWorkers | undefined;
  },
): Promise<number> {
  const { configured, plan, palette, keepResolved } = setup;
  const { options, run } = configured;
  const matches = await globMatcher(run);
  const judging = await prepareJudging(flags, configured, io, matches);
  // With a lockfile, a registry source is fetched by the digest it locks (docs/registries.md).
  const locked = lockedSourcesOf(options.definitions, judging.lockfile.lock?.sources);
  // Files are read as the run reaches them, so it never holds every text at once.
  const gathered = await gatherRunInputs(
    {
      paths,
      definitionDirs: options.definitions,
      definitionFiles: options.capabilityDef,
      ...(options.stdinFilepath ? { stdinName: options.stdinFilepath } : {}),
      cwd: io.cwd,
      ...(flags.searchFiles ? { searchFiles: true } : {}),
      ...(run && run.config.ignore.length > 0 ? { ignore: (path: string) => matches(configRelative(run, path, io.cwd), run.config.ignore) } : {}),
    },
    io.stdin,
    { resolve: registeredSourceResolver() ?? registryResolver(registryAccessOf(options, run, io)), lockedSources: locked },
  );
  let fatal = gathered.fatal;
  const extra: Diagnostic[] = [...gathered.diagnostics, ...unlockedSources(options.definitions, judging.lockfile)];
  if (!judging.catalogue.ok) appendAll(extra, judging.catalogue.refusal.diagnostics);
  fatal ||= !judging.catalogue.ok;
  const { lockfile } = judging;
  appendAll(extra, lockfile.diagnostics);
  fatal ||= lockfile.fatal;
  // With a cache the run stays on one thread: it judges only the files that changed.
  const cache = flags.cache
    ? LintCacheFile.open(cacheFilePath(flags.cacheLocation, io.cwd), io.cwd, lintCacheKey(configured, lockfile, keepResolved, io.cwd))
    : undefined;
  const jobs = cache ? 1 : jobsFor(gathered.inputs, flags.jobs);
  const report = await lintOrRefuse(gathered.inputs, judging, { jobs, flags, io, keepResolved, workers: setup.workers, cache });
  const saved = cache?.save();
  if (saved && !saved.ok) io.stderr(`kurel: ${saved.message}\n`);
  for (const [file, source] of lockfile.sources) report.sources.set(file, source);
  fatal ||= report.unreadable;
  if (judging.catalogue.ok) {
    // A --platform component one edit from a known one is likely a slip (docs/platform.md).
    appendAll(extra, flagComponentDiagnostics(platformOfFlags(options.platform), judging.catalogue.catalogue));
    const empty = emptySearches(gathered.searches, report.files, run);
    appendAll(extra, empty);
    fatal ||= empty.length > 0;
  }

  const opened = openReports(plan.files, io.cwd);
  for (const failed of opened) {
    if (failed.ok) continue;
    extra.push(failed.diagnostic);
    fatal = true;
  }
  const diagnostics = [...extra, ...report.diagnostics];
  const strict = options.strict === true;
  // The run kept only the problems a report can show; those it left out are counted.
  const reported = reportProblems(diagnostics, { leftOut: report.leftOut });
  const code = exitCodeOfCounts(reported, { fatal, strict });
  const named = flags.pathsRelativeTo === undefined ? undefined : rebasePaths(resolve(io.cwd, flags.pathsRelativeTo), io.cwd);
  const view = {
    valid: code === 0,
    diagnostics: named ? reported.diagnostics.map((d) => ({ ...d, file: named.file(d.file) })) : reported.diagnostics,
    problems: reported,
    files: named ? report.files.map((f) => ({ ...f, path: named.file(f.path) })) : report.files,
    sources: named ? new Map([...report.sources].map(([file, source]) => [named.file(file), source])) : report.sources,
    ...(named ? { root: named.root } : {}),
    strict,
    quiet: flags.quiet === true,
  };
  // Files never get colour (docs/cli.md).
  for (const target of opened) if (target.ok) writeReport(target.fd, `${renderReport(target.format, { ...view, palette: PLAIN })}\n`);
  // When every report goes to a file, the summary still goes to standard output, after the reports that could not be written.
  const unwritten = opened.flatMap((target) => (target.ok ? [] : [target.diagnostic]));
  const onScreen = plan.stdout
    ? renderReport(plan.stdout, { ...view, palette })
    : [...(unwritten.length > 0 ? [formatText(unwritten, new Map(), palette)] : []), summarize(reported, report.files)].join('\n');
  io.stdout(`${onScreen}\n`);
  return code;
}

/**
 * docs/configuration.md: a folder or glob argument must yield a ClusterProfile or a
 * CapabilityDefinition (a file it found that was checked); one whose files were all ignored by
 * the configuration says so. Each is an `io-error` (exit 2) at the argument.
 */
function emptySearches(searches: readonly Search[], files: readonly FileReport[], run: RunConfig | undefined): Diagnostic[] {
  const checked = new Set(files.filter((f) => f.status === 'checked').map((f) => f.path));
  const out: Diagnostic[] = [];
  for (const search of searches) {
    if (search.files.some((file) => checked.has(file))) continue;
    const where = `${search.argument}`;
    if (search.files.length === 0 && search.ignored > 0) {
      const all = search.ignored === 1 ? 'the 1 file' : `all ${search.ignored} files`;
      out.push(
        fileDiagnostic(search.argument, 'io-error', `${all} under ${where} ${search.ignored === 1 ? 'is' : 'are'} ignored by ${run?.file ?? CONFIG_FILE_NAME}`),
      );
    } else if (search.jsonFiles > 0) {
      // Named, a JSON file is linted; a search yields YAML files only, and says what it passed over.
      const json = search.jsonFiles === 1 ? 'its 1 .json file was' : `its ${search.jsonFiles} .json files were`;
      out.push(
        fileDiagnostic(
          search.argument,
          'io-error',
          `no profile or definition found in ${where}: a folder or glob yields *.yaml and *.yml files, and ${json} passed over`,
          {
            hint: 'name a JSON file on the command line to lint it',
          },
        ),
      );
    } else {
      out.push(fileDiagnostic(search.argument, 'io-error', `no profile or definition found in ${where}`));
    }
  }
  return out;
}

/**
 * `--paths-relative-to DIR` (docs/ci.md): a file's name as a report gives it, relative to `root`
 * with `/` between its parts, such as `infra/clusters/b.yaml` from the repository's root for a
 * run in `infra/`. Names that are no file (`<command line>`, `<stdin>`) stay as they are.
 */
function rebasePaths(root: string, cwd: string): { root: string; file: (name: string) => string } {
  return { root, file: (name) => (name.startsWith('<') ? name : relative(root, resolve(cwd, name)).split(sep).join('/')) };
}

// A path as found, relative to the configuration's folder with `/`, as its globs are written.
function configRelative(run: RunConfig, path: string, cwd: string): string {
  return relative(run.dir, resolve(cwd, path)).split(sep).join('/');
}

// An unreadable path still exits 2, but the readable inputs are linted and reported too.
async function lintOrRefuse(
  inputs: readonly RunInput[],
  judging: LintJudging,
  run: { jobs: number; flags: LintCommandOptions; io: CommandIo; keepResolved: boolean; workers: LintWorkers | undefined; cache: LintResultCache | undefined },
): Promise<LintOutcome> {
  if (!judging.catalogue.ok) return readFailures(inputs);
  const options = { ...judging.lintOptions(run.keepResolved), cache: run.cache };
  if (run.jobs > 1) {
    const workers = run.workers ?? new LintWorkers(run.jobs - 1, { flags: run.flags, cwd: run.io.cwd, env: run.io.env, keepResolved: run.keepResolved });
    return lintInParallel(inputs, judging.catalogue.catalogue, options, { jobs: run.jobs, workers, workersOnly: run.flags.workersOnly === true });
  }
  return lintInputs(inputs, judging.catalogue.catalogue, options);
}

/**
 * What judged a run's files besides their bytes and the catalogue (docs/cli.md, `--cache`):
 * kurel's version, the working directory, the flags that judge (not those that only print),
 * the configuration's data and the lockfile's bytes.
 */
function lintCacheKey(
  configured: Extract<Configured<LintCommandOptions>, { ok: true }>,
  lockfile: CatalogueLockfile,
  keepResolved: boolean,
  cwd: string,
): unknown {
  const { format, color, quiet, jobs, strict, cache, cacheLocation, workersOnly, ...judging } = configured.options;
  return {
    kurel: VERSION,
    cwd,
    options: JSON.parse(JSON.stringify(judging)),
    config: configured.run ? { file: configured.run.file, dir: configured.run.dir, data: JSON.parse(JSON.stringify(configured.run.config)) } : null,
    lockfile: lockfile.location ? { file: lockfile.location.display, bytes: lockfile.readDigest ?? null } : null,
    keepResolved,
  };
}

type LintOutcome = Pick<LintReport, 'diagnostics' | 'leftOut' | 'files' | 'sources' | 'unread' | 'unreadable'>;

// With no catalogue nothing is linted, but a path that cannot be read is still reported.
function readFailures(inputs: readonly RunInput[]): LintOutcome {
  const diagnostics: Diagnostic[] = [];
  let unreadable = false;
  for (const input of inputs) {
    if (!('read' in input)) continue;
    const read = input.read();
    if (read.ok) continue;
    diagnostics.push(read.diagnostic);
    unreadable ||= read.unreadable;
  }
  return { diagnostics, files: [], sources: new Map(), unread: diagnostics.length, unreadable };
}
