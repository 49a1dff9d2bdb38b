import type { Tool } from '@modelcontextprotocol/client';
import type { ToolPolicySettings } from '../config/serverDefinition';
import { canonicalJson } from '../config/definitionHash';
import { offeredToModel } from '../apps/appToolMeta';

/** How long an approval lasts: this window, this workspace, or everywhere. */
export type ApprovalScope = 'session' | 'workspace' | 'always';
export const APPROVAL_SCOPES: readonly ApprovalScope[] = ['session', 'workspace', 'always'];

/** What the user saw when they approved a tool; a later difference asks again. */
export interface ApprovedToolShape {
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly annotations?: unknown;
}

/** Keeps approvals of one scope (memory, workspace state, global state). */
export interface ApprovalStore {
  get(key: string): ApprovedToolShape | undefined;
  set(key: string, shape: ApprovedToolShape): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface ToolChange {
  readonly field: 'name' | 'title' | 'description' | 'input schema' | 'annotations';
  readonly before: string;
  readonly after: string;
}

export type ApprovalDecision =
  | { readonly kind: 'allowed'; readonly because: 'autoApprove' | 'trusted read-only' | 'its app' | ApprovalScope }
  | { readonly kind: 'ask'; readonly changes: readonly ToolChange[] };

/**
 * Decides whether a tool call needs the user's confirmation. Annotations are hints from the server;
 * they count only for servers the user marked trusted. An approval covers the tool as it was shown:
 * if its description, schema or annotations change, the user is asked again and shown the change.
 */
export class ToolApprovals {
  constructor(
    private readonly stores: Readonly<Record<ApprovalScope, ApprovalStore>>,
    private readonly policyFor: (serverId: string) => ToolPolicySettings,
  ) {}

  /**
   * `identity` says which server an approval belongs to beyond its id (its command line or URL),
   * so another workspace's server that reuses the id does not inherit "Always Allow".
   *
   * A call from a server's app (`fromApp`) to a tool only its app may call (`_meta.ui.visibility:
   * ["app"]`), or to the tool the user ran to open that app (fetching more of what it shows), is the
   * server's page talking to its own process, which the user opened: it runs without asking, as in
   * VS Code's built-in host, unless the server marks the tool destructive. The app's calls to the
   * server's other tools are confirmed like any other.
   */
  decide(
    serverId: string,
    tool: Tool,
    identity = serverId,
    fromApp?: { readonly openedBy?: string },
    /** The name the tool had before the server renamed it (`renamedTools`): asked about as a changed tool. */
    formerName?: string,
  ): ApprovalDecision {
    const policy = this.policyFor(serverId);
    if (policy.autoApprove.includes('*') || policy.autoApprove.includes(tool.name))
      return { kind: 'allowed', because: 'autoApprove' };
    if (
      fromApp &&
      (!offeredToModel(tool) || tool.name === fromApp.openedBy) &&
      tool.annotations?.destructiveHint !== true
    ) {
      return { kind: 'allowed', because: 'its app' };
    }
    if (policy.trusted && tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true) {
      return { kind: 'allowed', because: 'trusted read-only' };
    }
    const key = approvalKey(identity, tool.name);
    let changes: ToolChange[] = [];
    for (const scope of APPROVAL_SCOPES) {
      const approved = this.stores[scope].get(key);
      if (!approved) continue;
      if (canonicalShape(approved) === canonicalShape(tool)) return { kind: 'allowed', because: scope };
      changes = compareShapes(approved, shapeOf(tool));
    }
    if (formerName === undefined || formerName === tool.name) return { kind: 'ask', changes };
    const renamed: ToolChange = { field: 'name', before: formerName, after: tool.name };
    for (const scope of APPROVAL_SCOPES) {
      const approved = this.stores[scope].get(approvalKey(identity, formerName));
      if (approved) return { kind: 'ask', changes: [renamed, ...compareShapes(approved, shapeOf(tool))] };
    }
    return { kind: 'ask', changes: [renamed, ...changes] };
  }

  /** Remembers the tool as the user saw it now; other scopes' outdated approvals are dropped. */
  async approve(identity: string, tool: Tool, scope: ApprovalScope): Promise<void> {
    const key = approvalKey(identity, tool.name);
    for (const other of APPROVAL_SCOPES) if (other !== scope) await this.stores[other].delete(key);
    await this.stores[scope].set(key, shapeOf(tool));
  }
}

export function approvalKey(identity: string, toolName: string): string {
  return `${identity}\u0000${toolName}`;
}

function shapeOf(tool: Tool): ApprovedToolShape {
  return {
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  };
}

// Every model tool call checks its approval: the canonical form of a tool (or a stored shape) is
// computed once per object, not per call.
const canonicalCache = new WeakMap<object, string>();
function canonicalShape(shape: ApprovedToolShape | Tool): string {
  let text = canonicalCache.get(shape);
  if (text === undefined) {
    text = canonicalJson(shapeOf(shape as Tool));
    canonicalCache.set(shape, text);
  }
  return text;
}

function compareShapes(before: ApprovedToolShape, after: ApprovedToolShape): ToolChange[] {
  const changes: ToolChange[] = [];
  const text = (v: unknown) => (v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  const fields: [ToolChange['field'], keyof ApprovedToolShape][] = [
    ['title', 'title'],
    ['description', 'description'],
    ['input schema', 'inputSchema'],
    ['annotations', 'annotations'],
  ];
  for (const [field, key] of fields) {
    if (canonicalJson(before[key] ?? null) !== canonicalJson(after[key] ?? null)) {
      changes.push({ field, before: text(before[key]), after: text(after[key]) });
    }
  }
  return changes;
}

/** A store in memory: the session scope, and tests. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly map = new Map<string, ApprovedToolShape>();
  get(key: string): ApprovedToolShape | undefined {
    return this.map.get(key);
  }
  async set(key: string, shape: ApprovedToolShape): Promise<void> {
    this.map.set(key, shape);
  }
  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
}
