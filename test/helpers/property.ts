/** True in CI (`CI=true`, as CI services set it): property tests run their full count there. */
export const FULL_PROPERTY_RUNS = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';

// Locally a property runs a quarter of its runs (at least 10): a quick loop while editing; CI runs them all.
const LOCAL_SHARE = 4;
const LOCAL_MINIMUM = 10;

/** How many runs a property with `full` runs gets here: all of them in CI, a quarter (at least 10) locally. */
export function propertyRuns(full: number): number {
  if (FULL_PROPERTY_RUNS) return full;
  return Math.min(full, Math.max(LOCAL_MINIMUM, Math.ceil(full / LOCAL_SHARE)));
}
