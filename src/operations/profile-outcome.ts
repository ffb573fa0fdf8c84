import type { BindingVersion } from './evaluate-profile.js';

/** How one profile of a lint run resolved its versions. */
export interface ProfileOutcome {
  file: string;
  /** Every binding of a versioned definition, in the profile's order. */
  bindings: BindingVersion[];
  /** True when the profile has no error. */
  clean: boolean;
}
