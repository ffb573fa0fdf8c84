// Prints, as JSON, the `pattern`s of the shipped definitions/ that kurel's own check accepts.
// The build bakes them into the bundle so `kurel serve` does not re-analyse them at every start.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { checkPattern } from '../src/schema/pattern-safety.js';

const dir = process.argv[2] ?? 'definitions';
const patterns = new Set<string>();
const collect = (value: unknown): void => {
  if (Array.isArray(value)) value.forEach(collect);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'pattern' && typeof item === 'string') patterns.add(item);
      else collect(item);
    }
  }
};
for (const name of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n))) {
  for (const doc of parseAllDocuments(readFileSync(join(dir, name), 'utf8'))) collect(doc.toJS());
}
process.stdout.write(JSON.stringify([...patterns].filter((p) => checkPattern(p).ok).sort()));
