import { describeValue, isMap, joinOr } from '../core/data.js';
import { error, type Issue, type Part, type Path, warning } from '../core/diagnostics.js';
import { didYouMean } from '../core/suggest.js';
import { ENUM_LIFECYCLE, LIFECYCLE_BOUNDS, LIFECYCLE_NOTE, type LifecycleBound } from './keywords.js';
import {
  comparePlatformVersions,
  componentTitle,
  LIFECYCLE_VERSION_EXPECTED,
  lifecycleVersionHint,
  type Platform,
  parseLifecycleVersion,
  platformVersionOf,
} from './platform-version.js';

/**
 * When a property, an enum value or a capability exists (docs/platform.md): the versions of one
 * platform component at which it was introduced, deprecated and removed, and the note that
 * goes with a deprecation or removal.
 */
export interface Lifecycle {
  readonly component: string;
  readonly bounds: Readonly<Partial<Record<LifecycleBound, string>>>;
  readonly note?: string;
}

/** What a lifecycle means at the platform a run judges against. */
export type Judgement =
  | { readonly state: 'available' }
  | {
      /** `too-early`: before `introducedIn`; `removed`: at or after `removedIn`; `deprecated`: at or after `deprecatedIn`, still there. */
      readonly state: 'too-early' | 'removed' | 'deprecated';
      readonly lifecycle: Lifecycle;
      /** The version the platform gives the lifecycle's component. */
      readonly running: string;
    };

const AVAILABLE: Judgement = { state: 'available' };

/**
 * Reads the lifecycle keywords of a schema node or property declaration; undefined when it
 * has no well-formed bound. Never throws: a malformed value is left to the load-time checks.
 */
export function readLifecycle(node: Readonly<Record<string, unknown>>): Lifecycle | undefined {
  // A catalogue's schemas are frozen: each is read once, not once per binding judged against it.
  if (!Object.isFrozen(node)) return readLifecycleKeywords(node);
  let read = frozenLifecycles.get(node);
  if (read === undefined) {
    const lifecycle = readLifecycleKeywords(node);
    read = lifecycle === undefined ? null : Object.freeze({ ...lifecycle, bounds: Object.freeze(lifecycle.bounds) });
    frozenLifecycles.set(node, read);
  }
  return read ?? undefined;
}

const frozenLifecycles = new WeakMap<object, Lifecycle | null>();

function readLifecycleKeywords(node: Readonly<Record<string, unknown>>): Lifecycle | undefined {
  let component: string | undefined;
  const bounds: Partial<Record<LifecycleBound, string>> = {};
  for (const keyword of LIFECYCLE_BOUNDS) {
    const value = node[keyword.name];
    if (typeof value !== 'string') continue;
    const parsed = parseLifecycleVersion(value);
    if (!parsed || (component !== undefined && parsed.component !== component)) continue;
    component = parsed.component;
    bounds[keyword.lifecycle.bound] = parsed.version;
  }
  if (component === undefined) return undefined;
  const note = node[LIFECYCLE_NOTE];
  return typeof note === 'string' ? { component, bounds, note } : { component, bounds };
}

/** Reads `enumLifecycle`: the lifecycle of each enum value that has one. */
export function readEnumLifecycles(node: Readonly<Record<string, unknown>>): ReadonlyMap<string, Lifecycle> | undefined {
  const perValue = node[ENUM_LIFECYCLE];
  if (!isMap(perValue)) return undefined;
  const out = new Map<string, Lifecycle>();
  for (const value of Object.keys(perValue)) {
    const entry = perValue[value];
    const lifecycle = isMap(entry) ? readLifecycle(entry) : undefined;
    if (lifecycle) out.set(value, lifecycle);
  }
  return out.size > 0 ? out : undefined;
}

/** True when a schema node holds any lifecycle keyword. */
export function hasLifecycleKeywords(node: Readonly<Record<string, unknown>>): boolean {
  return LIFECYCLE_BOUNDS.some((k) => node[k.name] !== undefined) || node[ENUM_LIFECYCLE] !== undefined || node[LIFECYCLE_NOTE] !== undefined;
}

/**
 * Judges a lifecycle at a platform: without a version for its component, everything is
 * available and nothing is deprecated. Removed wins over deprecated.
 */
export function judgeLifecycle(lifecycle: Lifecycle | undefined, platform: Platform | undefined): Judgement {
  if (lifecycle === undefined) return AVAILABLE;
  const running = platformVersionOf(platform, lifecycle.component);
  if (running === undefined) return AVAILABLE;
  const { introduced, deprecated, removed } = lifecycle.bounds;
  if (introduced !== undefined && comparePlatformVersions(running, introduced) < 0) return { state: 'too-early', lifecycle, running };
  if (removed !== undefined && comparePlatformVersions(running, removed) >= 0) return { state: 'removed', lifecycle, running };
  if (deprecated !== undefined && comparePlatformVersions(running, deprecated) >= 0) return { state: 'deprecated', lifecycle, running };
  return AVAILABLE;
}

/** True when the judgement leaves the value out at that platform. */
export function isUnavailable(judgement: Judgement): boolean {
  return judgement.state === 'too-early' || judgement.state === 'removed';
}

/**
 * The diagnostic a judgement gives a value written in a document: `field-unavailable` (error)
 * or `field-deprecated` (warning), naming the value, the component, the version the cluster
 * runs and the bound; undefined when the value is available and current.
 */
export function lifecycleIssue(judgement: Judgement, name: string, path: Path, part: Part): Issue | undefined {
  if (judgement.state === 'available') return undefined;
  const { lifecycle, running } = judgement;
  const { component, bounds, note } = lifecycle;
  const because = note ? `: ${note}` : '';
  switch (judgement.state) {
    case 'too-early':
      return error('field-unavailable', path, `${name} needs ${component} ${bounds.introduced}; this cluster runs ${running}`, { part });
    case 'removed':
      return error('field-unavailable', path, `${name} was removed in ${component} ${bounds.removed} (this cluster runs ${running})${because}`, { part });
    case 'deprecated':
      return warning('field-deprecated', path, `${name} is deprecated since ${component} ${bounds.deprecated} (this cluster runs ${running})${because}`, {
        part,
      });
  }
}

/** Why a schema narrowed to a platform accepts nothing: `not available on kubernetes 1.31: introduced in Kubernetes 1.20; removed in Kubernetes 1.31`. */
export function describeUnavailable(judgement: Judgement): string | undefined {
  if (!isUnavailable(judgement) || judgement.state === 'available') return undefined;
  return `not available on ${judgement.lifecycle.component} ${judgement.running}: ${describeLifecycle(judgement.lifecycle)}`;
}

/** A lifecycle in words, for published descriptions: `introduced in Kubernetes 1.29; deprecated in Kubernetes 1.31: use mode`. */
export function describeLifecycle(lifecycle: Lifecycle): string {
  const title = componentTitle(lifecycle.component);
  const phrases: string[] = [];
  for (const keyword of LIFECYCLE_BOUNDS) {
    const version = lifecycle.bounds[keyword.lifecycle.bound];
    if (version !== undefined) phrases.push(`${keyword.lifecycle.phrase} ${title} ${version}`);
  }
  const text = phrases.join('; ');
  return lifecycle.note ? `${text}: ${lifecycle.note}` : text;
}

/** The enclosing window a declaration's lifecycle must lie inside, and what to call it in messages. */
export interface EnclosingLifecycle {
  lifecycle: Lifecycle;
  label: string;
}

/** What the load-time rules need to know of the declaration around the keywords. */
export interface DeclarationContext {
  /** The lifecycle of what holds the declaration (its parent property, or the whole definition). */
  enclosing: EnclosingLifecycle | undefined;
  /** A required key must be writable at every version: no `introducedIn`, no `removedIn`. */
  isRequired: boolean;
  /** The declared `type`, when it is one. */
  type: string | undefined;
  /** The declared `enum`, when it is a list. */
  enumValues: readonly unknown[] | undefined;
  /** The declared `default`, when there is one. */
  defaultValue: unknown;
}

/** The outcome of the load-time lifecycle rules on one declaration. */
export interface DeclarationLifecycle {
  /** The declaration's own lifecycle, when it has one. */
  lifecycle: Lifecycle | undefined;
  /** What its children lie inside: its own window within the enclosing one. */
  enclosingChildren: EnclosingLifecycle | undefined;
  /** `definition-invalid` issues, with paths relative to the declaration. */
  issues: Issue[];
}

/**
 * The load-time rules of docs/platform.md on the lifecycle keywords of one declaration
 * (a definition property, a whole definition, a plugin schema's property): well-formed
 * versions, `introducedIn` < `deprecatedIn` < `removedIn` for one component, a window inside
 * the enclosing one, no `introducedIn`/`removedIn` on a required key, `enumLifecycle` on
 * string enums only and naming enum values. Keywords of the wrong type are left to the
 * structural check.
 */
export function checkLifecycleDeclaration(node: Readonly<Record<string, unknown>>, label: string, context: DeclarationContext): DeclarationLifecycle {
  const issues: Issue[] = [];
  const lifecycle = checkWindow(node, label, [], context.enclosing, issues);
  if (lifecycle && context.isRequired) {
    for (const keyword of LIFECYCLE_BOUNDS) {
      if (!keyword.lifecycle.isWindowEdge || typeof node[keyword.name] !== 'string') continue;
      issues.push(
        error(
          'definition-invalid',
          [keyword.name],
          `${label} is required, so it cannot have ${keyword.name}: a required key must be written on every version; make it optional, or publish a new definition version`,
          { part: 'key' },
        ),
      );
    }
  }
  const enclosingChildren = lifecycle ? { lifecycle: within(lifecycle, context.enclosing?.lifecycle), label } : context.enclosing;
  const perValue = node[ENUM_LIFECYCLE];
  if (perValue !== undefined && perValue !== null) {
    const values = context.enumValues;
    if (context.type !== 'string' || !Array.isArray(values)) {
      issues.push(
        error('definition-invalid', [ENUM_LIFECYCLE], `${ENUM_LIFECYCLE} on ${label} needs a string enum: it gives single values of enum their own lifecycle`, {
          part: 'key',
        }),
      );
    } else if (isMap(perValue)) {
      const strings = values.filter((v): v is string => typeof v === 'string');
      // A set, so a long enum with a lifecycle for each value costs linear time.
      const known = new Set(strings);
      for (const value of Object.keys(perValue)) {
        const entry = perValue[value];
        if (!known.has(value)) {
          const hint = didYouMean(value, strings);
          issues.push(
            error(
              'definition-invalid',
              [ENUM_LIFECYCLE, value],
              `${label}.${ENUM_LIFECYCLE} names ${JSON.stringify(value)}, which is not a value of ${label}.enum (${joinOr(strings.map((s) => JSON.stringify(s)))})`,
              { part: 'key', ...(hint ? { hint } : {}) },
            ),
          );
          continue;
        }
        if (!isMap(entry)) continue;
        const valueLifecycle = checkWindow(entry, `${label} value ${JSON.stringify(value)}`, [ENUM_LIFECYCLE, value], enclosingChildren, issues);
        if (valueLifecycle && value === context.defaultValue) checkDefaultValue(valueLifecycle, enclosingChildren?.lifecycle, label, value, issues);
      }
    }
  }
  return { lifecycle, enclosingChildren, issues };
}

// A default is applied whenever its property is available, so the value must exist then too.
function checkDefaultValue(value: Lifecycle, property: Lifecycle | undefined, label: string, written: string, issues: Issue[]): void {
  const { introduced, removed } = value.bounds;
  const sameComponent = property?.component === value.component;
  const startsLater =
    introduced !== undefined &&
    (!sameComponent || property.bounds.introduced === undefined || comparePlatformVersions(introduced, property.bounds.introduced) > 0);
  const endsEarlier =
    removed !== undefined && (!sameComponent || property.bounds.removed === undefined || comparePlatformVersions(removed, property.bounds.removed) < 0);
  if (!startsLater && !endsEarlier) return;
  issues.push(
    error(
      'definition-invalid',
      ['default'],
      `${label}.default ${JSON.stringify(written)} has a shorter lifecycle (${describeLifecycle({ component: value.component, bounds: value.bounds })}) than ${label}, but the default applies wherever ${label} exists; choose a default that exists as long as ${label} does`,
    ),
  );
}

/** Checks the bounds of one lifecycle (a declaration's, or one enum value's); returns it when it is well-formed. */
function checkWindow(
  node: Readonly<Record<string, unknown>>,
  label: string,
  at: Path,
  enclosing: EnclosingLifecycle | undefined,
  issues: Issue[],
): Lifecycle | undefined {
  const errorsBefore = issues.length;
  let component: string | undefined;
  let componentKeyword = '';
  const bounds: Partial<Record<LifecycleBound, string>> = {};
  const written: { keyword: string; version: string }[] = [];
  for (const keyword of LIFECYCLE_BOUNDS) {
    const value = node[keyword.name];
    if (typeof value !== 'string') continue;
    const path = [...at, keyword.name];
    const parsed = parseLifecycleVersion(value);
    if (!parsed) {
      issues.push(
        error('definition-invalid', path, `${label}.${keyword.name} must be ${LIFECYCLE_VERSION_EXPECTED}, found ${describeValue(value)}`, {
          hint: lifecycleVersionHint(value),
        }),
      );
      continue;
    }
    if (component !== undefined && parsed.component !== component) {
      issues.push(
        error(
          'definition-invalid',
          path,
          `${label}.${keyword.name} names ${parsed.component} but ${label}.${componentKeyword} names ${component}: one lifecycle follows one component`,
        ),
      );
      continue;
    }
    component = parsed.component;
    componentKeyword = keyword.name;
    for (const earlier of written) {
      if (comparePlatformVersions(parsed.version, earlier.version) > 0) continue;
      issues.push(
        error(
          'definition-invalid',
          path,
          `${label}.${keyword.name} ${parsed.version} must be later than ${label}.${earlier.keyword} ${earlier.version}: introducedIn < deprecatedIn < removedIn`,
        ),
      );
    }
    written.push({ keyword: keyword.name, version: parsed.version });
    bounds[keyword.lifecycle.bound] = parsed.version;
    if (enclosing && enclosing.lifecycle.component === component) {
      checkInside(keyword.lifecycle.bound, keyword.name, parsed.version, label, path, enclosing, issues);
    }
  }
  const note = node[LIFECYCLE_NOTE];
  const explained = LIFECYCLE_BOUNDS.some((k) => k.lifecycle.bound !== 'introduced' && typeof node[k.name] === 'string');
  if (typeof note === 'string' && !explained) {
    issues.push(
      error('definition-invalid', [...at, LIFECYCLE_NOTE], `${label}.${LIFECYCLE_NOTE} explains nothing here: it goes with deprecatedIn or removedIn`, {
        part: 'key',
      }),
    );
  }
  if (component === undefined || issues.length > errorsBefore) return undefined;
  return typeof note === 'string' ? { component, bounds, note } : { component, bounds };
}

// A key exists only while what holds it exists: every bound lies in [introducedIn, removedIn) of
// the enclosing window, a removal at most at the enclosing removal.
function checkInside(bound: LifecycleBound, keyword: string, version: string, label: string, path: Path, enclosing: EnclosingLifecycle, issues: Issue[]): void {
  const { introduced, removed } = enclosing.lifecycle.bounds;
  const tooEarly =
    introduced !== undefined && (bound === 'removed' ? comparePlatformVersions(version, introduced) <= 0 : comparePlatformVersions(version, introduced) < 0);
  const tooLate =
    removed !== undefined && (bound === 'removed' ? comparePlatformVersions(version, removed) > 0 : comparePlatformVersions(version, removed) >= 0);
  if (!tooEarly && !tooLate) return;
  issues.push(
    error(
      'definition-invalid',
      path,
      `${label}.${keyword} ${version} lies outside ${enclosing.label} (${describeLifecycle({ component: enclosing.lifecycle.component, bounds: enclosing.lifecycle.bounds })}): a key exists only while what holds it exists`,
    ),
  );
}

/** A lifecycle's window narrowed to an enclosing one of the same component (the enclosing bounds where its own are absent). */
function within(own: Lifecycle, enclosing: Lifecycle | undefined): Lifecycle {
  if (!enclosing || enclosing.component !== own.component) return own;
  const bounds: Partial<Record<LifecycleBound, string>> = { ...own.bounds };
  if (bounds.introduced === undefined && enclosing.bounds.introduced !== undefined) bounds.introduced = enclosing.bounds.introduced;
  if (bounds.removed === undefined && enclosing.bounds.removed !== undefined) bounds.removed = enclosing.bounds.removed;
  return { ...own, bounds };
}
