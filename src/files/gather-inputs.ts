import { stat } from 'node:fs/promises';
import { appendAll } from '../core/data.js';
import { type Diagnostic, fileDiagnostic } from '../core/diagnostics.js';
import type { InputFile, InputOrigin, InputRead, RunInput } from '../core/input.js';
import { LIMITS } from '../core/limits.js';
import { findYamlFiles } from './find-yaml-files.js';
import { readSourceFile } from './read-file.js';

/** The name standard input has in diagnostics when `--stdin-filepath` gives none. */
export const STDIN_NAME = '<stdin>';

/** Inputs gathered from the command line, and what went wrong on the way. */
export interface GatheredInputs<Input extends RunInput = InputFile> {
  inputs: Input[];
  diagnostics: Diagnostic[];
  /** True when a named path cannot be read (exit 2). */
  fatal: boolean;
}

/** What to gather: paths (files, folders, `-`), definition folders and files. */
export interface InputRequest {
  paths?: readonly string[];
  definitionDirs?: readonly string[];
  definitionFiles?: readonly string[];
  stdinName?: string;
}

/** Collects files (and standard input) into lint inputs, each file read now; never throws. */
export async function gatherInputs(request: InputRequest, stdin: () => Promise<Uint8Array> = noStdin): Promise<GatheredInputs> {
  return gather<InputFile>(
    request,
    stdin,
    (path, origin, result) => {
      const read = readSourceFile(path);
      if (read.ok) result.inputs.push({ file: path, content: read.bytes, origin });
      else {
        result.diagnostics.push(read.diagnostic);
        if (read.unreadable) result.fatal = true;
      }
    },
    (input) => input,
  );
}

/**
 * Collects files into inputs read only when a run needs them (standard input is read now);
 * a file that cannot be read is reported by the run that reads it. Never throws.
 */
export async function gatherDeferredInputs(request: InputRequest, stdin: () => Promise<Uint8Array> = noStdin): Promise<GatheredInputs<RunInput>> {
  return gather<RunInput>(
    request,
    stdin,
    (path, origin, result) => {
      result.inputs.push({ file: path, origin, read: () => readDeferred(path) });
    },
    (input) => input,
  );
}

function readDeferred(path: string): InputRead {
  const read = readSourceFile(path);
  return read.ok ? { ok: true, content: read.bytes } : read;
}

async function gather<Input extends RunInput>(
  request: InputRequest,
  stdin: () => Promise<Uint8Array>,
  addFile: (path: string, origin: InputOrigin, result: GatheredInputs<Input>) => void,
  inMemory: (input: InputFile) => Input,
): Promise<GatheredInputs<Input>> {
  const result: GatheredInputs<Input> = { inputs: [], diagnostics: [], fatal: false };
  const addDir = async (dir: string, origin: InputOrigin) => {
    const found = await findYamlFiles(dir);
    appendAll(result.diagnostics, found.diagnostics);
    if (found.unreadable) result.fatal = true;
    for (const file of found.files) addFile(file, origin, result);
    return found.files.length;
  };
  for (const path of request.paths ?? []) {
    if (path === '-') {
      const bytes = await stdin();
      const name = request.stdinName ?? STDIN_NAME;
      if (bytes.length > LIMITS.maxFileBytes) {
        const message = `standard input holds more than ${LIMITS.maxFileBytes} bytes (16 MiB), the limit; the rest was not read`;
        result.diagnostics.push(fileDiagnostic(name, 'file-too-large', message));
      } else {
        result.inputs.push(inMemory({ file: name, content: bytes, origin: 'argument' }));
      }
      continue;
    }
    if (await isDirectory(path)) await addDir(path, 'directory');
    else addFile(path, 'argument', result);
  }
  for (const dir of request.definitionDirs ?? []) await addDir(dir, 'definition');
  for (const file of request.definitionFiles ?? []) addFile(file, 'definition', result);
  return result;
}

/** True when `path` is a directory (false when it is anything else or cannot be read). */
export async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

async function noStdin(): Promise<Uint8Array> {
  return new Uint8Array();
}
