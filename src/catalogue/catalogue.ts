import { BUILTIN_HANDLERS } from '../../handlers/index.js';
import { appendAll, compareText, untrustedCopy } from '../core/data.js';
import type { Diagnostic, Issue } from '../core/diagnostics.js';
import type { JsonSchema } from '../core/json-schema.js';
import { latestVersion } from '../core/versions.js';
import { checkSchema } from '../schema/check.js';
import type { Handler, Rendering, RenderingContext, RenderingResult } from '../schema/handler.js';
import { type Lifecycle, readLifecycle } from '../schema/lifecycle.js';
import { LayeredPatternCache, withPatternMatcher } from '../schema/pattern-matcher.js';
import { NO_PLATFORM } from '../schema/platform-version.js';
import type { Locatable, YamlDocument } from '../yaml/source.js';
import { assertHandlerIsSound } from './assert-handler.js';
import { deepFreeze } from './deep-freeze.js';
import { RegistryError } from './errors.js';
import { loadDefinitionDocuments } from './load-definitions.js';
import { runPluginHandler } from './plugin-result.js';

/** Where a registered handler came from. */
export type HandlerSource = 'builtin' | `plugin:${string}`;

/** A handler as the catalogue holds it. */
export interface RegisteredHandler {
  handler: Handler;
  source: HandlerSource;
}

/** A handler offered to a catalogue, not yet checked against the handler contract (a plugin's export). */
export interface HandlerCandidate {
  handler: unknown;
  source: HandlerSource;
}

/** One document of a definition version, as it was loaded. */
export interface DefinitionSource {
  /** The file (as given). */
  file: string;
  /** The document's digest (docs/versions.md). */
  digest: string;
  /** The document, to position diagnostics about it (`definition-changed`). */
  document: Locatable;
}

/**
 * A compiled CapabilityDefinition version: validates and defaults the rendering of `<name>` and
 * `<name>.<scope>` keys that resolve to it.
 */
export interface CapabilityDefinitionEntry {
  name: string;
  /** `spec.version`; undefined for an unversioned definition (then it is the name's only entry). */
  version: string | undefined;
  /** `spec.deprecation`, the note of a deprecated version. */
  deprecation: string | undefined;
  description: string;
  /** The file (as given) of the document used: the one whose path sorts first among equal documents. */
  file: string;
  /** The digest of that document. */
  digest: string;
  /** The JSON Schema the definition compiles to (a TypeBox schema). */
  schema: JsonSchema;
  /** Every document of this version (equal ones de-duplicated into this entry), path order. */
  documents: readonly DefinitionSource[];
}

/** Where a capability type's versions come from (docs/versions.md). */
export type VersionSource = 'definition' | 'handler' | 'none';

/** How a capability type's rendering is checked, in order. */
export interface RenderingCheck {
  result: RenderingResult;
  /** True when neither a schema nor a definition judged the rendering (pass-through). */
  unvalidated: boolean;
}

/** A catalogue with definitions added, and the problems found in their documents. */
export interface CatalogueExtension {
  catalogue: Catalogue;
  /** Positioned in the definition documents. */
  diagnostics: Diagnostic[];
}

/** Options of {@link createCatalogue}. */
export interface CreateCatalogueOptions {
  /** Hold the built-in handlers (default true). */
  builtins?: boolean;
  /** Plugin handlers, each put through the startup assertion. */
  handlers?: readonly HandlerCandidate[];
}

/**
 * Everything kurel knows about capabilities, as one immutable value: handlers by trait type
 * and CapabilityDefinitions by name, plus the names whose definitions failed to load (their
 * bindings stay quiet: the definition's own error explains them). Adding handlers or
 * definitions makes a new catalogue sharing what is unchanged; none is ever mutated, so a
 * service answers every request from the catalogue it started with.
 */
export class Catalogue {
  private constructor(
    private readonly handlersByType: ReadonlyMap<string, RegisteredHandler>,
    /** Each name's versions, ascending (an unversioned name has one entry without a version). */
    private readonly definitionsByName: ReadonlyMap<string, readonly CapabilityDefinitionEntry[]>,
    private readonly brokenNames: ReadonlySet<string>,
    /** Compiled definition and plugin patterns, bounded; a derived catalogue reads through to this one's. */
    readonly patterns: LayeredPatternCache,
  ) {}

  /** An empty catalogue (no handlers, no definitions). */
  static empty(): Catalogue {
    return new Catalogue(new Map(), new Map(), new Set(), new LayeredPatternCache());
  }

  /**
   * A catalogue with these handlers added. Each goes through the startup assertion (docs/plugins.md)
   * and throws {@link RegistryError} naming the handler when it breaks the contract or claims a
   * type already held. `trusted` skips the JSON Schema meta-check: the built-ins' schemas are
   * checked by tests at build time, so a lint start pays nothing for them.
   */
  withHandlers(candidates: readonly HandlerCandidate[], options: { trusted?: boolean } = {}): Catalogue {
    const handlers = new Map(this.handlersByType);
    for (const { handler, source } of candidates) {
      assertHandlerIsSound(handler, source, { checkSchema: !options.trusted });
      const taken = handlers.get(handler.type);
      if (taken) throw new RegistryError(handler.type, `type "${handler.type}" is already registered by ${taken.source}`, source);
      // Frozen as it enters: the published schema and the checker's compiled copy stay one.
      handlers.set(handler.type, Object.freeze({ handler: deepFreeze(handler), source }));
    }
    return new Catalogue(handlers, this.definitionsByName, this.brokenNames, this.patterns);
  }

  /**
   * A catalogue with the CapabilityDefinition documents added (docs/definitions.md, docs/versions.md): each is
   * compiled, documents sharing a name are resolved into its versions (duplicates and conflicts
   * per version), and a name with any error is held as broken, every version of it. A name
   * defined here replaces all the versions this catalogue held for it. The outcome does not
   * depend on the order of `documents`.
   */
  withDefinitions(documents: readonly YamlDocument[]): CatalogueExtension {
    if (documents.length === 0) return { catalogue: this, diagnostics: [] };
    const isBuiltin = (name: string) => this.handlersByType.get(name)?.source === 'builtin';
    const loaded = loadDefinitionDocuments(documents, isBuiltin);
    const definitions = new Map(this.definitionsByName);
    const broken = new Set(this.brokenNames);
    for (const name of loaded.names) {
      definitions.delete(name);
      broken.delete(name);
    }
    for (const [name, versions] of loaded.accepted) definitions.set(name, Object.freeze(versions.map(freezeEntry)));
    for (const name of loaded.broken) broken.add(name);
    return { catalogue: new Catalogue(this.handlersByType, definitions, broken, new LayeredPatternCache(this.patterns)), diagnostics: loaded.diagnostics };
  }

  /** The handler registered for a trait type. */
  handler(type: string): RegisteredHandler | undefined {
    return this.handlersByType.get(type);
  }

  /**
   * A catalogue in which the named definitions have only the versions listed (docs/versions.md: the locked versions are the only versions there are). Names not
   * in `allowed` keep every version.
   */
  restrictVersions(allowed: ReadonlyMap<string, ReadonlySet<string>>): Catalogue {
    const definitions = new Map(this.definitionsByName);
    for (const [name, versions] of allowed) {
      const held = definitions.get(name);
      if (held)
        definitions.set(
          name,
          held.filter((entry) => entry.version !== undefined && versions.has(entry.version)),
        );
    }
    return new Catalogue(this.handlersByType, definitions, this.brokenNames, this.patterns);
  }

  /**
   * The definition of a capability type: the given version, or without one the version an
   * unpinned binding resolves to (the highest release; docs/versions.md).
   */
  definition(type: string, version?: string): CapabilityDefinitionEntry | undefined {
    const versions = this.definitionsByName.get(type);
    if (!versions || versions.length === 0) return undefined;
    if (version !== undefined) return versions.find((entry) => entry.version === version);
    const latest = latestVersion(versions.flatMap((entry) => (entry.version === undefined ? [] : [entry.version])));
    return latest === undefined ? versions[0] : versions.find((entry) => entry.version === latest);
  }

  /** Every loaded version of a definition, ascending; empty when no definition of the name is loaded. */
  definitionVersions(type: string): readonly CapabilityDefinitionEntry[] {
    return this.definitionsByName.get(type) ?? [];
  }

  /**
   * Where a type's versions come from: its CapabilityDefinitions whenever any is loaded (even
   * unversioned, and even when a plugin handler declares a version), else its handler.
   */
  versionSource(type: string): VersionSource {
    if (this.definitionsByName.has(type)) return 'definition';
    return this.handlersByType.has(type) ? 'handler' : 'none';
  }

  /** The versions a binding of `type` may resolve to, ascending: its definitions' versions, else its handler's one version, else none. */
  versionsOf(type: string): string[] {
    const definitions = this.definitionsByName.get(type);
    if (definitions) return definitions.flatMap((entry) => (entry.version === undefined ? [] : [entry.version]));
    const version = this.handlersByType.get(type)?.handler.version;
    return version === undefined ? [] : [version];
  }

  /** True when the type's versions come from versioned CapabilityDefinitions (pins are locked, `--require-pinned` applies). */
  hasDefinitionVersions(type: string): boolean {
    return this.definitionsByName.get(type)?.some((entry) => entry.version !== undefined) ?? false;
  }

  /** True when a definition of this name failed to load, so its bindings get no further diagnostic. */
  isBroken(name: string): boolean {
    return this.brokenNames.has(name) && !this.definitionsByName.has(name);
  }

  /** True when a handler or a definition knows the type. */
  knows(type: string): boolean {
    return this.handlersByType.has(type) || this.definitionsByName.has(type);
  }

  /** Every handler, sorted by type. */
  listHandlers(): RegisteredHandler[] {
    return [...this.handlersByType.values()].sort((a, b) => (a.handler.type < b.handler.type ? -1 : 1));
  }

  /** Every definition version, sorted by name, then ascending version. */
  listDefinitions(): CapabilityDefinitionEntry[] {
    return [...this.definitionsByName.keys()].sort(compareText).flatMap((name) => this.definitionsByName.get(name)!);
  }

  /** The names whose definitions failed to load (their bindings get no further diagnostic), sorted. */
  listBrokenNames(): string[] {
    return [...this.brokenNames].filter((name) => this.isBroken(name)).sort(compareText);
  }

  /** Every type a handler or definition knows, sorted. */
  knownTypes(): string[] {
    return [...new Set([...this.handlersByType.keys(), ...this.definitionsByName.keys()])].sort();
  }

  /**
   * When a capability exists (docs/platform.md): the lifecycle its definition declares in `spec`
   * (the version given, else the one an unpinned binding resolves to), else the one on its
   * handler's rendering schema; undefined when neither has one.
   */
  capabilityLifecycle(type: string, version?: string): Lifecycle | undefined {
    const definition = this.definition(type, version);
    const fromDefinition = definition ? readLifecycle(definition.schema) : undefined;
    if (fromDefinition) return fromDefinition;
    const schema = this.handlersByType.get(type)?.handler.renderingSchema;
    return schema ? readLifecycle(schema) : undefined;
  }

  /**
   * Validates a binding's rendering and applies defaults: the definition first (the version
   * given, else the one an unpinned binding resolves to), then the handler's own check (its
   * `validateAndApplyDefaults`, or its schema). A type with neither passes through unchanged.
   * The context's platform gates keys and values by their lifecycle and is handed to the handler.
   */
  validateRendering(type: string, rendering: Rendering, context: RenderingContext = { platform: NO_PLATFORM }, version?: string): RenderingCheck {
    return withPatternMatcher(this.patterns, () => this.validateWithPatterns(type, rendering, context, version));
  }

  private validateWithPatterns(type: string, rendering: Rendering, context: RenderingContext, version: string | undefined): RenderingCheck {
    const definition = this.definition(type, version);
    const registered = this.handlersByType.get(type);
    const handler = registered?.handler;
    let current: Rendering = rendering;
    const issues: Issue[] = [];
    let validated = false;
    if (definition) {
      const result = checkSchema(definition.schema, current, { platform: context.platform });
      appendAll(issues, result.issues);
      current = result.value as Rendering;
      validated = true;
    }
    if (handler && !issues.some((issue) => issue.severity === 'error')) {
      if (handler.validateAndApplyDefaults) {
        const validate = handler.validateAndApplyDefaults.bind(handler);
        const input = current;
        // A plugin is plain JavaScript: it gets a copy it cannot be misled by (docs/service.md), and
        // what it throws or returns is checked, never trusted. Built-ins read the data as it is.
        const result =
          registered.source === 'builtin'
            ? validate(input, context)
            : runPluginHandler(registered.source.slice('plugin:'.length), () => validate(untrustedCopy(input) as Rendering, context), input);
        appendAll(issues, result.issues);
        current = result.rendering;
        validated = true;
      } else if (handler.renderingSchema) {
        const result = checkSchema(handler.renderingSchema, current, { platform: context.platform });
        appendAll(issues, result.issues);
        current = result.value as Rendering;
        validated = true;
      }
    }
    return { result: { rendering: current, issues }, unvalidated: !validated };
  }
}

// The entry and its schema deeply; the YAML documents it points at stay the parser's own.
function freezeEntry(entry: CapabilityDefinitionEntry): CapabilityDefinitionEntry {
  deepFreeze(entry.schema);
  for (const source of entry.documents) Object.freeze(source);
  Object.freeze(entry.documents);
  return Object.freeze(entry);
}

const BUILTINS: readonly HandlerCandidate[] = BUILTIN_HANDLERS.map((handler) => ({ handler, source: 'builtin' }));
let builtinCatalogue: Catalogue | undefined;

/**
 * A catalogue of the built-in handlers (unless `builtins: false`) and the given plugin
 * handlers, each through the startup assertion; throws {@link RegistryError} when one breaks it.
 */
export function createCatalogue(options: CreateCatalogueOptions = {}): Catalogue {
  let catalogue = Catalogue.empty();
  if (options.builtins !== false) {
    builtinCatalogue ??= catalogue.withHandlers(BUILTINS, { trusted: true });
    catalogue = builtinCatalogue;
  }
  return options.handlers?.length ? catalogue.withHandlers(options.handlers) : catalogue;
}
