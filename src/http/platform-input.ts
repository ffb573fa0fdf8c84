import { isMap } from '../core/data.js';
import { type Platform, parsePlatformSetting, parsePlatformSettings } from '../schema/platform-version.js';
import { HttpProblem } from './problem.js';

/**
 * The platform of `?platform=COMPONENT=VERSION` (repeatable), as `--platform` takes it
 * (docs/service.md); absent: none. A malformed value is a 400 problem naming it.
 */
export function platformOfQuery(value: unknown): Platform | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v): v is string => typeof v === 'string')) {
    throw new HttpProblem(400, 'the platform query parameter must be COMPONENT=VERSION, such as platform=kubernetes=1.29');
  }
  const read = parsePlatformSettings(values);
  if (!read.ok) throw new HttpProblem(400, `the platform query parameter: ${read.message}`);
  return read.platform;
}

/**
 * The platform of an envelope's `platform` member, `{"kubernetes": "1.30"}` (docs/service.md): it
 * wins over the profile's `spec.platform`. Anything else is a 400 problem naming what is wrong.
 */
export function platformOfEnvelope(value: unknown): Platform {
  if (!isMap(value)) {
    throw new HttpProblem(400, `"platform" must be an object of component versions such as {"kubernetes": "1.30"}, found ${describe(value)}`);
  }
  const out: Record<string, string> = {};
  for (const component of Object.keys(value)) {
    const version = value[component];
    if (typeof version !== 'string') {
      throw new HttpProblem(400, `"platform" member ${JSON.stringify(component)} must be a version string such as "1.30", found ${describe(version)}`);
    }
    const setting = parsePlatformSetting(`${component}=${version}`);
    if (!setting.ok) throw new HttpProblem(400, `"platform": ${setting.message}`);
    out[component] = version;
  }
  return Object.freeze(out);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `a ${typeof value}`;
}
