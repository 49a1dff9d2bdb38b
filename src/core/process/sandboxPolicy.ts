import { fileURLToPath } from 'node:url';
import type { ResolvedRoot, SandboxSettings } from '../config/serverDefinition';

/**
 * Folders under the home folder that toolchains and package caches live in: a sandboxed server
 * still reads them (node from nvm, packages npx or uvx fetched earlier); everything else under
 * home (keys, tokens, other projects) stays unreadable unless the settings allow it.
 */
export const HOME_TOOL_FOLDERS: readonly string[] = [
  '~/.npm',
  '~/.cache',
  '~/.local',
  '~/.nvm',
  '~/.volta',
  '~/.fnm',
  '~/.asdf',
  '~/.pyenv',
  '~/.cargo',
  '~/.rustup',
  '~/.bun',
  '~/.deno',
  '~/go',
  '~/.sdkman',
];

/** What one sandboxed server may read, write and reach: the settings laid over the defaults. */
export interface SandboxPolicy {
  readonly denyRead: readonly string[];
  readonly allowRead: readonly string[];
  readonly allowWrite: readonly string[];
  readonly denyWrite: readonly string[];
  /** Hosts reachable through the sandbox's proxy; nothing else is. */
  readonly allowedDomains: readonly string[];
}

/**
 * Defaults: reads everywhere but the home folder (the roots, the working folder and
 * {@link HOME_TOOL_FOLDERS} stay readable), writes only to the roots, no network.
 */
export function sandboxPolicy(
  settings: SandboxSettings,
  rootPaths: readonly string[],
  cwd: string | undefined,
): SandboxPolicy {
  const fs = settings.filesystem ?? {};
  const unique = (paths: readonly string[]) => [...new Set(paths)];
  return {
    denyRead: unique(['~', ...(fs.denyRead ?? [])]),
    allowRead: unique([...rootPaths, ...(cwd ? [cwd] : []), ...HOME_TOOL_FOLDERS, ...(fs.allowRead ?? [])]),
    allowWrite: unique([...rootPaths, ...(fs.allowWrite ?? [])]),
    denyWrite: unique(fs.denyWrite ?? []),
    allowedDomains: unique(settings.network?.allowedDomains ?? []),
  };
}

/** One line for the server's log: what the sandbox lets it do. */
export function describeSandboxPolicy(policy: SandboxPolicy): string {
  const list = (paths: readonly string[]) => (paths.length ? paths.join(', ') : 'nothing');
  const extraReads = policy.allowRead.filter((p) => !HOME_TOOL_FOLDERS.includes(p));
  return [
    `reads everything except ${list(policy.denyRead)} (but ${list(extraReads)} and the tool folders under home)`,
    `writes ${list(policy.allowWrite)}${policy.denyWrite.length ? ` except ${list(policy.denyWrite)}` : ''}`,
    `network ${policy.allowedDomains.length ? list(policy.allowedDomains) : 'none'}`,
  ].join('; ');
}

/** The file-system paths of a server's roots (roots that are not `file:` URIs have none). */
export function rootPaths(roots: readonly ResolvedRoot[]): string[] {
  return roots.filter((root) => root.uri.startsWith('file:')).map((root) => fileURLToPath(root.uri));
}

/**
 * What the view says a server's sandbox allows: the policy applied when it started while it runs
 * (roots that changed since do not widen it), else the one it would start with now.
 */
export function shownSandbox(
  applied: SandboxPolicy | undefined,
  def: { readonly sandbox?: SandboxSettings; readonly cwd?: string },
  roots: () => readonly string[],
): string | undefined {
  const policy = applied ?? (def.sandbox && sandboxPolicy(def.sandbox, roots(), def.cwd));
  return policy && describeSandboxPolicy(policy);
}
