import * as tls from 'node:tls';
import type { NetworkSettings } from './networkFetch';

/** The editor's `http.*` settings, as VS Code names them. */
export interface EditorHttpSettings {
  readonly proxy?: string;
  readonly proxyStrictSSL?: boolean;
  readonly noProxy?: readonly string[];
  readonly proxyAuthorization?: string | null;
  readonly systemCertificates?: boolean;
}

/** Where Linux distributions and macOS keep the system's trusted certificates as one PEM bundle. */
export const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

/**
 * What the host's HTTP requests use: the editor's proxy, else `HTTPS_PROXY`/`HTTP_PROXY` (and
 * `NO_PROXY`) from the environment; certificate checks per `http.proxyStrictSSL`; trusted
 * certificates from the system store (`http.systemCertificates`) and `NODE_EXTRA_CA_CERTS`.
 */
export function networkSettingsFrom(
  http: EditorHttpSettings,
  env: Readonly<Record<string, string | undefined>>,
  readFile: (file: string) => string | undefined,
): NetworkSettings {
  const fromEnv = (name: string) => env[name] || env[name.toLowerCase()] || undefined;
  const proxy = http.proxy?.trim() || fromEnv('HTTPS_PROXY') || fromEnv('HTTP_PROXY') || fromEnv('ALL_PROXY');
  const noProxy = http.noProxy?.length
    ? [...http.noProxy]
    : (fromEnv('NO_PROXY') ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
  const extraCertificates: string[] = [];
  if (http.systemCertificates !== false) extraCertificates.push(...systemCertificates(readFile));
  const extraFile = env.NODE_EXTRA_CA_CERTS;
  const extra = extraFile ? readFile(extraFile) : undefined;
  if (extra) extraCertificates.push(extra);
  return {
    proxy,
    proxyAuthorization: http.proxyAuthorization || undefined,
    noProxy,
    strictSSL: http.proxyStrictSSL !== false,
    extraCertificates,
  };
}

/** The system store: Node's own reader where it has one (22.15+), else the distribution's bundle file. */
function systemCertificates(readFile: (file: string) => string | undefined): string[] {
  const fromNode = (tls as { getCACertificates?: (kind: string) => string[] }).getCACertificates;
  if (fromNode) return fromNode('system');
  for (const file of SYSTEM_BUNDLES) {
    const bundle = readFile(file);
    if (bundle) return [bundle];
  }
  return [];
}
