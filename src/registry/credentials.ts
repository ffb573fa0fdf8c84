import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What a registry is logged in with: a user and password, or an identity (refresh) token. */
export type Credentials =
  | { readonly kind: 'basic'; readonly username: string; readonly password: string }
  | { readonly kind: 'identity-token'; readonly username: string; readonly token: string };

/** Why credentials could not be found; never holds a secret. */
export interface CredentialsProblem {
  readonly problem: string;
}

interface DockerConfig {
  auths?: Record<string, { auth?: unknown; identitytoken?: unknown; username?: unknown; password?: unknown }>;
  credHelpers?: Record<string, unknown>;
  credsStore?: unknown;
}

const MAX_CONFIG_BYTES = 1024 * 1024;
const HELPER_TIMEOUT_MS = 30_000;
const MAX_HELPER_OUTPUT = 64 * 1024;
// Docker Hub's credentials live under its v1 index address.
const DOCKER_HUB_KEYS = ['https://index.docker.io/v1/', 'index.docker.io', 'docker.io', 'registry-1.docker.io'];

/**
 * The credentials for a registry host (docs/registries.md, "Credentials"): docker's
 * `config.json` (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`): `credHelpers`,
 * `auths` (`auth`, `identitytoken`), then `credsStore` through `docker-credential-NAME get`;
 * else `KUREL_REGISTRY_USERNAME` and `KUREL_REGISTRY_PASSWORD`. Undefined when there are none.
 */
export async function findCredentials(host: string, env: NodeJS.ProcessEnv): Promise<Credentials | CredentialsProblem | undefined> {
  const config = await readDockerConfig(env);
  if ('problem' in config) return config;
  const keys = host === 'docker.io' || host === 'registry-1.docker.io' ? DOCKER_HUB_KEYS : [host];
  const helper = keys.map((key) => config.credHelpers?.[key]).find((name) => typeof name === 'string');
  if (typeof helper === 'string') return runHelper(helper, keys[0]!, env);
  for (const [key, entry] of Object.entries(config.auths ?? {})) {
    if (!keys.includes(hostOfConfigKey(key)) || entry === null || typeof entry !== 'object') continue;
    const found = credentialsOfEntry(entry, key);
    if (found !== undefined) return found;
  }
  if (typeof config.credsStore === 'string' && config.credsStore !== '') {
    const stored = await runHelper(config.credsStore, keys[0]!, env);
    if (stored !== undefined) return stored;
  }
  const username = env.KUREL_REGISTRY_USERNAME;
  const password = env.KUREL_REGISTRY_PASSWORD;
  if (username !== undefined && username !== '' && password !== undefined) return { kind: 'basic', username, password };
  return undefined;
}

async function readDockerConfig(env: NodeJS.ProcessEnv): Promise<DockerConfig | CredentialsProblem> {
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  const path = env.DOCKER_CONFIG !== undefined && env.DOCKER_CONFIG !== '' ? join(env.DOCKER_CONFIG, 'config.json') : join(home, '.docker', 'config.json');
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_CONFIG_BYTES) return { problem: `${path} is larger than 1 MiB` };
    text = bytes.toString('utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    return { problem: `cannot read ${path}: ${code ?? 'unknown error'}` };
  }
  try {
    const data: unknown = JSON.parse(text);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return { problem: `${path} is not a JSON object` };
    return data as DockerConfig;
  } catch {
    // The parser's message may quote the file, and the file holds secrets.
    return { problem: `${path} is not valid JSON` };
  }
}

/** The host a key of `auths` names: `https://host/v1/` and `host` alike. */
function hostOfConfigKey(key: string): string {
  if (key === 'https://index.docker.io/v1/') return key;
  return key.replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, '');
}

function credentialsOfEntry(entry: NonNullable<DockerConfig['auths']>[string], key: string): Credentials | CredentialsProblem | undefined {
  let username = typeof entry.username === 'string' ? entry.username : '';
  let password = typeof entry.password === 'string' ? entry.password : undefined;
  if (typeof entry.auth === 'string' && entry.auth !== '') {
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { problem: `the auth of ${key} in the docker config is not base64 of user:password` };
    username = decoded.slice(0, colon);
    password = decoded.slice(colon + 1);
  }
  if (typeof entry.identitytoken === 'string' && entry.identitytoken !== '') return { kind: 'identity-token', username, token: entry.identitytoken };
  if (password !== undefined) return { kind: 'basic', username, password };
  return undefined;
}

/** Runs `docker-credential-NAME get` with the host on its input (docker's credential helper protocol). */
function runHelper(name: string, host: string, env: NodeJS.ProcessEnv): Promise<Credentials | CredentialsProblem | undefined> {
  const command = `docker-credential-${name}`;
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return Promise.resolve({ problem: `the credential helper name ${JSON.stringify(name)} is not a plain name` });
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const done = (value: Credentials | CredentialsProblem | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const child = spawn(command, ['get'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ problem: `${command} get did not answer within ${HELPER_TIMEOUT_MS / 1000} s` });
    }, HELPER_TIMEOUT_MS);
    child.on('error', (err) => done({ problem: `cannot run ${command}: ${(err as NodeJS.ErrnoException).code ?? 'unknown error'}` }));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.length > MAX_HELPER_OUTPUT) {
        child.kill('SIGKILL');
        done({ problem: `${command} get printed more than 64 KiB` });
      }
    });
    child.on('close', (status) => {
      // Helpers say "credentials not found" with a failing status: no credentials, not a failure.
      if (status !== 0) return done(undefined);
      try {
        const data = JSON.parse(output) as { Username?: unknown; Secret?: unknown };
        if (typeof data.Secret !== 'string') return done({ problem: `${command} get answered without a Secret` });
        const username = typeof data.Username === 'string' ? data.Username : '';
        done(username === '<token>' ? { kind: 'identity-token', username: '', token: data.Secret } : { kind: 'basic', username, password: data.Secret });
      } catch {
        done({ problem: `${command} get did not answer JSON` });
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(host);
  });
}
