import type { SourceOptions } from '../../registry/index.js';
import type { RunConfig } from '../../sources/run-config.js';
import type { CommandIo } from '../io.js';

/** The flags every command that reaches a registry takes (docs/registries.md, "Network"). */
export interface RegistryCommandOptions {
  /** `--insecure-registry HOST`, repeatable: hosts reached over plain HTTP. */
  insecureRegistry?: string[];
  /** `--offline`: never touch the network. */
  offline?: boolean;
}

/** The registry options of a run: the flags' and the configuration's insecure registries, progress on a terminal's standard error. */
export function registryOptions(flags: RegistryCommandOptions, run: RunConfig | undefined, io: CommandIo): SourceOptions {
  const insecureRegistries = [...(run?.config.insecureRegistries ?? []), ...(flags.insecureRegistry ?? [])];
  const write = (text: string): boolean => {
    io.stderr(text);
    return true;
  };
  const progress = io.stderrIsTTY ? { write } : undefined;
  return {
    env: io.env,
    insecureRegistries,
    ...(flags.offline ? { offline: true } : {}),
    ...(progress ? { progress: progress as unknown as NodeJS.WritableStream } : {}),
  };
}
