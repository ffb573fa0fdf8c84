import { checkSchema, type JsonSchema } from '../schema/check.js';
import type { Issue } from '../core/diagnostics.js';
import type { Handler, Rendering, RenderingResult } from '../schema/handler.js';
import { assertHandlerIsSound } from './assert-handler.js';
import { RegistryError } from './errors.js';

export { RegistryError } from './errors.js';

/** Where a registered handler came from. */
export type HandlerSource = 'builtin' | `plugin:${string}`;

/** A handler as the registry holds it. */
export interface RegisteredHandler {
  handler: Handler;
  source: HandlerSource;
}

/** A compiled CapabilityDefinition: validates and defaults the rendering of `<name>` and `<name>.<scope>` keys. */
export interface CapabilityDefinitionEntry {
  name: string;
  description: string;
  /** The file (as given) the definition was loaded from. */
  file: string;
  /** The JSON Schema the definition compiles to (a TypeBox schema). */
  schema: JsonSchema;
}

/** How a capability type's rendering is checked, in order. */
export interface RenderingCheck {
  result: RenderingResult;
  /** True when neither a schema nor a definition judged the rendering (pass-through). */
  unvalidated: boolean;
}

/**
 * The capability registry: handlers by trait type, plus the CapabilityDefinitions loaded for
 * this run. Registration asserts the handler contract at once, so a broken handler fails at
 * start, not at use.
 */
export class Registry {
  private readonly handlers = new Map<string, RegisteredHandler>();
  private readonly definitionsByName = new Map<string, CapabilityDefinitionEntry>();
  private readonly failedDefinitions = new Set<string>();

  /**
   * Registers a handler. Throws {@link RegistryError} when the type is taken or the handler
   * breaks the contract. `trusted` skips the JSON Schema meta-check (built-ins are checked by
   * tests at build time, so a lint start pays nothing for them).
   */
  register(handler: Handler, source: HandlerSource = 'builtin', options: { trusted?: boolean } = {}): void {
    assertHandlerIsSound(handler, source, { checkSchema: !options.trusted });
    const existing = this.handlers.get(handler.type);
    if (existing) {
      throw new RegistryError(handler.type, `type "${handler.type}" is already registered by ${existing.source}`, source);
    }
    this.handlers.set(handler.type, { handler, source });
  }

  /**
   * A copy holding the same handlers and definitions; definitions added to the copy never
   * reach this registry (a service validates each request's own definitions on a fork).
   */
  fork(): Registry {
    const copy = new Registry();
    for (const [type, entry] of this.handlers) copy.handlers.set(type, entry);
    for (const [name, definition] of this.definitionsByName) copy.definitionsByName.set(name, definition);
    for (const name of this.failedDefinitions) copy.failedDefinitions.add(name);
    return copy;
  }

  /** Adds a compiled definition (replacing none: the loader resolves duplicates first). */
  addDefinition(definition: CapabilityDefinitionEntry): void {
    this.definitionsByName.set(definition.name, definition);
  }

  /** Records that a definition of this name failed to load, so its bindings stay quiet. */
  markDefinitionFailed(name: string): void {
    this.failedDefinitions.add(name);
  }

  /** True when a definition of this name failed to load in this run. */
  isDefinitionFailed(name: string): boolean {
    return this.failedDefinitions.has(name) && !this.definitionsByName.has(name);
  }

  /** The handler registered for a trait type. */
  handler(type: string): RegisteredHandler | undefined {
    return this.handlers.get(type);
  }

  /** The definition loaded for a capability type. */
  definition(type: string): CapabilityDefinitionEntry | undefined {
    return this.definitionsByName.get(type);
  }

  /** True when a handler or a definition knows the type. */
  knows(type: string): boolean {
    return this.handlers.has(type) || this.definitionsByName.has(type);
  }

  /** Every handler, sorted by type. */
  listHandlers(): RegisteredHandler[] {
    return [...this.handlers.values()].sort((a, b) => (a.handler.type < b.handler.type ? -1 : 1));
  }

  /** Every definition, sorted by name. */
  listDefinitions(): CapabilityDefinitionEntry[] {
    return [...this.definitionsByName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Every type a handler or definition knows, sorted. */
  knownTypes(): string[] {
    return [...new Set([...this.handlers.keys(), ...this.definitionsByName.keys()])].sort();
  }

  /**
   * Validates a binding's rendering and applies defaults: the definition first (if any), then
   * the handler's own check (its `validateAndApplyDefaults`, or its schema). A type with neither
   * passes through unchanged.
   */
  checkRendering(type: string, rendering: Rendering): RenderingCheck {
    const definition = this.definitionsByName.get(type);
    const registered = this.handlers.get(type);
    let current: Rendering = rendering;
    const issues: Issue[] = [];
    let validated = false;
    if (definition) {
      const result = checkSchema(definition.schema, current);
      issues.push(...result.issues);
      current = result.value as Rendering;
      validated = true;
    }
    const handler = registered?.handler;
    if (handler && issues.length === 0) {
      if (handler.validateAndApplyDefaults) {
        const result = handler.validateAndApplyDefaults(current);
        issues.push(...result.issues);
        current = result.rendering;
        validated = true;
      } else if (handler.renderingSchema) {
        const result = checkSchema(handler.renderingSchema, current);
        issues.push(...result.issues);
        current = result.value as Rendering;
        validated = true;
      }
    }
    return { result: { rendering: current, issues }, unvalidated: !validated };
  }
}
