import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeData, escapeProperty } from '../../src/cli/format/github.js';
import { escapeXml, escapeXmlAttribute } from '../../src/cli/format/junit.js';
import { CODE_SUMMARIES, INFORMATION_URI, ruleNameOf } from '../../src/cli/format/sarif.js';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics.js';
import { VERSION } from '../../src/core/package-version.js';
import { type CliRun, runKurel } from '../helpers/cli.js';
import { PROFILE_WITH_MISTAKES } from '../helpers/profile.js';

// One run over three inputs: a profile with two errors (one with a hint) and a warning, a
// profile whose file name and key need escaping, and a folder holding a clean profile and a
// file of another kind (skipped).
const BAD = PROFILE_WITH_MISTAKES;
const ODD = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: odd
spec:
  capabilities:
    pvc:
      rendering:
        50%: x
`;
const CLEAN = `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: ok
`;
const OTHER_KIND = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
`;
const ODD_FILE = 'team,a:b.yaml';
const INPUTS = ['bad.yaml', ODD_FILE, 'dir'];

const ALLOWED_EXPOSE_KEYS =
  'controllerType, ingressClassName, certManagerClusterIssuer, allowedHostnameWildcard, sslRedirect, forceSslRedirect, authURL, authSigninURL, authResponseHeaders, networkPolicy';

let dir: string;
const lint = (args: readonly string[]): Promise<CliRun> => runKurel(['lint', ...args], { cwd: dir });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-formats-'));
  writeFileSync(join(dir, 'bad.yaml'), BAD);
  writeFileSync(join(dir, 'warns.yaml'), `${CLEAN}spec:\n  capabilities:\n    servicemesh: {}\n`);
  writeFileSync(join(dir, ODD_FILE), ODD);
  mkdirSync(join(dir, 'dir'));
  writeFileSync(join(dir, 'dir', 'clean.yaml'), CLEAN);
  writeFileSync(join(dir, 'dir', 'other.yaml'), OTHER_KIND);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--format github', () => {
  it('prints one workflow annotation per diagnostic, then the summary, and exits 1', async () => {
    const run = await lint([...INPUTS, '--format', 'github']);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')).toEqual([
      '::error file=bad.yaml,line=8,col=7,endLine=8,endColumn=15,title=missing-required::capability "expose": ingressClassName is required when controllerType is ingress',
      `::error file=bad.yaml,line=10,col=9,endLine=10,endColumn=23,title=unknown-field::capability "expose": unknown field "ingresClassName" (allowed: ${ALLOWED_EXPOSE_KEYS})%0Adid you mean ingressClassName?`,
      '::warning file=bad.yaml,line=11,col=5,endLine=11,endColumn=15,title=unknown-capability::capability "servicemesh" is known to no handler or definition; its rendering is not validated%0Aif servicemesh is a custom capability, load its CapabilityDefinition: --definitions DIR, or definitions: in .kurel.yaml',
      '::error file=team%2Ca%3Ab.yaml,line=9,col=9,endLine=9,endColumn=11,title=unknown-field::capability "pvc": unknown field "50%25" (allowed: storageClassName)',
      '3 profiles checked: 3 errors, 1 warning',
      '',
    ]);
  });

  it('prints no annotation on a clean run, only the summary, and exits 0', async () => {
    const run = await lint(['dir', '--format', 'github']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('1 profile checked: no problems\n');
  });

  it.each([
    ['100%', '100%25', '100%25'],
    ['a\r\nb', 'a%0D%0Ab', 'a%0D%0Ab'],
    ['x: y, z', 'x: y, z', 'x%3A y%2C z'],
    ['%0A', '%250A', '%250A'],
  ])('escapes %j as %j in a message and %j in a property', (raw, data, property) => {
    expect(escapeData(raw)).toBe(data);
    expect(escapeProperty(raw)).toBe(property);
  });

  it('points a span over several lines at its start, so the columns stay on one line', async () => {
    const run = await runKurel(['lint', '-', '--stdin-filepath', 'multi.yaml', '--format', 'github'], {
      cwd: dir,
      input:
        'apiVersion: launcher.gokure.dev/v1alpha1\nkind: ClusterProfile\nmetadata:\n  name: multi\nspec:\n  capabilities:\n    pvc:\n      rendering:\n        storageClassName:\n          - fast\n          - slow\n',
    });
    expect(run.stdout.split('\n')[0]).toBe(
      '::error file=multi.yaml,line=10,col=11,endLine=10,endColumn=11,title=wrong-type::capability "pvc": storageClassName must be a string, found a list',
    );
  });
});

/** The part of SARIF 2.1.0 kurel emits, with the constraints the specification puts on it. */
const SARIF_SUBSET = {
  type: 'object',
  required: ['$schema', 'version', 'runs'],
  additionalProperties: false,
  properties: {
    $schema: { const: 'https://json.schemastore.org/sarif-2.1.0.json' },
    version: { const: '2.1.0' },
    runs: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: {
        type: 'object',
        required: ['tool', 'columnKind', 'results'],
        additionalProperties: false,
        properties: {
          columnKind: { const: 'utf16CodeUnits' },
          tool: {
            type: 'object',
            required: ['driver'],
            additionalProperties: false,
            properties: {
              driver: {
                type: 'object',
                // SARIF2005 of the SARIF multitool: a tool names where it is documented.
                required: ['name', 'version', 'informationUri', 'rules'],
                additionalProperties: false,
                properties: {
                  name: { const: 'kurel' },
                  version: { type: 'string', minLength: 1 },
                  informationUri: { type: 'string', format: 'uri' },
                  rules: {
                    type: 'array',
                    uniqueItems: true,
                    items: {
                      type: 'object',
                      // SARIF2012: a friendly name (one Pascal-case word). No helpUri: the page is the rule's help itself (docs/ci.md).
                      required: ['id', 'name', 'shortDescription', 'fullDescription', 'help'],
                      additionalProperties: false,
                      properties: {
                        id: { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$' },
                        name: { type: 'string', pattern: '^([A-Z][a-z]+)+$' },
                        shortDescription: {
                          type: 'object',
                          required: ['text'],
                          additionalProperties: false,
                          properties: { text: { type: 'string', minLength: 1 } },
                        },
                        // A multiformatMessageString: the code's explanation page (docs/configuration.md).
                        fullDescription: {
                          type: 'object',
                          required: ['text'],
                          additionalProperties: false,
                          properties: { text: { type: 'string', minLength: 1 } },
                        },
                        help: {
                          type: 'object',
                          required: ['text', 'markdown'],
                          additionalProperties: false,
                          properties: { text: { type: 'string', minLength: 1 }, markdown: { type: 'string', minLength: 1 } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['ruleId', 'ruleIndex', 'level', 'message', 'locations'],
              additionalProperties: false,
              properties: {
                ruleId: { type: 'string' },
                ruleIndex: { type: 'integer', minimum: 0 },
                level: { enum: ['error', 'warning'] },
                message: {
                  type: 'object',
                  required: ['text'],
                  additionalProperties: false,
                  properties: { text: { type: 'string', minLength: 1 } },
                },
                locations: {
                  type: 'array',
                  minItems: 1,
                  maxItems: 1,
                  items: {
                    type: 'object',
                    required: ['physicalLocation'],
                    additionalProperties: false,
                    properties: {
                      physicalLocation: {
                        type: 'object',
                        required: ['artifactLocation', 'region'],
                        additionalProperties: false,
                        properties: {
                          artifactLocation: {
                            type: 'object',
                            required: ['uri'],
                            additionalProperties: false,
                            properties: { uri: { type: 'string', format: 'uri-reference' }, uriBaseId: { const: '%SRCROOT%' } },
                          },
                          region: {
                            type: 'object',
                            required: ['startLine', 'startColumn', 'endLine', 'endColumn'],
                            additionalProperties: false,
                            properties: {
                              startLine: { type: 'integer', minimum: 1 },
                              startColumn: { type: 'integer', minimum: 1 },
                              endLine: { type: 'integer', minimum: 1 },
                              endColumn: { type: 'integer', minimum: 1 },
                            },
                          },
                        },
                      },
                    },
                  },
                },
                suppressions: {
                  type: 'array',
                  minItems: 1,
                  items: {
                    type: 'object',
                    required: ['kind'],
                    additionalProperties: false,
                    properties: { kind: { const: 'inSource' }, justification: { type: 'string', minLength: 1 } },
                  },
                },
                properties: {
                  type: 'object',
                  required: ['path'],
                  additionalProperties: false,
                  properties: { path: { type: 'string', pattern: '^/' } },
                },
              },
            },
          },
        },
      },
    },
  },
};

interface SarifLog {
  runs: {
    tool: { driver: { version: string; informationUri: string; rules: { id: string; name: string }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: Record<string, number> } }[];
      properties?: { path: string };
    }[];
  }[];
}

describe('SARIF rule names and pages', () => {
  it('gives every code a distinct Pascal-case name', () => {
    const names = DIAGNOSTIC_CODES.map(ruleNameOf);
    expect(names.every((name) => /^([A-Z][a-z]+)+$/.test(name))).toBe(true);
    expect(new Set(names).size).toBe(DIAGNOSTIC_CODES.length);
    expect(ruleNameOf('too-many-problems')).toBe('TooManyProblems');
  });

  it("names the repository of package.json as the tool's page, the one link a report holds", () => {
    const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { repository: { url: string } };
    expect(`git+${INFORMATION_URI}.git`).toBe(manifest.repository.url);
  });
});

describe('--format sarif', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // Enough of RFC 3986 for the check: no spaces, no characters a URI reference cannot hold raw.
  ajv.addFormat('uri-reference', /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/);
  // An absolute URI: a scheme, then the same characters.
  ajv.addFormat('uri', /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/);
  const validate = ajv.compile(SARIF_SUBSET);

  it('prints a SARIF 2.1.0 log whose results carry the codes as rule ids and exact regions', async () => {
    const run = await lint([...INPUTS, '--format', 'sarif']);
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const sarifRun = log.runs[0]!;
    expect(sarifRun.tool.driver.version).toBe(VERSION);
    expect(sarifRun.tool.driver.rules.map((r) => r.id)).toEqual(['missing-required', 'unknown-capability', 'unknown-field']);
    expect(sarifRun.tool.driver.informationUri).toBe(INFORMATION_URI);
    expect(sarifRun.tool.driver.rules.map((r) => r.name)).toEqual(['MissingRequired', 'UnknownCapability', 'UnknownField']);
    expect(
      sarifRun.results.map((r) => ({
        rule: r.ruleId,
        indexed: sarifRun.tool.driver.rules[r.ruleIndex]?.id,
        level: r.level,
        location: r.locations[0]!.physicalLocation,
        path: r.properties?.path,
      })),
    ).toEqual([
      {
        rule: 'missing-required',
        indexed: 'missing-required',
        level: 'error',
        location: { artifactLocation: { uri: 'bad.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 8, startColumn: 7, endLine: 8, endColumn: 16 } },
        path: '/spec/capabilities/expose/rendering/ingressClassName',
      },
      {
        rule: 'unknown-field',
        indexed: 'unknown-field',
        level: 'error',
        location: { artifactLocation: { uri: 'bad.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 10, startColumn: 9, endLine: 10, endColumn: 24 } },
        path: '/spec/capabilities/expose/rendering/ingresClassName',
      },
      {
        rule: 'unknown-capability',
        indexed: 'unknown-capability',
        level: 'warning',
        location: { artifactLocation: { uri: 'bad.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 11, startColumn: 5, endLine: 11, endColumn: 16 } },
        path: '/spec/capabilities/servicemesh',
      },
      {
        rule: 'unknown-field',
        indexed: 'unknown-field',
        level: 'error',
        location: {
          artifactLocation: { uri: 'team%2Ca%3Ab.yaml', uriBaseId: '%SRCROOT%' },
          region: { startLine: 9, startColumn: 9, endLine: 9, endColumn: 12 },
        },
        path: '/spec/capabilities/pvc/rendering/50%',
      },
    ]);
    expect(sarifRun.results[1]!.message.text).toBe(
      `capability "expose": unknown field "ingresClassName" (allowed: ${ALLOWED_EXPOSE_KEYS}); did you mean ingressClassName?`,
    );
  });

  it('prints a run with no results and no rules on a clean run, and exits 0', async () => {
    const run = await lint(['dir', '--format', 'sarif']);
    expect(run.code).toBe(0);
    const log = JSON.parse(run.stdout) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.tool.driver.rules).toEqual([]);
  });

  it('names absolute paths with file: URLs', async () => {
    const run = await lint([join(dir, 'bad.yaml'), '--format', 'sarif']);
    const log = JSON.parse(run.stdout) as SarifLog;
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation).toEqual({ uri: new URL(`file://${join(dir, 'bad.yaml')}`).href });
  });

  it('describes every diagnostic code as a rule', () => {
    expect(Object.keys(CODE_SUMMARIES).sort()).toEqual([...DIAGNOSTIC_CODES].sort());
  });
});

/** A parsed XML element: enough of XML for the JUnit kurel prints. */
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|lt|gt|amp|quot|apos);/g, (_m, entity: string) => {
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[entity]!;
  });
}

/** Parses a document of elements, attributes and text (no comments, CDATA or DTD); throws on anything malformed. */
function parseXml(source: string): XmlElement {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`malformed XML at ${at}: ${what}`);
  };
  const skipSpace = () => {
    while (/\s/.test(source[at] ?? '')) at++;
  };
  const element = (): XmlElement => {
    const open = /^<([A-Za-z][\w.-]*)/.exec(source.slice(at)) ?? fail('expected an element');
    at += open[0].length;
    const node: XmlElement = { name: open[1]!, attributes: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', at)) {
        at += 2;
        return node;
      }
      if (source[at] === '>') {
        at++;
        break;
      }
      const attribute = /^([A-Za-z][\w.-]*)="([^"<]*)"/.exec(source.slice(at)) ?? fail('expected an attribute');
      if (attribute[1]! in node.attributes) fail(`repeated attribute ${attribute[1]}`);
      node.attributes[attribute[1]!] = decodeEntities(attribute[2]!);
      at += attribute[0].length;
    }
    for (;;) {
      const textEnd = source.indexOf('<', at);
      if (textEnd === -1) fail(`unclosed <${node.name}>`);
      const raw = source.slice(at, textEnd);
      if (/&(?!(#\d+|lt|gt|amp|quot|apos);)/.test(raw)) fail('a bare &');
      node.text += decodeEntities(raw);
      at = textEnd;
      if (source.startsWith(`</${node.name}>`, at)) {
        at += node.name.length + 3;
        return node;
      }
      if (source.startsWith('</', at)) fail(`mismatched close of <${node.name}>`);
      node.children.push(element());
    }
  };
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(source) ?? fail('expected the XML declaration');
  at = declaration[0].length;
  const root = element();
  skipSpace();
  if (at !== source.length) fail('content after the root element');
  return root;
}

const XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const JUNIT_RULES = fileURLToPath(new URL('../fixtures/junit/junit-10-rules.xsd', import.meta.url));

describe('--format junit', () => {
  it('prints one test case per file with a failure per diagnostic, and a skipped case for a file not linted', async () => {
    const run = await lint([...INPUTS, '--format', 'junit']);
    expect(run.code).toBe(1);
    const root = parseXml(run.stdout);
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toEqual({ name: 'kurel lint', tests: '4', failures: '2', errors: '0' });
    expect(root.children).toHaveLength(1);
    const suite = root.children[0]!;
    expect(suite.name).toBe('testsuite');
    expect(suite.attributes).toEqual({ name: 'kurel lint', tests: '4', failures: '2', errors: '0', skipped: '1' });
    expect(
      suite.children.map((c) => ({
        element: c.name,
        name: c.attributes['name'],
        inside: c.children.map((f) => `${f.name}:${f.attributes['type'] ?? f.attributes['message']}`),
      })),
    ).toEqual([
      { element: 'testcase', name: 'bad.yaml', inside: ['failure:missing-required', 'failure:unknown-field', 'system-out:undefined'] },
      { element: 'testcase', name: ODD_FILE, inside: ['failure:unknown-field'] },
      { element: 'testcase', name: 'dir/clean.yaml', inside: [] },
      { element: 'testcase', name: 'dir/other.yaml', inside: ['skipped:kind ConfigMap is not linted'] },
    ]);
    const typo = suite.children[0]!.children[1]!;
    expect(typo.attributes['message']).toBe(`error: capability "expose": unknown field "ingresClassName" (allowed: ${ALLOWED_EXPOSE_KEYS})`);
    expect(typo.text).toBe(
      `bad.yaml:10:9 error unknown-field capability "expose": unknown field "ingresClassName" (allowed: ${ALLOWED_EXPOSE_KEYS})\n` +
        'path: /spec/capabilities/expose/rendering/ingresClassName\nhint: did you mean ingressClassName?',
    );
  });

  it("puts warnings in the case's system-out, not among failures, on a run that exits 0 (issue 16, defect 13)", async () => {
    const run = await lint(['warns.yaml', '--format', 'junit']);
    expect(run.code).toBe(0);
    const root = parseXml(run.stdout);
    expect(root.attributes).toEqual({ name: 'kurel lint', tests: '1', failures: '0', errors: '0' });
    const testcase = root.children[0]!.children[0]!;
    expect(testcase.children.map((c) => c.name)).toEqual(['system-out']);
    expect(testcase.children[0]!.text).toBe(
      'warns.yaml:7:5 warning unknown-capability capability "servicemesh" is known to no handler or definition; its rendering is not validated\npath: /spec/capabilities/servicemesh\nhint: if servicemesh is a custom capability, load its CapabilityDefinition: --definitions DIR, or definitions: in .kurel.yaml',
    );
  });

  it('counts warnings as failures under --strict, as the exit code does', async () => {
    const run = await lint(['warns.yaml', '--format', 'junit', '--strict']);
    expect(run.code).toBe(1);
    const root = parseXml(run.stdout);
    expect(root.attributes).toEqual({ name: 'kurel lint', tests: '1', failures: '1', errors: '0' });
    expect(root.children[0]!.children[0]!.children.map((c) => `${c.name}:${c.attributes['type']}`)).toEqual(['failure:unknown-capability']);
  });

  it('prints a suite of passing test cases on a clean run, and exits 0', async () => {
    const run = await lint(['dir/clean.yaml', '--format', 'junit']);
    expect(run.code).toBe(0);
    const root = parseXml(run.stdout);
    expect(root.attributes).toEqual({ name: 'kurel lint', tests: '1', failures: '0', errors: '0' });
    expect(root.children[0]!.children).toEqual([{ name: 'testcase', attributes: { name: 'dir/clean.yaml', classname: 'kurel.lint' }, children: [], text: '' }]);
  });

  // The rules of Jenkins' xunit junit-10.xsd for the elements kurel writes: the attributes each
  // may have (required ones marked) and the elements it may hold.
  const JUNIT_10: Record<string, { required: string[]; optional: string[]; children: string[] }> = {
    testsuites: { required: [], optional: ['name', 'time', 'tests', 'failures', 'errors'], children: ['testsuite'] },
    testsuite: {
      required: ['name', 'tests', 'failures', 'errors'],
      optional: ['group', 'time', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file', 'log', 'url'],
      children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    },
    testcase: { required: ['name'], optional: ['time', 'classname', 'group'], children: ['skipped', 'error', 'failure', 'system-out', 'system-err'] },
    failure: { required: [], optional: ['type', 'message'], children: [] },
    error: { required: [], optional: ['type', 'message'], children: [] },
    skipped: { required: [], optional: ['type', 'message'], children: [] },
    'system-out': { required: [], optional: [], children: [] },
    'system-err': { required: [], optional: [], children: [] },
  };
  const breaches = (element: XmlElement, where = element.name): string[] => {
    const rule = JUNIT_10[element.name];
    if (!rule) return [`${where}: element not in the schema`];
    const attributes = Object.keys(element.attributes);
    return [
      ...rule.required.filter((a) => !attributes.includes(a)).map((a) => `${where}: missing @${a}`),
      ...attributes.filter((a) => !rule.required.includes(a) && !rule.optional.includes(a)).map((a) => `${where}: @${a} not allowed`),
      ...element.children.flatMap((child) =>
        rule.children.includes(child.name) ? breaches(child, `${where}/${child.name}`) : [`${where}: <${child.name}> not allowed`],
      ),
    ];
  };

  it.each([[[...INPUTS]], [['warns.yaml', '--strict']], [['dir/clean.yaml']], [['missing.yaml']]])(
    'writes what junit-10.xsd accepts for %j (no testcase@file, no testsuites@skipped)',
    async (args) => {
      const run = await lint([...args, '--format', 'junit']);
      expect(breaches(parseXml(run.stdout))).toEqual([]);
    },
  );

  // Where libxml2's xmllint is installed, the schema restated in test/fixtures/junit validates it too.
  it.skipIf(!XMLLINT)('validates with xmllint --schema against the junit-10 rules', async () => {
    const run = await lint([...INPUTS, '--format', 'junit']);
    writeFileSync(join(dir, 'report.xml'), run.stdout);
    const checked = spawnSync('xmllint', ['--noout', '--schema', JUNIT_RULES, join(dir, 'report.xml')], { encoding: 'utf8' });
    expect({ status: checked.status, stderr: checked.stderr.trim() }).toEqual({ status: 0, stderr: `${join(dir, 'report.xml')} validates` });
  });

  it('reports an unreadable path as a failing test case and exits 2', async () => {
    const run = await lint(['missing.yaml', '--format', 'junit']);
    expect(run.code).toBe(2);
    const testcase = parseXml(run.stdout).children[0]!.children[0]!;
    expect(testcase.attributes['name']).toBe('missing.yaml');
    expect(testcase.children.map((f) => f.attributes['type'])).toEqual(['io-error']);
  });

  it.each([
    ['a < b & c > d', 'a &lt; b &amp; c &gt; d', 'a &lt; b &amp; c &gt; d'],
    ['say "hi" \'there\'', 'say "hi" \'there\'', 'say &quot;hi&quot; &apos;there&apos;'],
    ['line\nbreak\ttab\r', 'line\nbreak\ttab&#13;', 'line&#10;break&#9;tab&#13;'],
    ['bell\u0007 and lone \uD800', 'bell\uFFFD and lone \uFFFD', 'bell\uFFFD and lone \uFFFD'],
  ])('escapes %j for text as %j and for an attribute as %j', (raw, text, attribute) => {
    expect(escapeXml(raw)).toBe(text);
    expect(escapeXmlAttribute(raw)).toBe(attribute);
  });
});
