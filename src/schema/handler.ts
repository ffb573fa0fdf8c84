import { isMap } from '../core/data.js';
import { error, type Issue } from '../core/diagnostics.js';
import type { JsonSchema } from '../core/json-schema.js';
import { checkSchema } from './check.js';
import type { Platform } from './platform-version.js';

/** A rendering map: the values a cluster profile binds to a capability. */
export type Rendering = Record<string, unknown>;

/** What `validateAndApplyDefaults` returns: a new rendering and every problem found. */
export interface RenderingResult {
  /** A new map with defaults applied; the input is never mutated. */
  rendering: Rendering;
  /** Every problem, with paths relative to the rendering. */
  issues: Issue[];
}

/**
 * What a handler is told besides the rendering: the versions of the cluster's platform
 * components (docs/platform.md), so its own defaults and rules can follow them. A component
 * the platform does not name has no known version.
 */
export interface RenderingContext {
  readonly platform: Platform;
}

interface HandlerBase {
  /** The trait type this handler implements (a DNS-1123 label). */
  type: string;
  /** One line saying what the trait does. */
  description: string;
  /**
   * The handler's SemVer version (docs/versions.md): information shown by `kurel capabilities`, and
   * the one version a pin on a binding of a handler-only type must be satisfied by.
   */
  version?: string;
  /**
   * Rendering keys an application may not author inline; only the profile sets them
   * (authoring one, even as `null`, is `platform-reserved` at build).
   */
  platformReserved?: readonly string[];
}

/**
 * A handler that consumes capability rendering: it must declare its rendering schema and
 * implement `validateAndApplyDefaults` (the registry's startup assertion enforces this for
 * plugins; these types enforce it for built-ins).
 */
export interface CapabilityAwareHandler extends HandlerBase {
  capabilityAware: true;
  /** A trait of this type cannot be built without a matching binding. */
  capabilityRequired: boolean;
  renderingSchema: JsonSchema;
  /**
   * Strict check, semantic checks and conditional defaults; returns a new map and every error.
   * The catalogue always gives the context (a plugin written for one argument ignores it);
   * a caller without one judges at no platform version.
   */
  validateAndApplyDefaults(rendering: Readonly<Rendering>, context?: RenderingContext): RenderingResult;
}

/**
 * A handler that does not consume capability rendering. It may still declare a schema
 * (then its rendering is checked strictly); without one the rendering passes through.
 */
export interface PassThroughHandler extends HandlerBase {
  capabilityAware: false;
  capabilityRequired?: false;
  renderingSchema?: JsonSchema;
  validateAndApplyDefaults?(rendering: Readonly<Rendering>, context?: RenderingContext): RenderingResult;
}

/** The handler contract (docs/plugins.md) for built-ins and plugins alike. */
export type Handler = CapabilityAwareHandler | PassThroughHandler;

/** Declares a handler; a typed identity so a built-in's shape is checked where it is written. */
export function defineHandler<H extends Handler>(handler: H): H {
  return handler;
}

/**
 * The shared check-and-default step of every `validateAndApplyDefaults`: checks a rendering
 * against its schema and applies the schema's defaults, gating lifecycle keywords at the
 * context's platform. Returns a new map; never mutates its input.
 */
export function checkRendering(schema: JsonSchema, rendering: Readonly<Rendering>, context?: RenderingContext): RenderingResult {
  const { value, issues } = checkSchema(schema, rendering, { platform: context?.platform });
  if (!isMap(value)) {
    return { rendering: {}, issues: issues.length ? issues : [error('wrong-type', [], 'rendering must be a map')] };
  }
  return { rendering: value, issues };
}
