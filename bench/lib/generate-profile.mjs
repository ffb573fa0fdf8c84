// Generates valid ClusterProfiles of a requested size: many capability bindings, scoped keys
// and realistic renderings of every built-in kind, so the bench exercises every schema path.

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
  (s) => `    ingress.${s}:
      rendering:
        annotations:
          nginx.ingress.kubernetes.io/proxy-body-size: 16m
          nginx.ingress.kubernetes.io/proxy-read-timeout: "120"
        tls: [{hosts: [${s}.example.com], secretName: ${s}-tls}]
    configmap.${s}:
`,
];

/**
 * A valid ClusterProfile of at least `bytes` bytes (a little over: it stops after the binding
 * that reaches the size).
 */
export function generateProfile(bytes) {
  const parts = [`apiVersion: launcher.gokure.dev/v1alpha1
kind: ClusterProfile
metadata:
  name: bench-${bytes}
spec:
  gitopsEngine: fluxcd
  capabilities:
    expose:
      rendering: {controllerType: ingress, ingressClassName: nginx}
`];
  let size = parts[0].length;
  for (let i = 0; size < bytes; i++) {
    const part = BINDINGS[i % BINDINGS.length](`team-${i}`);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}
