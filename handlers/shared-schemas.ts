import { Type } from '@sinclair/typebox';
import { nativePattern } from '../src/schema/pattern-matcher.js';

/** A name-like string that must not be empty (a Kubernetes object name). */
export const Name = (description: string) => Type.String({ minLength: 1, description });

/**
 * Go/Kubernetes duration syntax (`1h`, `1h30m`, `1.5h`, `300ms`, `0s`; units ns, us, µs, ms,
 * s, m, h). A bare `0` is accepted as Go accepts it.
 */
export const DURATION_PATTERN = nativePattern('^[-+]?(0|((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+)$');

/** `networkPolicy` of a rendering: which namespaces (and pods) may send traffic in. Closed at each level. */
export const NetworkPolicy = Type.Object(
  {
    trafficSources: Type.Optional(
      Type.Array(
        Type.Object(
          {
            namespace: Name('namespace allowed to send traffic'),
            podSelector: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Kubernetes label selector of the allowed pods' })),
          },
          { additionalProperties: false },
        ),
        { description: 'sources allowed to reach the component' },
      ),
    ),
  },
  { additionalProperties: false, description: 'network policy the platform applies to exposed components' },
);

/**
 * Applies `value` to `rendering[parent][key]` when that key is written as an empty string, as
 * the Go toolchain does (it cannot tell empty from absent). Returns a new map; never mutates
 * its input.
 */
export function applyDefaultWhenEmpty(rendering: Readonly<Record<string, unknown>>, parent: string, key: string, value: string): Record<string, unknown> {
  const nested = rendering[parent];
  if (typeof nested !== 'object' || nested === null || Array.isArray(nested)) return { ...rendering };
  if ((nested as Record<string, unknown>)[key] !== '') return { ...rendering };
  return { ...rendering, [parent]: { ...nested, [key]: value } };
}
