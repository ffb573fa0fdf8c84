import { stringifyJson } from '../../core/json-text.js';
import { generateCrds } from '../../operations/crd.js';
import { yaml } from '../../yaml/yaml-lib.js';
import { EXIT } from '../exit-code.js';
import type { CommandIo } from '../io.js';

/** Options of `kurel crd`. */
export interface CrdCommandOptions {
  format: 'yaml' | 'json';
}

/**
 * Runs `kurel crd`: prints the CustomResourceDefinitions as YAML documents separated by
 * `---`, or as one JSON `v1` List (both forms `kubectl apply -f -` takes); returns the exit code.
 */
export function runCrd(options: CrdCommandOptions, io: CommandIo): number {
  const crds = generateCrds();
  if (options.format === 'json') {
    io.stdout(`${stringifyJson({ apiVersion: 'v1', kind: 'List', items: crds })}\n`);
  } else {
    io.stdout(crds.map((crd) => yaml().stringify(crd, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n'));
  }
  return EXIT.ok;
}
