import { Type } from '@sinclair/typebox';
import { isMap } from '../core/data.js';
import { didYouMean } from '../core/suggest.js';
import { nativePattern } from '../schema/pattern-matcher.js';
import { COMPONENT_PATTERN, PLATFORM_VERSION_EXPECTED, PLATFORM_VERSION_PATTERN } from '../schema/platform-version.js';
import { ApiVersion, CAPABILITY_KEY, SubdomainName } from './common.js';

const BindingMap = Type.Object(
  {
    rendering: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'how this cluster implements the capability' })),
    version: Type.Optional(
      Type.String({
        description: 'the version to use: exact (2.1.3), partial (2.1, 2) or a range (^2.1.0, ~2.1.3, ">=2.1 <3"); absent: the highest release',
      }),
    ),
  },
  { additionalProperties: false },
);

/** One capability binding: `rendering` (absent, null or a map) and the `version` pin (docs/versions.md). */
export const CapabilityBinding = Type.Union([Type.Null(), BindingMap]);

/**
 * The keys of a binding written where its `rendering:` level was forgotten: the binding has
 * no `rendering`, and its keys unknown to a binding are none of them a slip of a binding's
 * own key (`rendring` is a typo, not a forgotten level). Empty otherwise.
 */
export function keysMissingRenderingLevel(binding: unknown): string[] {
  if (!isMap(binding)) return [];
  if (Object.hasOwn(binding, 'rendering')) return [];
  const own = Object.keys(BindingMap.properties);
  const unknown = Object.keys(binding).filter((key) => !own.includes(key));
  if (unknown.length === 0 || unknown.some((key) => didYouMean(key, own) !== undefined)) return [];
  return unknown;
}

/**
 * `spec.platform`: the version each platform component of the cluster runs (docs/platform.md), by
 * component name (a DNS-1123 label). Versions are strings: `1.30` unquoted is the number 1.3.
 */
export const PlatformVersions = Type.Object(
  {},
  {
    description: 'the version each platform component of the cluster runs, such as kubernetes: "1.30"; capability fields are checked against it',
    additionalProperties: Type.String({
      pattern: nativePattern(PLATFORM_VERSION_PATTERN),
      'x-expected': PLATFORM_VERSION_EXPECTED,
      description: 'MAJOR.MINOR or MAJOR.MINOR.PATCH, quoted',
    }),
    propertyNames: {
      pattern: nativePattern(COMPONENT_PATTERN),
      'x-expected': 'a component name: a DNS-1123 label (lowercase letters, digits and -) such as kubernetes or gateway-api',
    },
  },
);

/** The ClusterProfile document structure (docs/profiles.md); renderings are checked per capability afterwards. */
export const ClusterProfileSchema = Type.Object(
  {
    apiVersion: ApiVersion,
    kind: Type.Literal('ClusterProfile'),
    metadata: Type.Object({ name: SubdomainName }, { additionalProperties: false }),
    spec: Type.Optional(
      Type.Object(
        {
          gitopsEngine: Type.Optional(Type.Literal('fluxcd', { description: 'only fluxcd is supported; absent means fluxcd' })),
          platform: Type.Optional(PlatformVersions),
          capabilities: Type.Optional(
            Type.Object(
              {},
              {
                additionalProperties: CapabilityBinding,
                propertyNames: {
                  pattern: CAPABILITY_KEY,
                  'x-expected': '<type> or <type>.<scope>: a DNS-1123 label, optionally followed by . and a DNS-1123 subdomain',
                },
              },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The default gitops engine. */
export const DEFAULT_GITOPS_ENGINE = 'fluxcd';
