// Generates ClusterProfiles of a requested size: many capability bindings, scoped keys and
// realistic renderings of every built-in kind, so the bench exercises every schema path. Valid
// by default; with `mistakes`, every fourth binding group carries the mistakes people make (a
// misspelt key, a value of the wrong type, a value out of its set, a missing required key).

const BINDINGS = [
  (s) => `    expose.${s}:
      rendering:
        controllerType: ingress
        ingressClassName: nginx-${s}
        certManagerClusterIssuer: letsencrypt-prod
        allowedHostnameWildcard: "*.${s}.apps.example.com"
        sslRedirect: true
        forceSslRedirect: false
        authURL: https://auth.example.com/oauth2/${s}
        authSigninURL: https://auth.example.com/oauth2/start?rd=$escaped_request_uri
        networkPolicy:
          trafficSources:
          - namespace: ingress-nginx
            podSelector:
              matchLabels: {app.kubernetes.io/name: ingress-nginx, tier: edge}
          - namespace: monitoring
`,
  (s) => `    expose.${s}.internal:
      rendering: {controllerType: gateway, gatewayName: internal-${s}, gatewayNamespace: "", allowedHostnameWildcard: "*.internal.example.com"}
`,
  (s) => `    certificate.${s}:
      rendering:
        issuerRef:
          name: letsencrypt-${s}
`,
  (s) => `    external-secret.${s}:
      rendering:
        secretStoreRef: {name: vault-${s}, kind: ClusterSecretStore}
        refreshInterval: 1h30m
`,
  (s) => `    pvc.${s}:
      rendering:
        storageClassName: gp3-${s}
    volsync.${s}:
      rendering: {storageClassName: gp3, volumeSnapshotClassName: csi-snapshots}
`,
  // The pass-through built-ins take no rendering: one is an unvalidated-capability warning.
  (s) => `    ingress.${s}:
    configmap.${s}:
`,
];

// Each turns a binding group of BINDINGS into one with mistakes (each group has at least one).
const MISTAKES = [
  [/ingressClassName:/, 'ingresClassName:'],
  [/sslRedirect: true/, 'sslRedirect: "yes"'],
  [/controllerType: gateway/, 'controllerType: gatway'],
  [/issuerRef:\n {10}name: /, 'issuerRef:\n          kind: '],
  [/refreshInterval: 1h30m/, 'refreshInterval: [1h30m]'],
  [/storageClassName: gp3-/, 'storageClass: gp3-'],
];

/**
 * A ClusterProfile of at least `bytes` bytes (a little over: it stops after the binding that
 * reaches the size), valid unless `mistakes` is set; `name` is its metadata.name.
 */
export function generateProfile(bytes, { mistakes = false, name = `bench-${bytes}` } = {}) {
  const parts = [
    `apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: ${name}
spec:
  gitopsEngine: fluxcd
  capabilities:
    expose:
      rendering: {controllerType: ingress, ingressClassName: nginx}
`,
  ];
  let size = parts[0].length;
  for (let i = 0; size < bytes; i++) {
    let part = BINDINGS[i % BINDINGS.length](`team-${i}`);
    if (mistakes && Math.floor(i / BINDINGS.length) % 4 === 0) for (const [from, to] of MISTAKES) part = part.replace(from, to);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}
