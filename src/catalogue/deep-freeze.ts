const frozen = new WeakSet<object>();

/**
 * Freezes a value and every map and list reachable from it, so what a catalogue holds cannot
 * change after it entered (a schema changed in place would make the published schema and the
 * checker's compiled copy disagree). Functions are frozen but not walked: a handler's methods
 * are code, not data. Returns the value.
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if ((typeof next !== 'object' && typeof next !== 'function') || next === null || frozen.has(next)) continue;
    frozen.add(next);
    Object.freeze(next);
    if (typeof next === 'function') continue;
    for (const key of Reflect.ownKeys(next)) {
      const descriptor = Object.getOwnPropertyDescriptor(next, key);
      if (descriptor && 'value' in descriptor) pending.push(descriptor.value);
    }
  }
  return value;
}
