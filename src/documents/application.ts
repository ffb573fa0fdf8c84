import { Type } from '@sinclair/typebox';
import { ApiVersion, DNS1123_LABEL, SubdomainName } from './common.js';

// kurel reads component and trait settings as data; it checks only reserved keys and `scope` in them.
const FreeForm = (description: string) => Type.Object({}, { additionalProperties: true, description });

const StringMap = (description: string) => Type.Object({}, { additionalProperties: Type.String(), description });

/** One trait of a component: its type and free-form properties (`scope` picks a scoped capability key). */
export const TraitSchema = Type.Object(
  {
    type: Type.String({ minLength: 1, description: 'the trait type; a handler must be registered for it' }),
    properties: Type.Optional(FreeForm('trait settings, merged over the capability rendering at build')),
  },
  { additionalProperties: false },
);

/** One component of an application. */
export const ComponentSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'the component name' }),
    type: Type.String({ minLength: 1, description: 'the component type, e.g. webservice' }),
    properties: Type.Optional(FreeForm('component settings')),
    traits: Type.Optional(Type.Array(TraitSchema, { description: 'capabilities the component uses' })),
  },
  { additionalProperties: false },
);

/** The Application document structure `kurel build` reads (docs/cli.md); strict except inside `properties`. */
export const ApplicationSchema = Type.Object(
  {
    apiVersion: ApiVersion,
    kind: Type.Literal('Application'),
    metadata: Type.Object(
      {
        name: SubdomainName,
        namespace: Type.Optional(
          Type.String({
            pattern: DNS1123_LABEL,
            'x-expected': 'a namespace name (a DNS-1123 label: lowercase letters, digits and -)',
          }),
        ),
        labels: Type.Optional(StringMap('Kubernetes labels')),
        annotations: Type.Optional(StringMap('Kubernetes annotations')),
      },
      { additionalProperties: false },
    ),
    spec: Type.Object({ components: Type.Array(ComponentSchema) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
