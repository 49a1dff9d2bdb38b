import type { McpUiResourceCsp, McpUiResourcePermissions } from '@modelcontextprotocol/ext-apps/app-bridge';
import { appBridgeLibrary } from '../lazyLibraries';

/**
 * The policy an app runs under, from its resource's `_meta.ui.csp` and `_meta.ui.permissions`:
 * the Content-Security-Policy header of its sandbox, the inner frame's `allow` attribute, and
 * what the server declared that the host refused (logged, never applied).
 */
export interface AppSandboxPolicy {
  readonly csp: string;
  readonly allow: string;
  /** The declared permissions the `allow` attribute grants. */
  readonly permissions: McpUiResourcePermissions;
  /** The declared domains that were applied, by field (what the host tells the app it approved). */
  readonly approved: McpUiResourceCsp;
  /** Declared entries that are not a source the host can apply safely, with the field they came from. */
  readonly refused: readonly string[];
}

/**
 * Scripts and workers the app makes from its own text (`blob:` and `data:` URLs, as PDF.js does
 * for its worker): they reach no origin, and add nothing to what `'unsafe-inline'`, which the
 * specification grants every app, already lets its page run. No domain is added.
 */
const OWN_SCRIPTS = 'blob: data:';

/** The specification's default when ui.csp is omitted, with the app's own scripts and workers. */
export const DEFAULT_APP_CSP = [
  "default-src 'none'",
  `script-src 'self' 'unsafe-inline' ${OWN_SCRIPTS}`,
  `worker-src 'self' ${OWN_SCRIPTS}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
].join('; ');

const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
/** At most this many domains per field: a policy stays a readable header. */
const MAX_DOMAINS = 64;
/**
 * An origin (scheme, host with an optional leading `*.`, optional port) with an optional path:
 * nothing that could close the directive (`;`, `,`, spaces) or add a keyword (`'unsafe-eval'`, `*`).
 */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[A-Za-z0-9._~%!$&()*+=:@/-]*)?$/i;

export function appSandboxPolicy(csp: unknown, permissions: unknown): AppSandboxPolicy {
  const refused: string[] = [];
  const declared = (typeof csp === 'object' && csp !== null && !Array.isArray(csp) ? csp : undefined) as
    Record<string, unknown> | undefined;
  if (csp !== undefined && !declared) refused.push(`csp: ${JSON.stringify(csp)} is not an object`);
  const approved: Record<string, string[]> = {};
  for (const field of CSP_FIELDS) {
    const list = declared?.[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      refused.push(`${field}: ${JSON.stringify(list)} is not a list`);
      continue;
    }
    approved[field] = [];
    for (const entry of list) {
      if (typeof entry === 'string' && SOURCE.test(entry) && approved[field].length < MAX_DOMAINS)
        approved[field].push(entry);
      else refused.push(`${field}: ${JSON.stringify(entry)}`);
    }
  }
  const granted = permissionsOf(permissions);
  const allow = appBridgeLibrary().buildAllowAttribute(granted);
  if (!declared) return { csp: DEFAULT_APP_CSP, allow, permissions: granted, approved: {}, refused };
  const join = (field: (typeof CSP_FIELDS)[number]) => (approved[field] ?? []).map((d) => ` ${d}`).join('');
  const resources = join('resourceDomains');
  // The specification's construction from the declared domains, directive by directive (and workers as scripts).
  const policy = [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${OWN_SCRIPTS}${resources}`,
    `worker-src 'self' ${OWN_SCRIPTS}${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `connect-src 'self'${join('connectDomains')}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `frame-src${join('frameDomains') || " 'none'"}`,
    "object-src 'none'",
    `base-uri${join('baseUriDomains') || " 'self'"}`,
  ].join('; ');
  return { csp: policy, allow, permissions: granted, approved, refused };
}

/** Only the four features the specification names, and only when declared as objects. */
function permissionsOf(permissions: unknown): McpUiResourcePermissions {
  if (typeof permissions !== 'object' || permissions === null) return {};
  const declared = permissions as Record<string, unknown>;
  const chosen: Record<string, object> = {};
  for (const name of ['camera', 'microphone', 'geolocation', 'clipboardWrite']) {
    if (typeof declared[name] === 'object' && declared[name] !== null) chosen[name] = {};
  }
  return chosen as McpUiResourcePermissions;
}
