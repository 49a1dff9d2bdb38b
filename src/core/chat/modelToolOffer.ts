/**
 * Which MCP tools a chat model gets in one `@mcp` conversation. All of them when they fit;
 * past the limit, a search tool plus the tools the model found with it (tool search): the model
 * searches names and descriptions, the matches become callable in its next step, so no tool is
 * dropped however many servers run. Tools always come in catalogue order (servers by id, each
 * server's tools in its own order), so the tool list is the same from one request to the next.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { offeredToModel } from '../apps/appToolMeta';
import { DEFAULT_MAX_MODEL_TOOLS } from '../config/hostSettingKeys';
import { listsKnown, type ServerSnapshot } from '../connection/serverSnapshot';
import type { ModelTool } from '../models/modelMessages';
import { modelToolNames, type QualifiedTool } from '../connection/toolNames';

export interface CatalogueEntry extends QualifiedTool {
  readonly modelName: string;
  readonly tool: Tool;
}

/** Whether the user offers a server's tool to models (the Servers view's check boxes). */
export type OfferedTo = (serverId: string, toolName: string) => boolean;

/**
 * The tools models may use, in a stable order, with model-safe names: those of running servers,
 * and the last run's tools of servers that start when needed (calling one starts its server).
 */
export function toolCatalogue(servers: readonly ServerSnapshot[], offered: OfferedTo): CatalogueEntry[] {
  const running = servers.filter(listsKnown).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const tools = running.flatMap((s) =>
    s.tools
      .filter((tool) => offeredToModel(tool) && offered(s.id, tool.name))
      .map((tool) => ({ serverId: s.id, toolName: tool.name, tool })),
  );
  return [...modelToolNames(tools).entries()].map(([modelName, entry]) => ({ ...entry, modelName }));
}

export function modelToolOf(entry: CatalogueEntry): ModelTool {
  return {
    name: entry.modelName,
    description: `${entry.tool.description ?? entry.tool.title ?? entry.tool.name} (MCP server "${entry.serverId}")`,
    inputSchema: entry.tool.inputSchema,
  };
}

export const SEARCH_TOOL_NAME = 'mcp_search_tools';
/** How many matches one search returns (and makes callable). */
export const SEARCH_RESULTS = 10;
/** Bounds of the tools per request (the `chat.maxTools` setting; its default is in config/hostSettingKeys). */
export const MIN_MAX_MODEL_TOOLS = 8;
export const MAX_MAX_MODEL_TOOLS = 1_024;

export class ModelToolOffer {
  private readonly byName: Map<string, CatalogueEntry>;
  /** Names the model found by searching, oldest first; at most `maxTools - 1`. */
  private readonly found: string[] = [];

  constructor(
    readonly catalogue: readonly CatalogueEntry[],
    readonly maxTools: number = DEFAULT_MAX_MODEL_TOOLS,
  ) {
    this.byName = new Map(catalogue.map((e) => [e.modelName, e]));
  }

  /** True when there are more tools than one request takes, so the model searches for them. */
  get searching(): boolean {
    return this.catalogue.length > this.maxTools;
  }

  /** The tools for the next request. */
  tools(): ModelTool[] {
    if (!this.searching) return this.catalogue.map(modelToolOf);
    const found = new Set(this.found);
    return [
      searchTool(this.catalogue.length),
      ...this.catalogue.filter((e) => found.has(e.modelName)).map(modelToolOf),
    ];
  }

  /** The catalogue entry behind a model tool name (any offered tool, found or not). */
  resolve(name: string): CatalogueEntry | undefined {
    return this.byName.get(name);
  }

  /** Runs the model's search: the best matches, which become callable in its next step. */
  search(input: Record<string, unknown>): string {
    const query = typeof input.query === 'string' ? input.query.trim() : '';
    if (!query) return 'Give a "query": words from the name or description of the tool you need.';
    const matches = searchCatalogue(this.catalogue, query, SEARCH_RESULTS);
    if (matches.length === 0)
      return `No MCP tool matches "${query}". Try other words; tools are named like "server_tool".`;
    for (const match of matches) {
      const at = this.found.indexOf(match.modelName);
      if (at >= 0) this.found.splice(at, 1);
      this.found.push(match.modelName);
    }
    this.found.splice(0, Math.max(0, this.found.length - (this.maxTools - 1)));
    const lines = matches.map((m) => `- ${m.modelName}: ${modelToolOf(m).description}`);
    return `These tools match "${query}" and can be called now:\n${lines.join('\n')}`;
  }
}

function searchTool(total: number): ModelTool {
  return {
    name: SEARCH_TOOL_NAME,
    description: `Finds MCP tools by name or description among ${total} available. Call it first with words describing what you need; the tools it returns become callable in your next step.`,
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Words from the tool name or description.' } },
      required: ['query'],
    },
  };
}

/**
 * Ranks catalogue entries for a query: an exact tool or model name wins, then names containing
 * the whole query, then the words of the query found in names (worth more) and descriptions.
 * Matches far weaker than the best (under a quarter of its score) are left out, so an exact
 * name does not come with a tail of tools that merely share a word. Ties keep catalogue order.
 */
export function searchCatalogue(catalogue: readonly CatalogueEntry[], query: string, limit: number): CatalogueEntry[] {
  const q = query.toLowerCase();
  const words = q.split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  const scored = catalogue.map((entry, index) => {
    const name = `${entry.modelName} ${entry.serverId} ${entry.toolName} ${entry.tool.title ?? ''}`.toLowerCase();
    const description = (entry.tool.description ?? '').toLowerCase();
    let score = 0;
    if (entry.toolName.toLowerCase() === q || entry.modelName.toLowerCase() === q) score += 30;
    if (name.includes(q)) score += 20;
    for (const word of words) {
      if (name.includes(word)) score += 3;
      if (description.includes(word)) score += 1;
    }
    return { entry, index, score };
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score > 0 && s.score >= best / 4)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((s) => s.entry);
}
