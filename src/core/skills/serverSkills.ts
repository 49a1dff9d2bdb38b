import type { Client } from '@modelcontextprotocol/client';
import type { Skill, SkillFile, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { skillsLibrary } from '../lazyLibraries';

/** The Skills extension's identifier, which the host declares to every server. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The extension's own requests a client sends (its files are read with `resources/read`). */
export const SKILLS_REQUESTS: readonly string[] = ['skills/list', 'skills/get', 'resources/directory/read'];

/** A skill as the views and the model see it: from the server's `skills/list` entry, nothing fetched. */
export interface SkillSummary {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  /** The bytes of all its files, as the entry declares them. */
  readonly size: number;
  /** Why MCP Host refused it (an invalid entry, or a file that failed verification when loaded). */
  readonly refused?: string;
}

/** A loaded skill: its `SKILL.md`, verified against the server's entry. */
export interface LoadedSkill {
  readonly summary: SkillSummary;
  readonly body: string;
  /** The files the skill names besides `SKILL.md`, relative to its root, as the entry lists them. */
  readonly files: readonly string[];
}

/**
 * One server's skills (SEP-2640) through the client library's `SkillsClient`: listed at connect
 * (entries only: no skill file is read before someone loads the skill), loaded on demand, every
 * file verified (listed, size, digest; a `SKILL.md`'s frontmatter equal to its entry's) before
 * anything uses it. A skill that fails is refused and remembered with why.
 */
export class ServerSkills {
  private entries = new Map<string, Skill>();
  private readonly refused = new Map<string, string>();
  private client?: SkillsClient;
  /** What the server declared for the extension (its settings, such as `directoryRead`), when it declared it. */
  declared?: Readonly<Record<string, unknown>>;
  /** The summaries as last built: a snapshot (taken on every change of the server) reuses them. */
  private built?: readonly SkillSummary[];

  constructor(private readonly warn: (message: string) => void) {}

  /** Lists the server's skills when it offers the extension; an empty list otherwise. */
  async refresh(client: Client, timeoutMs: number): Promise<void> {
    this.clear();
    // A server that does not declare the extension costs nothing: the Skills client is not loaded.
    const declared = (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)
      ?.extensions?.[SKILLS_EXTENSION];
    if (!declared || typeof declared !== 'object') return;
    this.declared = declared as Record<string, unknown>;
    const skills = new (skillsLibrary().SkillsClient)(client, { skipInvalid: true });
    this.client = skills;
    if (!skills.supported) return;
    const listing = await skills.list(undefined, { timeout: timeoutMs });
    for (const entry of listing.skills) this.entries.set(entry.uri, entry);
    this.built = undefined;
    for (const invalid of listing.invalid) {
      const why = `its skills/list entry is invalid: ${invalid.reason}`;
      this.warn(`Skill ${invalid.uri ?? `#${invalid.index}`} refused: ${why}.`);
      if (invalid.uri) this.refused.set(invalid.uri, why);
    }
  }

  clear(): void {
    this.entries = new Map();
    this.refused.clear();
    this.client = undefined;
    this.declared = undefined;
    this.built = undefined;
  }

  get summaries(): readonly SkillSummary[] {
    if (this.built) return this.built;
    const listed = [...this.entries.values()].map((entry) => summaryOf(entry, this.refused.get(entry.uri)));
    const invalid = [...this.refused]
      .filter(([uri]) => !this.entries.has(uri))
      .map(([uri, why]) => ({ uri, name: nameOf(uri), size: 0, refused: why }));
    return (this.built = [...listed, ...invalid]);
  }

  /** Reads a skill's `SKILL.md` and verifies it; a failure refuses the skill, says why, and throws. */
  async load(uri: string, signal?: AbortSignal): Promise<LoadedSkill> {
    const entry = this.entryFor(uri);
    const file = await this.verified(entry, undefined, signal);
    const root = uri.replace(/SKILL\.md$/, '');
    const files = listedFiles(entry)
      .filter((u) => u !== entry.uri)
      .map((u) => (u.startsWith(root) ? u.slice(root.length) : u));
    return { summary: summaryOf(entry), body: file.body ?? file.text ?? '', files };
  }

  /** Reads one file a loaded skill names, verified; an unlisted file is refused before any request. */
  async readFile(uri: string, ref: string, signal?: AbortSignal): Promise<string> {
    const file = await this.verified(this.entryFor(uri), ref, signal);
    return file.text ?? new TextDecoder().decode(file.bytes);
  }

  private entryFor(uri: string): Skill {
    const refused = this.refused.get(uri);
    if (refused) throw new Error(`The skill ${uri} was refused: ${refused}.`);
    const entry = this.entries.get(uri);
    if (!entry || !this.client) throw new Error(`The server lists no skill ${uri}.`);
    return entry;
  }

  private async verified(entry: Skill, ref: string | undefined, signal?: AbortSignal): Promise<SkillFile> {
    try {
      return await this.client!.read(entry, ref, { signal });
    } catch (error) {
      const { SkillVerificationError } = skillsLibrary();
      if (!(error instanceof SkillVerificationError)) throw error;
      const why = `${ref ?? 'SKILL.md'} failed verification (${error.reason}${error.differences.length ? `: ${error.differences.join('; ')}` : ''})`;
      // A SKILL.md that fails refuses the skill; another file is refused alone.
      if (ref === undefined) {
        this.refused.set(entry.uri, why);
        this.built = undefined;
      }
      this.warn(`Skill ${entry.uri}: ${why}; MCP Host does not use it.`);
      throw new Error(`The skill ${entry.uri} was refused: ${why}.`, { cause: error });
    }
  }
}

function summaryOf(entry: Skill, refused?: string): SkillSummary {
  const frontmatter = entry.frontmatter as { name?: unknown; description?: unknown };
  return {
    uri: entry.uri,
    name: typeof frontmatter.name === 'string' ? frontmatter.name : nameOf(entry.uri),
    ...(typeof frontmatter.description === 'string' ? { description: frontmatter.description } : {}),
    size: entry.resources === 'dynamic' ? 0 : entry.resources.reduce((sum, r) => sum + r.size, 0),
    ...(refused ? { refused } : {}),
  };
}

function nameOf(uri: string): string {
  return /^skill:\/\/([^/]+)/.exec(uri)?.[1] ?? uri;
}

/** The files a skill's entry lists (a "dynamic" skill lists none: its files are found as it is read). */
function listedFiles(entry: Skill): string[] {
  return entry.resources === 'dynamic' ? [] : entry.resources.map((r) => r.uri);
}
