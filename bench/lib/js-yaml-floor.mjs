// The read-only floor of peers.mjs (docs/performance.md): reads every file named, or every file in a
// folder named, and parses it with js-yaml `load` (the fastest maintained YAML parser), keeping
// nothing. No tool that reads the same YAML can do less.
//   node js-yaml-floor.mjs <file|dir>...
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

let documents = 0;
for (const path of process.argv.slice(2)) {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .sort()
        .map((name) => join(path, name))
    : [path];
  for (const file of files) {
    if (load(readFileSync(file, 'utf8')) !== undefined) documents += 1;
  }
}
console.log(`${documents} documents read`);
