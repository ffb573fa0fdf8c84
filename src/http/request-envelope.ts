import { isMap } from '../core/data.js';
import type { InputFile } from '../core/input.js';
import { LIMITS } from '../core/input-limits.js';
import type { Platform } from '../schema/platform-version.js';
import { jsonDecodingProblem } from '../yaml/json-fidelity.js';
import { platformOfEnvelope } from './platform-input.js';
import { HttpProblem } from './problem.js';

/** A document in a JSON envelope: YAML (or JSON) text, or the document itself as a JSON object. */
export interface EnvelopeDocument {
  /** The text linted and positioned against: the string as sent, or the object printed as JSON with two-space indentation. */
  text: string;
  /** The object as sent; absent when the document was sent as text. */
  data?: Record<string, unknown>;
}

/** The members of an envelope, each a document or a list of documents, and the platform versions it sets. */
export type Envelope<Name extends string> = Record<Name, EnvelopeDocument> & {
  definitions: InputFile[];
  /** `platform`: component versions that win over the profile's `spec.platform` (docs/service.md). */
  platform: Platform | undefined;
};

// Members every envelope may hold besides its documents.
const OPTIONAL_MEMBERS: readonly string[] = ['definitions', 'platform'];

/** True when a JSON body is an envelope (`{"profile": ...}`) rather than a profile itself (which has no `profile` member). */
export function isEnvelope(data: unknown): data is Record<string, unknown> {
  return isMap(data) && Object.hasOwn(data, 'profile');
}

/**
 * Reads a JSON envelope with the `required` document members, an optional `definitions` list
 * and optional `platform` versions; 400 for anything else (an unknown member, a member of the
 * wrong type, a malformed version, a repeated member name, nesting beyond the depth limit).
 * `others` names further members a route allows and reads itself.
 */
export function readEnvelope<Name extends string>(text: string, data: unknown, required: readonly Name[], others: readonly string[] = []): Envelope<Name> {
  const expected = [...required, ...OPTIONAL_MEMBERS, ...others].join(', ');
  if (!isMap(data)) throw new HttpProblem(400, `the request body must be a JSON object with members ${expected}`);
  const problem = jsonDecodingProblem(text, data);
  if (problem === 'too-deep') throw new HttpProblem(400, `the request body nests deeper than ${LIMITS.maxDepth} levels`);
  if (problem === 'repeated-name') throw new HttpProblem(400, 'an object in the request body repeats a member name; every name must be unique');
  for (const key of Object.keys(data)) {
    if (!OPTIONAL_MEMBERS.includes(key) && !others.includes(key) && !(required as readonly string[]).includes(key)) {
      throw new HttpProblem(400, `unknown member ${JSON.stringify(key)} in the request body; expected ${expected}`);
    }
  }
  const envelope = { definitions: [] as InputFile[], platform: undefined } as Envelope<Name>;
  for (const name of required) {
    if (!Object.hasOwn(data, name)) throw new HttpProblem(400, `the request body has no ${JSON.stringify(name)} member`);
    (envelope as Record<string, unknown>)[name] = readDocument(data[name], name);
  }
  if (data['platform'] !== undefined) envelope.platform = platformOfEnvelope(data['platform']);
  const definitions = data['definitions'];
  if (definitions !== undefined) {
    if (!Array.isArray(definitions)) throw new HttpProblem(400, `"definitions" must be a list of YAML texts or objects, found ${describe(definitions)}`);
    envelope.definitions = definitions.map((item, i) => ({
      file: `definitions[${i}]`,
      content: readDocument(item, `definitions[${i}]`).text,
      origin: 'definition',
    }));
  }
  return envelope;
}

function readDocument(value: unknown, name: string): EnvelopeDocument {
  if (typeof value === 'string') return { text: value };
  if (isMap(value)) return { text: JSON.stringify(value, null, 2), data: value };
  throw new HttpProblem(400, `${JSON.stringify(name)} must be a YAML text or an object, found ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}
