import { Type } from '@sinclair/typebox';
import { ApiVersion, DNS1123_LABEL } from './common.js';

/** The value types a definition property may declare. */
export const PROPERTY_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'] as const;

/** One of {@link PROPERTY_TYPES}. */
export type PropertyType = (typeof PROPERTY_TYPES)[number];

const OpenMap = (description: string) => Type.Object({}, { additionalProperties: true, description });

const StringMap = (description: string) => Type.Object({}, { additionalProperties: Type.String(), description });

const LifecycleVersion = (description: string) =>
  Type.Optional(Type.String({ description: `${description}: "1.29" (Kubernetes) or "<component> <version>" such as "gateway-api 1.1"` }));

/**
 * The lifecycle keywords (docs/platform.md): when a property, an enum value or a whole capability
 * was introduced, deprecated and removed, in versions of one platform component.
 */
const LifecycleKeywords = {
  introducedIn: LifecycleVersion('the first platform version that has it'),
  deprecatedIn: LifecycleVersion('the first platform version that deprecates it'),
  removedIn: LifecycleVersion('the first platform version that no longer has it'),
  deprecationNote: Type.Optional(Type.String({ description: 'what to use instead, shown with the deprecation or removal' })),
};

/** One entry of `enumLifecycle`: the lifecycle of one enum value. */
export const EnumValueLifecycleSchema = Type.Object(LifecycleKeywords, { additionalProperties: false });

/**
 * The keywords of one property declaration, checked one level at a time: `items`,
 * `properties` and `additionalProperties` hold further declarations, which the loader checks
 * in turn (so the structure stays a plain, non-recursive schema). Whether a keyword fits the
 * declared type is a rule of the loader (`definition-invalid`), not of this structure.
 */
export const PropertyDeclarationSchema = Type.Object(
  {
    type: Type.Optional(Type.String({ enum: [...PROPERTY_TYPES], description: 'the value type; absent means any value' })),
    required: Type.Optional(Type.Boolean({ description: 'the key must be written in every rendering' })),
    default: Type.Optional(Type.Unknown({ description: 'applied when the key is absent; must satisfy the property itself' })),
    description: Type.Optional(Type.String()),
    enum: Type.Optional(Type.Array(Type.Unknown(), { description: 'the only values allowed' })),
    pattern: Type.Optional(Type.String({ description: 'ECMAScript regular expression (u flag) a string must match' })),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    minLength: Type.Optional(Type.Integer()),
    maxLength: Type.Optional(Type.Integer()),
    minItems: Type.Optional(Type.Integer()),
    maxItems: Type.Optional(Type.Integer()),
    items: Type.Optional(OpenMap('the declaration every list item must satisfy')),
    properties: Type.Optional(OpenMap('declarations of the keys of a map')),
    additionalProperties: Type.Optional(
      Type.Union([Type.Boolean(), OpenMap('the declaration every undeclared key must satisfy')], {
        description: 'true opens the map to any other key; a declaration opens it to keys whose values satisfy it',
      }),
    ),
    ...LifecycleKeywords,
    renamedFrom: Type.Optional(Type.String({ minLength: 1, description: "this property's name in the previous version (docs/migrate.md)" })),
    enumLifecycle: Type.Optional(
      Type.Object({}, { additionalProperties: EnumValueLifecycleSchema, description: 'the lifecycle of single values of a string enum, by value' }),
    ),
  },
  { additionalProperties: false },
);

/** The keywords a property declaration may hold, in the order docs/definitions.md lists them. */
export const PROPERTY_KEYWORDS: readonly string[] = Object.keys(PropertyDeclarationSchema.properties);

/**
 * The CapabilityDefinition document structure (docs/definitions.md). `spec.rendering.properties` is an
 * open map here; each property declaration is checked against {@link PropertyDeclarationSchema}.
 */
export const CapabilityDefinitionSchema = Type.Object(
  {
    apiVersion: ApiVersion,
    kind: Type.Literal('CapabilityDefinition'),
    metadata: Type.Object(
      {
        name: Type.String({
          minLength: 1,
          maxLength: 63,
          pattern: DNS1123_LABEL,
          'x-expected': 'a DNS-1123 label (lowercase letters, digits and -, starting and ending alphanumeric): it is the trait type',
          description: 'the capability (trait) type this definition validates',
        }),
        namespace: Type.Optional(Type.String()),
        labels: Type.Optional(StringMap('labels, kept as data')),
        annotations: Type.Optional(StringMap('annotations, kept as data')),
      },
      { additionalProperties: false },
    ),
    spec: Type.Optional(
      Type.Object(
        {
          version: Type.Optional(Type.String({ description: 'the SemVer version of this definition (1.2.0, 2.0.0-rc.1); one name may have several versions' })),
          deprecation: Type.Optional(Type.String({ description: 'marks this version deprecated; says what to use instead' })),
          description: Type.Optional(Type.String({ description: 'what the capability does' })),
          ...LifecycleKeywords,
          rendering: Type.Optional(
            Type.Object({ properties: Type.Optional(OpenMap('the rendering keys this capability accepts, by name')) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
