import type { TSchema } from '@sinclair/typebox';
import { CapabilityDefinitionSchema } from '../documents/capability-definition.js';
import { ClusterProfileSchema } from '../documents/cluster-profile.js';
import { API_VERSION } from '../documents/common.js';
import { KEYWORDS } from '../schema/keywords.js';

/** The API group of kurel's documents as Kubernetes resources. */
export const CRD_GROUP = API_VERSION.slice(0, API_VERSION.indexOf('/'));

/** The one version the CRDs serve and store. */
export const CRD_VERSION = API_VERSION.slice(API_VERSION.indexOf('/') + 1);

/** The part of apiextensions.k8s.io/v1 `JSONSchemaProps` a generated schema uses. */
export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  nullable?: boolean;
  properties?: Record<string, StructuralSchema>;
  required?: string[];
  additionalProperties?: StructuralSchema;
  items?: StructuralSchema;
  enum?: (string | number | boolean)[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  'x-kubernetes-preserve-unknown-fields'?: true;
}

/** An `additionalPrinterColumns` entry. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'date' | 'integer' | 'number' | 'boolean';
  jsonPath: string;
  description: string;
  priority?: number;
}

/** An `apiextensions.k8s.io/v1` CustomResourceDefinition as `kurel crd` prints it. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    group: string;
    scope: 'Cluster' | 'Namespaced';
    names: { kind: string; listKind: string; plural: string; singular: string; categories: string[] };
    versions: {
      name: string;
      served: true;
      storage: true;
      schema: { openAPIV3Schema: StructuralSchema };
      additionalPrinterColumns: PrinterColumn[];
    }[];
  };
}

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'when the object was created' };

/**
 * The CustomResourceDefinitions of ClusterProfile (cluster-scoped) and CapabilityDefinition
 * (namespaced), their schemas generated from the document schemas kurel validates with. A
 * new field in a document schema appears here by itself. Returns new objects at every call.
 */
export function generateCrds(): CustomResourceDefinition[] {
  return [
    defineCrd({
      kind: 'CapabilityDefinition',
      plural: 'capabilitydefinitions',
      scope: 'Namespaced',
      document: CapabilityDefinitionSchema,
      description: 'A CapabilityDefinition declares the rendering keys of one custom capability; its metadata.name is the capability (trait) type.',
      specDescription:
        "The capability: its description and the rendering keys it accepts. kurel's admission webhook checks it exactly as kurel lint checks a definition file.",
      columns: [
        { name: 'Version', type: 'string', jsonPath: '.spec.version', description: 'the version of the definition' },
        { name: 'Description', type: 'string', jsonPath: '.spec.description', description: 'what the capability does' },
        AGE,
      ],
    }),
    defineCrd({
      kind: 'ClusterProfile',
      plural: 'clusterprofiles',
      scope: 'Cluster',
      document: ClusterProfileSchema,
      description: 'A ClusterProfile says how one cluster implements each capability its applications may use.',
      specDescription: "The cluster's capability bindings. kurel's admission webhook checks it exactly as kurel lint checks a cluster.yaml.",
      columns: [
        {
          name: 'Kubernetes',
          type: 'string',
          jsonPath: '.spec.platform.kubernetes',
          description: 'the Kubernetes version of the platform the profile describes',
        },
        AGE,
      ],
    }),
  ];
}

interface CrdSource {
  kind: string;
  plural: string;
  scope: 'Cluster' | 'Namespaced';
  document: TSchema;
  description: string;
  specDescription: string;
  columns: PrinterColumn[];
}

function defineCrd(source: CrdSource): CustomResourceDefinition {
  const spec = (source.document as SchemaNode).properties?.['spec'];
  if (!spec) throw new Error(`the ${source.kind} document schema has no spec`);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${source.plural}.${CRD_GROUP}`, labels: { 'app.kubernetes.io/name': 'kurel', 'app.kubernetes.io/part-of': 'kurel' } },
    spec: {
      group: CRD_GROUP,
      scope: source.scope,
      names: { kind: source.kind, listKind: `${source.kind}List`, plural: source.plural, singular: source.kind.toLowerCase(), categories: ['kurel'] },
      versions: [
        {
          name: CRD_VERSION,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: source.description,
              properties: {
                apiVersion: { type: 'string', description: `the API version: ${API_VERSION}` },
                kind: { type: 'string', description: `the kind: ${source.kind}` },
                // The API server owns metadata; the webhook checks metadata.name as kurel does.
                metadata: { type: 'object' },
                spec: { type: 'object', description: source.specDescription, ...withoutDescription(toStructural(spec)) },
              },
            },
          },
          additionalPrinterColumns: source.columns,
        },
      ],
    },
  };
}

/** The JSON Schema keywords TypeBox emits that the conversion reads. */
interface SchemaNode {
  type?: string;
  const?: string | number | boolean;
  enum?: (string | number | boolean)[];
  anyOf?: SchemaNode[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);
// The keyword table says which constraints a structural schema keeps.
const CONSTRAINTS = KEYWORDS.filter((k) => k.crd).map((k) => k.name);

/** A document schema (TypeBox) as a structural schema: every node typed or explicitly open, every object keeping unknown fields. */
export function structuralSchemaOf(schema: TSchema): StructuralSchema {
  return toStructural(schema as SchemaNode);
}

/**
 * One document schema node as a structural schema (every node typed, or explicitly open).
 * Every object keeps its declared properties and also preserves unknown fields: a closed
 * object of kurel's is closed by the webhook, which names the mistyped key, never by the API
 * server pruning it first. Maps whose values kurel cannot describe in general (renderings,
 * property declarations) stay open. Key patterns (`propertyNames`) and kurel's message
 * annotations have no place in a CRD schema and are left to the webhook.
 */
function toStructural(node: SchemaNode): StructuralSchema {
  const described = node.description === undefined ? {} : { description: node.description };
  if (node.anyOf) return unionToStructural(node.anyOf, described);
  if (node.const !== undefined) return { type: typeOfValue(node.const), ...described, enum: [node.const] };
  if (node.type === 'object') return objectToStructural(node, described);
  if (node.type === 'array') {
    return {
      type: 'array',
      ...described,
      items: node.items ? toStructural(node.items) : { 'x-kubernetes-preserve-unknown-fields': true },
      ...constraintsOf(node),
    };
  }
  if (node.type !== undefined && SCALAR_TYPES.has(node.type)) {
    return { type: node.type as StructuralSchema['type'], ...described, ...(node.enum ? { enum: [...node.enum] } : {}), ...constraintsOf(node) };
  }
  // Any value at all (TypeBox's Unknown).
  return { ...described, 'x-kubernetes-preserve-unknown-fields': true };
}

function objectToStructural(node: SchemaNode, described: { description?: string }): StructuralSchema {
  const properties = Object.entries(node.properties ?? {});
  const open = node.additionalProperties;
  if (properties.length === 0 && typeof open === 'object') {
    return { type: 'object', ...described, additionalProperties: toStructural(open) };
  }
  const result: StructuralSchema = { type: 'object', ...described };
  if (properties.length > 0) result.properties = Object.fromEntries(properties.map(([key, value]) => [key, toStructural(value)]));
  if (node.required && node.required.length > 0) result.required = [...node.required];
  result['x-kubernetes-preserve-unknown-fields'] = true;
  return result;
}

function unionToStructural(members: readonly SchemaNode[], described: { description?: string }): StructuralSchema {
  const present = members.filter((m) => m.type !== 'null');
  const nullable = present.length < members.length ? { nullable: true as const } : {};
  if (present.length === 1) return { ...toStructural(present[0]!), ...described, ...nullable };
  const constants = present.map((m) => m.const);
  if (present.length > 0 && constants.every((c) => c !== undefined)) {
    const types = new Set(constants.map((c) => typeOfValue(c!)));
    if (types.size === 1) return { type: [...types][0]!, ...described, ...nullable, enum: constants as (string | number | boolean)[] };
  }
  // Branches of different shapes: a structural schema has one shape per field, so the field
  // stays open and the webhook picks the branch.
  return { ...described, ...nullable, 'x-kubernetes-preserve-unknown-fields': true };
}

function withoutDescription(schema: StructuralSchema): StructuralSchema {
  const { description: _description, ...rest } = schema;
  return rest;
}

function constraintsOf(node: SchemaNode): Partial<StructuralSchema> {
  const result: Partial<StructuralSchema> = {};
  for (const key of CONSTRAINTS) {
    const value = (node as Record<string, unknown>)[key];
    if (value !== undefined) (result as Record<string, unknown>)[key] = value;
  }
  return result;
}

function typeOfValue(value: string | number | boolean): 'string' | 'integer' | 'number' | 'boolean' {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return Number.isInteger(value) ? 'integer' : 'number';
}
