/** What an element may be given as content: nodes, text, or nothing (skipped). */
export type Child = Node | string | number | null | undefined | false;

/** Attribute values: text, or a boolean for an attribute that is present or absent. */
export type Attributes = Record<string, string | number | boolean | null | undefined>;

/**
 * Creates an element with attributes and children. Never sets `style`: the page's CSP allows no
 * inline styles, so presentation stays in the stylesheet.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'style') throw new Error('inline styles are refused by the console CSP; use a class');
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends children to a node, skipping empty ones. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces every child of an element. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A unique id for labelling (aria-labelledby, label for). */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

let counter = 0;
