import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import { LINT_FORMATS, type LintFormat } from './format/index.js';

/** One `--format FORMAT[=FILE]`: a report in a format, to a file or (without one) to standard output. */
export interface ReportTarget {
  format: LintFormat;
  file?: string;
}

/**
 * Parses a `--format` value and appends it (docs/configuration.md: repeatable, `sarif=kurel.sarif`);
 * throws commander's error for a format kurel does not have or an empty file name.
 */
export function collectReportTarget(value: string, previous: ReportTarget[]): ReportTarget[] {
  const at = value.indexOf('=');
  const format = at === -1 ? value : value.slice(0, at);
  const file = at === -1 ? undefined : value.slice(at + 1);
  if (!(LINT_FORMATS as readonly string[]).includes(format)) {
    throw new InvalidArgumentError(`expected one of ${LINT_FORMATS.join(', ')}, optionally followed by =FILE, found ${JSON.stringify(format)}`);
  }
  if (file === '') throw new InvalidArgumentError(`expected a file name after ${format}=`);
  return [...previous, file === undefined ? { format: format as LintFormat } : { format: format as LintFormat, file }];
}

/** The reports of a run: the one to standard output (if any) and those to files, or why the flags are wrong. */
export type ReportPlan = { ok: true; stdout: LintFormat | undefined; files: { format: LintFormat; file: string }[] } | { ok: false; diagnostic: Diagnostic };

/** Checks the run's targets: at most one may go to standard output; no `--format` at all means text there. */
export function planReports(targets: readonly ReportTarget[]): ReportPlan {
  const toStdout = targets.filter((t) => t.file === undefined);
  if (toStdout.length > 1) {
    const named = toStdout.map((t) => t.format).join(' and ');
    return {
      ok: false,
      diagnostic: fileDiagnostic(
        '<command line>',
        'usage',
        `at most one --format goes to standard output; found ${named}: give the others a file (--format sarif=kurel.sarif)`,
      ),
    };
  }
  const files = targets.flatMap((t) => (t.file === undefined ? [] : [{ format: t.format, file: t.file }]));
  return { ok: true, stdout: targets.length === 0 ? 'text' : toStdout[0]?.format, files };
}

/** A report file opened for writing, or the `io-error` of one that cannot be (exit 2). */
export type OpenedReport = { ok: true; format: LintFormat; file: string; fd: number } | { ok: false; diagnostic: Diagnostic };

/**
 * Opens every report file before anything is written, so a file that cannot be written fails
 * the run (exit 2) in every report, not only in those written after it.
 */
export function openReports(files: readonly { format: LintFormat; file: string }[], cwd: string): OpenedReport[] {
  return files.map(({ format, file }) => {
    try {
      return { ok: true, format, file, fd: openSync(resolve(cwd, file), 'w') };
    } catch (err) {
      const reason = whyNotWritable(resolve(cwd, file), file, err as NodeJS.ErrnoException);
      return { ok: false, diagnostic: fileDiagnostic(file, 'io-error', `cannot write the ${format} report to ${file}: ${reason}`) };
    }
  });
}

/** Why a file could not be opened for writing, in words: the folder missing, a file where a folder goes, no permission. */
export function whyNotWritable(location: string, shown: string, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT': {
      const missing = firstMissingFolder(location, shown);
      return missing === undefined ? 'its folder does not exist' : `the folder ${missing} does not exist`;
    }
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    case 'EISDIR':
      return 'it is a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return err.code === undefined ? err.message : `the system refused (${err.code})`;
  }
}

// The outermost folder of the path that does not exist, named as the user wrote the path.
function firstMissingFolder(location: string, shown: string): string | undefined {
  let folder = dirname(location);
  let shownFolder = dirname(shown);
  let missing: string | undefined;
  // Each step goes up one folder, so the walk ends at the root.
  while (!existsSync(folder)) {
    missing = shownFolder;
    const up = dirname(folder);
    if (up === folder) break;
    folder = up;
    shownFolder = dirname(shownFolder);
  }
  return missing;
}

/** Writes a report to an opened file and closes it. */
export function writeReport(fd: number, text: string): void {
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
