import { semver } from '../core/versions.js';

/** The SemVer version a tag names (a leading `v` allowed), or undefined for any other tag. */
export function versionOfTag(tag: string): string | undefined {
  const bare = tag.startsWith('v') ? tag.slice(1) : tag;
  return bare.length <= 256 && semver().valid(bare) === bare ? bare : undefined;
}

/**
 * The tag a range resolves to among a repository's tags, as Helm and Flux resolve a chart's
 * version (docs/registries.md): only tags that are SemVer versions count; the highest match
 * wins; prereleases only when the range names one; no range means the highest release. Among
 * tags of one version (`1.2.0`, `v1.2.0`) the one without `v` wins. Undefined when none matches.
 */
export function resolveTagRange(tags: readonly string[], range: string | null): string | undefined {
  const lib = semver();
  const withPrerelease = range !== null && /-[0-9A-Za-z]/.test(range.replace(/\s+-\s+/g, ' '));
  let best: { tag: string; version: string } | undefined;
  for (const tag of tags) {
    const version = versionOfTag(tag);
    if (version === undefined) continue;
    const isPrerelease = lib.prerelease(version) !== null;
    if (range === null ? isPrerelease : !lib.satisfies(version, range, { includePrerelease: withPrerelease })) continue;
    if (isPrerelease && !withPrerelease) continue;
    const order = best === undefined ? 1 : lib.compare(version, best.version);
    if (order > 0 || (order === 0 && best !== undefined && !tag.startsWith('v') && best.tag.startsWith('v'))) best = { tag, version };
  }
  return best?.tag;
}
