import fc from 'fast-check';
import { propertyRuns } from '../helpers/property.js';

// Every property without a run count of its own: fast-check's 100 in CI, fewer locally (see test/helpers/property.ts).
fc.configureGlobal({ numRuns: propertyRuns(100) });
