import type { Handler } from '../src/schema/handler.js';
import { certificate } from './certificate.js';
import { ciliumNetworkpolicy } from './cilium-networkpolicy.js';
import { configmap } from './configmap.js';
import { expose } from './expose.js';
import { externalSecret } from './external-secret.js';
import { fluxcdPatches } from './fluxcd-patches.js';
import { fluxcdPostbuild } from './fluxcd-postbuild.js';
import { httproute } from './httproute.js';
import { ingress } from './ingress.js';
import { networkpolicy } from './networkpolicy.js';
import { pruneProtection } from './prune-protection.js';
import { pvc } from './pvc.js';
import { rbac } from './rbac.js';
import { scaler } from './scaler.js';
import { securityContext } from './security-context.js';
import { volsync } from './volsync.js';

/** Every built-in handler, sorted by type. */
export const BUILTIN_HANDLERS: readonly Handler[] = [
  certificate,
  ciliumNetworkpolicy,
  configmap,
  expose,
  externalSecret,
  fluxcdPatches,
  fluxcdPostbuild,
  httproute,
  ingress,
  networkpolicy,
  pruneProtection,
  pvc,
  rbac,
  scaler,
  securityContext,
  volsync,
];
