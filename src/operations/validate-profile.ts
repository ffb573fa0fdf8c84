import type { Catalogue } from '../catalogue/catalogue.js';
import { type Diagnostic, hasErrors } from '../core/diagnostics.js';
import type { InputFile } from '../core/input.js';
import { findSurelyTooDeepJson, isYamlFaithfulJson } from '../yaml/json-fidelity.js';
import { tooDeepDiagnostic } from '../yaml/source.js';
import { evaluateProfile, type ResolvedProfile } from './evaluate-profile.js';
import { type LintOptions, lintInputs } from './lint.js';

/** The verdict on one ClusterProfile, as the HTTP service answers it. */
export interface ProfileVerdict {
  /** True when no diagnostic is an error. */
  valid: boolean;
  diagnostics: Diagnostic[];
  /** The profile with defaults applied; null when it has errors. */
  resolved: ResolvedProfile | null;
}

/** One profile text and the definition files that apply to it alone. */
export interface ProfileSources {
  profile: { file: string; content: string | Uint8Array };
  /** Definition texts sent along with the profile (their `origin` is taken as `definition`). */
  definitions?: readonly InputFile[];
}

/**
 * Validates one ClusterProfile text (YAML, or JSON read as YAML 1.2) with the definitions sent
 * along, which replace the catalogue's versions of their names for this validation only. A
 * document of another kind (a CapabilityDefinition too) is an `invalid-value` on `kind`.
 */
export function validateProfile(sources: ProfileSources, catalogue: Catalogue, options: LintOptions = {}): ProfileVerdict {
  const inputs: InputFile[] = [
    { file: sources.profile.file, content: sources.profile.content, origin: 'profile' },
    ...(sources.definitions ?? []).map((d): InputFile => ({ file: d.file, content: d.content, origin: 'definition' })),
  ];
  const { diagnostics, files } = lintInputs(inputs, catalogue, options);
  const valid = !hasErrors(diagnostics);
  return { valid, diagnostics, resolved: (valid && files[0]?.resolved) || null };
}

/**
 * Validates a profile decoded from JSON (`data` is `JSON.parse(text)`) without the YAML parse
 * when it can: a clean profile is judged from the data alone, and one nested far beyond the
 * depth limit is refused where the YAML reader would refuse it. Anything else with a
 * diagnostic, or data the YAML reader would read differently, goes through
 * {@link validateProfile} on the text, so verdicts and positions are always those of the YAML
 * path.
 */
export function validateJsonProfile(file: string, text: string, data: unknown, catalogue: Catalogue, options: LintOptions = {}): ProfileVerdict {
  if (isYamlFaithfulJson(text, data)) {
    const evaluation = evaluateProfile(data, catalogue, options.strictCapabilities ? 'error' : 'warning', {
      platform: options.platform,
      requirePinned: options.requirePinned === true,
    });
    if (evaluation.issues.length === 0 && evaluation.resolved) return { valid: true, diagnostics: [], resolved: evaluation.resolved };
  } else {
    // Faithful data nests within the limit; other data may nest too deep to hand to the YAML reader.
    const surelyTooDeep = findSurelyTooDeepJson(text);
    if (surelyTooDeep !== undefined) return { valid: false, diagnostics: [tooDeepDiagnostic(file, text, surelyTooDeep)], resolved: null };
  }
  return validateProfile({ profile: { file, content: text } }, catalogue, options);
}
