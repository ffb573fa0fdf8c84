// Times one call in this fresh process, for the cold figures of validate-scaling.mjs:
//   node cold-call.mjs <yaml|js-yaml|checks> <file> <dist/index.js>
// `yaml` and `js-yaml` time one plain parse of the file (`yaml` with `uniqueKeys: false`, as kurel
// runs it: see validate-scaling.mjs); `checks` parses it the way kurel does
// (untimed) and times kurel's checks of it: the evaluation and the positioning of each problem.
// Prints the milliseconds and, for `checks`, the number of problems.
import { readFileSync } from 'node:fs';
import { now } from './measure.mjs';

const [what, file, library] = process.argv.slice(2);
const text = readFileSync(file, 'utf8');
if (what === 'yaml') {
  const { parse } = await import('yaml');
  const start = now();
  parse(text, { uniqueKeys: false });
  console.log(JSON.stringify({ ms: now() - start }));
} else if (what === 'js-yaml') {
  const { load } = await import('js-yaml');
  const start = now();
  load(text);
  console.log(JSON.stringify({ ms: now() - start }));
} else if (what === 'checks') {
  const { createCatalogue, evaluateProfile, parseYamlStream } = await import(library);
  const registry = createCatalogue();
  const document = parseYamlStream(text, 'bench.yaml').documents[0];
  const start = now();
  const problems = evaluateProfile(document.data, registry, 'warning').issues.map((issue) => document.toDiagnostic(issue));
  console.log(JSON.stringify({ ms: now() - start, problems: problems.length }));
} else {
  console.error(`unknown call ${what}: expected yaml, js-yaml or checks`);
  process.exit(2);
}
