import type { GetPromptResult } from '@modelcontextprotocol/client';

type PromptContent = GetPromptResult['messages'][number]['content'];

/** A prompt's messages as a Markdown document, for reading and editing in an editor. */
export function promptMarkdown(serverId: string, promptName: string, result: GetPromptResult): string {
  const lines = [`# ${promptName} (MCP server "${serverId}")`, ''];
  if (result.description) lines.push(`> ${result.description.replace(/\n/g, '\n> ')}`, '');
  for (const message of result.messages) {
    lines.push(`## ${message.role}`, '', contentText(message.content), '');
  }
  return lines.join('\n');
}

/** One message's content as text; binary content is described, never dropped silently. */
export function contentText(content: PromptContent): string {
  const c = content as Record<string, unknown>;
  switch (content.type) {
    case 'text':
      return String(c.text ?? '');
    case 'image':
    case 'audio':
      return `[${content.type} ${String(c.mimeType)}]`;
    case 'resource': {
      const resource = (c.resource ?? {}) as Record<string, unknown>;
      return typeof resource.text === 'string'
        ? `Resource ${String(resource.uri)}:\n\n${resource.text}`
        : `[binary resource ${String(resource.uri)}]`;
    }
    case 'resource_link':
      return `[resource link ${String(c.uri)}]`;
    default:
      return `[${String((content as { type: unknown }).type)} content]`;
  }
}
