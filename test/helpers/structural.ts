/** A JSON Schema node of a CRD, as read from YAML or JSON. */
type Node = Record<string, unknown>;

const JUNCTORS = ['allOf', 'anyOf', 'oneOf', 'not'] as const;

/**
 * The ways `schema` breaks Kubernetes' rules for a structural schema (a CRD's
 * `openAPIV3Schema`): every node typed unless it preserves unknown fields or is int-or-string,
 * no logical junctors (kurel never needs them), `properties` and `additionalProperties` never
 * together, `additionalProperties` never `false`, and `metadata` restricted only by type.
 * Each problem is `<path>: <rule>`; an empty list means the schema is structural.
 */
export function structuralProblems(schema: Node): string[] {
  const problems: string[] = [];
  const visit = (node: Node, path: string) => {
    const open = node['x-kubernetes-preserve-unknown-fields'] === true || node['x-kubernetes-int-or-string'] === true;
    if (typeof node['type'] !== 'string' && !open) problems.push(`${path}: no type`);
    if ('x-kubernetes-preserve-unknown-fields' in node && node['x-kubernetes-preserve-unknown-fields'] !== true)
      problems.push(`${path}: x-kubernetes-preserve-unknown-fields is not true`);
    for (const junctor of JUNCTORS) if (junctor in node) problems.push(`${path}: uses ${junctor}`);
    const properties = node['properties'] as Record<string, Node> | undefined;
    const additional = node['additionalProperties'];
    if (properties !== undefined && additional !== undefined) problems.push(`${path}: properties and additionalProperties together`);
    if (additional === false) problems.push(`${path}: additionalProperties is false`);
    for (const [key, child] of Object.entries(properties ?? {})) visit(child, `${path}.${key}`);
    if (typeof additional === 'object' && additional !== null) visit(additional as Node, `${path}[*]`);
    if (node['items'] !== undefined) visit(node['items'] as Node, `${path}[]`);
  };
  visit(schema, '');
  const metadata = (schema['properties'] as Record<string, Node> | undefined)?.['metadata'];
  if (metadata && Object.keys(metadata).some((key) => key !== 'type')) problems.push('.metadata: restricts more than its type');
  return problems;
}
