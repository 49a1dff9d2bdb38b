import { domainToUnicode } from 'node:url';

/** What the consent dialog shows about a URL a server asks the user to open. */
export interface UrlInspection {
  /** The URL exactly as the server sent it. */
  readonly url: string;
  /** The host as it will be contacted (ASCII / punycode). */
  readonly host: string;
  /** The host as a person reads it, when it differs from `host` (internationalised names). */
  readonly unicodeHost?: string;
  readonly warnings: readonly string[];
  /** Why the URL cannot be opened at all (not http(s), not a URL). */
  readonly refusal?: string;
}

// Scripts that look alike in host names: a name mixing them is a classic spoofing trick.
const SCRIPTS: readonly [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Han', /\p{Script=Han}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
];

/**
 * Checks a URL before the user is asked to open it: only http(s); warnings for plain http, user
 * names or passwords in the URL, internationalised (punycode) hosts with both forms shown, mixed
 * scripts within one label, and raw IP addresses. Never fetches anything.
 */
export function inspectUrl(text: string): UrlInspection {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { url: text, host: '', warnings: [], refusal: 'it is not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return {
      url: text,
      host: url.host,
      warnings: [],
      refusal: `it uses ${url.protocol.replace(/:$/, '')}:, and only http and https links are opened`,
    };
  const warnings: string[] = [];
  const host = url.hostname;
  if (url.protocol === 'http:' && !isLoopback(host))
    warnings.push('It is not encrypted (http, not https): others on the network can read and change what you send.');
  if (url.username || url.password)
    warnings.push(
      `It carries a user name${url.password ? ' and password' : ''} before the host ("${decodeURIComponent(url.username)}@…"): the real destination is ${host}.`,
    );
  const unicode = domainToUnicode(host);
  const international = host.split('.').some((label) => label.startsWith('xn--'));
  if (international)
    warnings.push(
      `The host is an internationalised name: it reads "${unicode}" but is "${host}". Check it is the site you expect; look-alike letters are a common trick.`,
    );
  const mixed = unicode.split('.').find((label) => SCRIPTS.filter(([, re]) => re.test(label)).length > 1);
  if (mixed)
    warnings.push(
      `The host part "${mixed}" mixes letters from different alphabets (${SCRIPTS.filter(([, re]) => re.test(mixed))
        .map(([n]) => n)
        .join(', ')}).`,
    );
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[')) {
    if (!isLoopback(host)) warnings.push('The host is a bare IP address, not a name.');
  }
  return { url: text, host, unicodeHost: unicode !== host ? unicode : undefined, warnings };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
