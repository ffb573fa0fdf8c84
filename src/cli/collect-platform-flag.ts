import { InvalidArgumentError } from 'commander';
import { parsePlatformSettings } from '../schema/platform-version.js';

/**
 * Collects one `--platform COMPONENT=VERSION` into the list of those given so far; a malformed
 * one, or a component given twice, is a usage error naming it (exit 2).
 */
export function collectPlatformFlag(value: string, previous: string[]): string[] {
  const all = [...previous, value];
  const read = parsePlatformSettings(all);
  if (!read.ok) throw new InvalidArgumentError(read.message);
  return all;
}
