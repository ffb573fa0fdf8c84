/**
 * Serialises data as JSON; integers beyond 2^53 (kept exact as bigint) are written as
 * plain JSON numbers with every digit.
 */
export function stringifyJson(value: unknown, indent = 2): string {
  let sawBigInt = false;
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') {
        sawBigInt = true;
        return `\u0000bigint:${v.toString()}`;
      }
      return v;
    },
    indent,
  );
  return sawBigInt ? text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1') : text;
}

/** Compact JSON as {@link stringifyJson} writes it: the native encoder, unless a bigint makes it throw. */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return stringifyJson(value, 0);
  }
}
