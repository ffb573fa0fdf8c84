import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKurel } from '../helpers/cli.js';
import { PROFILE_WITH_MISTAKES } from '../helpers/profile.js';
import { findTool, skipWithout } from '../helpers/real-tool.js';

// libxml2's xmllint validates kurel's JUnit reports against the schema of Jenkins xunit's
// junit-10.xsd (docs/ci.md), as test/fixtures/junit/junit-10-rules.xsd states it for every
// element and attribute kurel writes.
const XMLLINT = findTool('xmllint', ['--version']);
const JUNIT_10 = fileURLToPath(new URL('../fixtures/junit/junit-10-rules.xsd', import.meta.url));

const BAD = PROFILE_WITH_MISTAKES;
const CLEAN = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: ok
`;
// A key that holds what XML must escape: markup, a CDATA end, an entity, a control character.
const ESCAPES = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: odd
spec:
  capabilities:
    "]]> <b>&amp; 'q' \\x07 \\uD7FF": {}
`;
const ODD_NAME = `a&b<c>'d".yaml`;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-junit-xmllint-'));
  writeFileSync(join(dir, 'bad.yaml'), BAD);
  writeFileSync(join(dir, 'clean.yaml'), CLEAN);
  writeFileSync(join(dir, 'escapes.yaml'), ESCAPES);
  writeFileSync(join(dir, ODD_NAME), BAD);
  writeFileSync(join(dir, 'settings.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function xmllint(name: string, xml: string): { status: number | null; stderr: string } {
  const file = join(dir, `${name}.xml`);
  writeFileSync(file, xml);
  const run = spawnSync(XMLLINT.command, ['--noout', '--schema', JUNIT_10, file], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr.replaceAll(file, name).trim() };
}

describe.skipIf(skipWithout(XMLLINT))(`kurel's JUnit under xmllint --schema junit-10 (${XMLLINT.version})`, () => {
  it.each([
    ['clean', ['clean.yaml'], 0],
    ['failures', ['bad.yaml', 'clean.yaml', 'settings.yaml'], 1],
    ['strict', ['bad.yaml', '--strict'], 1],
    ['escaping', ['escapes.yaml', ODD_NAME], 1],
    ['unreadable', ['missing.yaml'], 2],
  ])('validates the report of a %s run', async (name, args, code) => {
    const run = await runKurel(['lint', ...args, '--format', 'junit'], { cwd: dir });
    expect(run.code).toBe(code);
    expect(xmllint(name, run.stdout)).toEqual({ status: 0, stderr: `${name} validates` });
  });

  it('keeps what needs escaping intact through the parser', async () => {
    const run = await runKurel(['lint', 'escapes.yaml', ODD_NAME, '--format', 'junit'], { cwd: dir });
    writeFileSync(join(dir, 'escaped.xml'), run.stdout);
    const names = spawnSync(XMLLINT.command, ['--xpath', 'string(//testcase[2]/@name)', join(dir, 'escaped.xml')], { encoding: 'utf8' });
    expect(names.stdout).toBe(`${ODD_NAME}\n`);
    const failure = spawnSync(XMLLINT.command, ['--xpath', 'string(//testcase[1]/failure/@type)', join(dir, 'escaped.xml')], { encoding: 'utf8' });
    expect(failure.stdout).toBe('invalid-key\n');
  });

  it('refuses a report that breaks the schema: a testcase with a file attribute', () => {
    const report =
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kurel lint" tests="1" failures="0" errors="0">\n' +
      '  <testsuite name="kurel lint" tests="1" failures="0" errors="0">\n    <testcase name="a.yaml" file="a.yaml"/>\n  </testsuite>\n</testsuites>\n';
    expect(xmllint('broken', report)).toEqual({
      status: 3,
      stderr:
        "broken:4: element testcase: Schemas validity error : Element 'testcase', attribute 'file': The attribute 'file' is not allowed.\nbroken fails to validate",
    });
  });
});
