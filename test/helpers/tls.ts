import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { writeVolume } from './volume.js';

/** A PEM certificate and its private key. */
export interface PemPair {
  cert: string;
  key: string;
}

/** Makes a self-signed EC P-256 pair for `localhost` and 127.0.0.1; give each pair of a test its own `commonName`, as a client trusting several tells them apart by it. */
export async function makePair(commonName = 'localhost'): Promise<PemPair> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Lays `pair` out as `tls.crt` and `tls.key` of a Secret volume, or swaps it in as the kubelet updates one. */
export function writeSecretVolume(dir: string, pair: PemPair): void {
  writeVolume(dir, { 'tls.crt': pair.cert, 'tls.key': pair.key });
}

/** One GET on a new connection trusting `ca`; resolves with the status, the body and the fingerprint of the certificate served. */
export function httpsGet(url: string, ca: readonly string[]): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca: [...ca], agent: false }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, fingerprint }));
    });
    req.on('error', reject);
    req.end();
  });
}
