import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Credentials } from './credentials.js';
import { findCredentials } from './credentials.js';
import { RegistryFailure } from './failure.js';

/** How a client reaches a registry. */
export interface ClientOptions {
  /** Hosts (`HOST` or `HOST:PORT`) that may be reached over plain HTTP; loopback hosts always may. */
  readonly insecureRegistries?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Connect and read timeout; 30 s unless `KUREL_REGISTRY_TIMEOUT_MS` says otherwise (docs/registries.md). */
  readonly timeoutMs?: number;
}

/** An answer read whole, within the limit asked for. */
export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

interface RequestSpec {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT';
  /** A path under the registry (`/v2/…`) or an absolute URL a registry handed out. */
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  /** The largest body read; a larger one is `artifact-invalid` with `what` in its message. */
  readonly maxBytes: number;
  readonly what: string;
  /** Called with the bytes received so far, for progress. */
  readonly onBytes?: (received: number, total: number | undefined) => void;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const MAX_TOKEN_BYTES = 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;
const TLS_MISMATCH = /wrong version number|packet length too long|unknown protocol|EPROTO|ECONNRESET|http request/i;

/** True for `localhost`, `127.0.0.0/8` and `::1`, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1';
}

function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

/**
 * A client of one repository of the OCI distribution API (docs/registries.md, "Network"):
 * HTTPS, plain HTTP only for loopback and insecure hosts (tried after HTTPS fails to
 * handshake), redirects followed without `Authorization` when the host changes, the Bearer and
 * Basic challenges answered with the credentials found for the host, bodies read within limits.
 * Every failure is a {@link RegistryFailure} naming `reference`; none holds a secret.
 */
export class RegistryClient {
  private scheme: 'https' | 'http' | undefined;
  private authorization: string | undefined;
  private credentials: Credentials | undefined | null = null;
  private readonly timeoutMs: number;

  constructor(
    readonly registry: string,
    readonly repository: string,
    private readonly reference: string,
    private readonly options: ClientOptions,
    private readonly actions: 'pull' | 'pull,push' = 'pull',
  ) {
    const fromEnv = Number(options.env.KUREL_REGISTRY_TIMEOUT_MS);
    this.timeoutMs = options.timeoutMs ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_TIMEOUT_MS);
  }

  /** The API host: Docker Hub's names lead to its registry host. */
  private get apiHost(): string {
    return this.registry === 'docker.io' ? 'registry-1.docker.io' : this.registry;
  }

  private mayUseHttp(host: string): boolean {
    return isLoopbackHost(host) || (this.options.insecureRegistries ?? []).includes(host) || (this.options.insecureRegistries ?? []).includes(hostName(host));
  }

  /** Sends a request, answering one authentication challenge; a 401 or 403 after it is `registry-auth`. */
  async send(spec: RequestSpec): Promise<Answer> {
    let answer = await this.sendFollowing(spec, this.authorization);
    if (answer.status === 401) {
      this.authorization = await this.answerChallenge(answer.headers['www-authenticate']);
      answer = await this.sendFollowing(spec, this.authorization);
    }
    if (answer.status === 401 || answer.status === 403) {
      throw new RegistryFailure(
        'registry-auth',
        `${this.reference}: the registry ${this.registry} refused the credentials for ${this.repository} (HTTP ${answer.status})`,
      );
    }
    return answer;
  }

  private async sendFollowing(spec: RequestSpec, authorization: string | undefined): Promise<Answer> {
    let url = await this.urlOf(spec.target);
    let method = spec.method;
    let body = spec.body;
    let auth = authorization;
    for (let hop = 0; ; hop++) {
      const answer = await this.exchange(url, method, spec, body, auth);
      const location = answer.headers.location;
      if (![301, 302, 303, 307, 308].includes(answer.status) || location === undefined) return answer;
      if (hop === MAX_REDIRECTS)
        throw new RegistryFailure('registry-unreachable', `${this.reference}: more than ${MAX_REDIRECTS} redirects from ${this.registry}`);
      const next = new URL(location, url);
      if (next.protocol !== 'https:' && !(next.protocol === 'http:' && this.mayUseHttp(next.host))) {
        throw new RegistryFailure(
          'registry-unreachable',
          `${this.reference}: ${this.registry} redirected to ${next.protocol}//${next.host}, which is neither HTTPS nor an insecure registry`,
        );
      }
      // Credentials are the registry's: object storage on another host never sees them.
      if (next.host !== url.host) auth = undefined;
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  }

  private async urlOf(target: string): Promise<URL> {
    if (/^https?:\/\//.test(target)) {
      const url = new URL(target);
      if (url.protocol === 'http:' && !this.mayUseHttp(url.host)) {
        throw new RegistryFailure(
          'registry-unreachable',
          `${this.reference}: ${this.registry} handed out ${url.host} over plain HTTP, which is not an insecure registry`,
        );
      }
      return url;
    }
    this.scheme ??= await this.probeScheme();
    return new URL(`${this.scheme}://${this.apiHost}${target}`);
  }

  /** HTTPS, or plain HTTP for a loopback or insecure host whose port does not speak TLS. */
  private async probeScheme(): Promise<'https' | 'http'> {
    try {
      await this.exchange(
        new URL(`https://${this.apiHost}/v2/`),
        'GET',
        { method: 'GET', target: '/v2/', maxBytes: MAX_ERROR_BYTES, what: 'the API root' },
        undefined,
        undefined,
      );
      return 'https';
    } catch (err) {
      const speaksHttp = err instanceof RegistryFailure && TLS_MISMATCH.test(describeCause((err as { cause?: unknown }).cause));
      if (speaksHttp && this.mayUseHttp(this.apiHost)) return 'http';
      if (speaksHttp) {
        throw new RegistryFailure(
          'registry-unreachable',
          `${this.reference}: ${this.apiHost} does not answer HTTPS; a registry on plain HTTP must be named with --insecure-registry ${this.apiHost} or in .kurel.yaml insecureRegistries`,
        );
      }
      throw err;
    }
  }

  private exchange(url: URL, method: string, spec: RequestSpec, body: Uint8Array | undefined, authorization: string | undefined): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'User-Agent': 'kurel', ...spec.headers };
      if (authorization !== undefined) headers.Authorization = authorization;
      if (body !== undefined) headers['Content-Length'] = String(body.length);
      else if (method === 'PUT' || method === 'POST') headers['Content-Length'] = '0';
      const fail = (code: 'registry-unreachable' | 'artifact-invalid', message: string, cause?: unknown): void => {
        request.destroy();
        reject(Object.assign(new RegistryFailure(code, `${this.reference}: ${message}`), { cause }));
      };
      const onAnswer = (response: IncomingMessage): void => {
        const status = response.statusCode ?? 0;
        // Bodies of redirects and errors are read only as far as a short message goes.
        const limit = status >= 200 && status < 300 ? spec.maxBytes : MAX_ERROR_BYTES;
        if (method === 'HEAD') {
          response.resume();
          response.on('end', () => resolve({ status, headers: response.headers, body: Buffer.alloc(0) }));
          return;
        }
        const declared = Number(response.headers['content-length']);
        const total = Number.isFinite(declared) ? declared : undefined;
        if (total !== undefined && total > limit && limit === spec.maxBytes) {
          fail('artifact-invalid', `${spec.what} is ${total} bytes, more than the ${limit} allowed`);
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > limit) {
            if (limit === spec.maxBytes) fail('artifact-invalid', `${spec.what} is more than the ${limit} bytes allowed`);
            else response.destroy();
            return;
          }
          chunks.push(chunk);
          spec.onBytes?.(received, total);
        });
        response.on('error', (err) => fail('registry-unreachable', `the answer of ${url.host} broke off (${describeError(err)})`, err));
        response.on('end', () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('close', () => {
          if (!response.complete && received <= limit) {
            fail('registry-unreachable', `the answer of ${url.host} broke off`);
            return;
          }
          resolve({ status, headers: response.headers, body: Buffer.concat(chunks) });
        });
      };
      const options = { method, headers, agent: false as const, timeout: this.timeoutMs };
      // No agent of kurel's own: the default CAs, NODE_EXTRA_CA_CERTS among them, verify HTTPS.
      const request = url.protocol === 'https:' ? httpsRequest(url, options, onAnswer) : httpRequest(url, options, onAnswer);
      request.on('timeout', () => fail('registry-unreachable', `${url.host} did not answer within ${this.timeoutMs / 1000} s`));
      request.on('error', (err) => fail('registry-unreachable', `cannot reach ${url.host} (${describeError(err)})`, err));
      request.end(body);
    });
  }

  /** The `Authorization` header answering a `WWW-Authenticate` challenge (Bearer or Basic). */
  private async answerChallenge(header: string | undefined): Promise<string> {
    const challenge = parseChallenge(header);
    if (challenge === undefined) {
      throw new RegistryFailure('registry-auth', `${this.reference}: ${this.registry} asked for authentication without a Bearer or Basic challenge`);
    }
    const credentials = await this.findCredentials();
    if (challenge.scheme === 'basic') {
      if (credentials?.kind !== 'basic') throw this.noCredentials(credentials === undefined ? 'no credentials were found' : 'only an identity token was found');
      return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    }
    const realm = challenge.params.realm;
    if (realm === undefined) throw new RegistryFailure('registry-auth', `${this.reference}: ${this.registry}'s Bearer challenge names no realm`);
    const tokenUrl = new URL(realm);
    if (tokenUrl.protocol !== 'https:' && !(tokenUrl.protocol === 'http:' && this.mayUseHttp(tokenUrl.host))) {
      throw new RegistryFailure('registry-auth', `${this.reference}: the token endpoint ${tokenUrl.host} is neither HTTPS nor an insecure registry`);
    }
    const scope = challenge.params.scope ?? `repository:${this.repository}:${this.actions}`;
    const service = challenge.params.service;
    const spec: RequestSpec = { method: 'GET', target: tokenUrl.href, maxBytes: MAX_TOKEN_BYTES, what: 'the token answer' };
    let answer: Answer;
    if (credentials?.kind === 'identity-token') {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: credentials.token,
        client_id: 'kurel',
        scope,
        ...(service ? { service } : {}),
      });
      answer = await this.sendFollowing(
        { ...spec, method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(form.toString()) },
        undefined,
      );
    } else {
      tokenUrl.searchParams.set('scope', scope);
      if (service !== undefined) tokenUrl.searchParams.set('service', service);
      const basic = credentials?.kind === 'basic' ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` : undefined;
      answer = await this.sendFollowing({ ...spec, target: tokenUrl.href }, basic);
    }
    if (answer.status === 401 || answer.status === 403)
      throw this.noCredentials(credentials === undefined ? 'no credentials were found' : 'the token endpoint refused them');
    if (answer.status !== 200)
      throw new RegistryFailure('registry-auth', `${this.reference}: the token endpoint ${tokenUrl.host} answered HTTP ${answer.status}`);
    let token: unknown;
    try {
      const data = JSON.parse(answer.body.toString('utf8')) as { token?: unknown; access_token?: unknown };
      token = data.token ?? data.access_token;
    } catch {
      token = undefined;
    }
    if (typeof token !== 'string' || token === '' || /[\r\n]/.test(token)) {
      throw new RegistryFailure('registry-auth', `${this.reference}: the token endpoint ${tokenUrl.host} answered no token`);
    }
    return `Bearer ${token}`;
  }

  private async findCredentials(): Promise<Credentials | undefined> {
    if (this.credentials !== null) return this.credentials;
    const found = await findCredentials(this.registry, this.options.env);
    if (found !== undefined && 'problem' in found) throw new RegistryFailure('registry-auth', `${this.reference}: ${found.problem}`);
    this.credentials = found;
    return found;
  }

  private noCredentials(why: string): RegistryFailure {
    return new RegistryFailure(
      'registry-auth',
      `${this.reference}: ${this.registry} asks for credentials and ${why} (docker's config.json, or KUREL_REGISTRY_USERNAME and KUREL_REGISTRY_PASSWORD)`,
    );
  }
}

function describeCause(err: unknown): string {
  if (err === undefined) return '';
  return `${(err as NodeJS.ErrnoException).code ?? ''} ${err instanceof Error ? err.message : String(err)}`;
}

function describeError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code ?? (err instanceof Error ? err.message : String(err));
}

/** A `WWW-Authenticate` header's scheme and parameters (RFC 7235), or undefined for another scheme. */
export function parseChallenge(header: string | undefined): { scheme: 'bearer' | 'basic'; params: Record<string, string> } | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(Bearer|Basic)\b(.*)$/i.exec(header);
  if (match === null) return undefined;
  const params: Record<string, string> = {};
  for (const param of match[2]!.matchAll(/([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    params[param[1]!.toLowerCase()] = param[2] !== undefined ? param[2].replace(/\\(.)/g, '$1') : param[3]!;
  }
  return { scheme: match[1]!.toLowerCase() as 'bearer' | 'basic', params };
}
