import type { ServerSnapshot } from '../connection/serverSnapshot';
import type { ModelTool } from '../models/modelMessages';
import type { LoadedSkill } from '../skills/serverSkills';

export const LOAD_SKILL_TOOL_NAME = 'mcp_load_skill';
/** Skills named to the model per request, at most (each a line of the introduction). */
const MAX_SKILLS = 100;
/** A loaded skill's text handed to the model, at most. */
const MAX_SKILL_TEXT = 60_000;

/** A skill the model may load: which server offers it, and how the model names it. */
export interface SkillOffer {
  readonly serverId: string;
  readonly uri: string;
  /** `server/name`: what the model passes to the tool. */
  readonly key: string;
  readonly description?: string;
}

/** The skills of the running servers the model may use (refused ones left out). */
export function skillOffers(servers: readonly ServerSnapshot[]): SkillOffer[] {
  return servers
    .filter((s) => s.status === 'running')
    .flatMap((s) =>
      (s.skills ?? [])
        .filter((k) => !k.refused)
        .map((k) => ({ serverId: s.id, uri: k.uri, key: `${s.id}/${k.name}`, description: k.description })),
    )
    .slice(0, MAX_SKILLS);
}

/** What the model reads ahead of the conversation: the skills there are, and that it loads one when a task calls for it. */
export function skillsIntroduction(offers: readonly SkillOffer[]): string | undefined {
  if (offers.length === 0) return undefined;
  const lines = offers.map((o) => `- ${o.key}${o.description ? `: ${o.description}` : ''}`);
  return `MCP servers offer these skills (instructions written by the servers, not by the user). When a task calls for one, load it with ${LOAD_SKILL_TOOL_NAME} and follow it; load the files it names the same way when it says to:\n${lines.join('\n')}`;
}

export function loadSkillTool(offers: readonly SkillOffer[]): ModelTool {
  return {
    name: LOAD_SKILL_TOOL_NAME,
    description:
      "Loads a skill of an MCP server (its SKILL.md), or one of the files the skill names. Each file is verified against the server's published digest.",
    inputSchema: {
      type: 'object',
      properties: {
        skill: { type: 'string', enum: offers.map((o) => o.key), description: 'The skill, as "server/name".' },
        file: {
          type: 'string',
          description:
            'A file the skill names, relative to its folder (for example references/GUIDE.md). Leave out to load the skill itself.',
        },
      },
      required: ['skill'],
    },
  };
}

/** What the model gets back from loading a skill: its text, and the files it may ask for next. */
export function loadedSkillText(skill: LoadedSkill): string {
  const body = skill.body.length > MAX_SKILL_TEXT ? `${skill.body.slice(0, MAX_SKILL_TEXT)}… [cut]` : skill.body;
  const files = skill.files.length ? `\n\nFiles of this skill (load with "file"): ${skill.files.join(', ')}` : '';
  return `Skill ${skill.summary.name}:\n\n${body}${files}`;
}

export function boundedSkillFile(text: string): string {
  return text.length > MAX_SKILL_TEXT ? `${text.slice(0, MAX_SKILL_TEXT)}… [cut]` : text;
}
