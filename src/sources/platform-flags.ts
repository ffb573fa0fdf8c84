import type { PlatformOptions } from '../operations/platform.js';
import { layerPlatforms, type Platform, parsePlatformSettings } from '../schema/platform-version.js';

/** The platform the `--platform` flags give (each already checked as the command line was parsed). */
export function platformOfFlags(flags: readonly string[] | undefined): Platform {
  const read = parsePlatformSettings(flags ?? []);
  return read.ok ? read.platform : {};
}

/**
 * A command's platform options (docs/platform.md): `repositoryDefault` is the repository's
 * default for components a profile does not name (the config file's `platform`), and the
 * `--platform` flags win over every profile's own versions.
 */
export function platformOptions(flags: readonly string[] | undefined, repositoryDefault?: Platform): PlatformOptions {
  return { repositoryDefault, overrides: platformOfFlags(flags) };
}

/** The platform a published schema is narrowed to: the repository default under the `--platform` flags. */
export function narrowingPlatform(flags: readonly string[] | undefined, repositoryDefault?: Platform): Platform {
  return layerPlatforms(repositoryDefault, platformOfFlags(flags));
}
