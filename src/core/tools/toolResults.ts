import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ResultItem } from '../../shared/protocol/toolResultView';

type Block = CallToolResult['content'][number] | { type: string; [key: string]: unknown };

/** The result of a tool call as the result panel shows it, one item per content block. */
export function resultItems(result: CallToolResult): ResultItem[] {
  const items: ResultItem[] = (result.content ?? []).map((block) => itemFor(block as Block));
  if (result.structuredContent !== undefined)
    items.push({ kind: 'structured', json: JSON.stringify(result.structuredContent, null, 2) });
  return items;
}

/** The result as text for a chat model: what it needs to answer or to correct its call. */
export function resultText(result: CallToolResult): string {
  const parts = resultItems(result).map((item) => {
    switch (item.kind) {
      case 'text':
        return item.text;
      case 'image':
      case 'audio':
        return `[${item.kind} ${item.mimeType}, ${base64Bytes(item.data)} bytes]`;
      case 'resourceLink':
        return `[resource link ${item.uri}${item.label !== item.uri ? ` "${item.label}"` : ''}]`;
      case 'resource':
        return item.text !== undefined
          ? `Resource ${item.uri}:\n${item.text}`
          : `[binary resource ${item.uri}, ${item.bytes ?? 0} bytes]`;
      case 'structured':
        // Text content usually repeats the structured output; send it only when there is no text.
        return result.content?.some((c) => c.type === 'text') ? '' : item.json;
      case 'unsupported':
        return `[${item.type} content]`;
    }
  });
  return parts.filter((p) => p !== '').join('\n') || '(the tool returned no content)';
}

/** Whether text reads as Markdown (headings, lists, fences, links, emphasis, tables). */
export function looksLikeMarkdown(text: string): boolean {
  return /(^|\n)(#{1,6} |[-*+] |\d+\. |```|> |\|.*\|)|\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*|`[^`\n]+`/.test(text);
}

function itemFor(block: Block): ResultItem {
  const b = block as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: String(b.text ?? ''), markdown: looksLikeMarkdown(String(b.text ?? '')) };
    case 'image':
    case 'audio':
      return {
        kind: block.type,
        mimeType: String(b.mimeType ?? 'application/octet-stream'),
        data: String(b.data ?? ''),
      };
    case 'resource_link':
      return {
        kind: 'resourceLink',
        uri: String(b.uri),
        label: String(b.title ?? b.name ?? b.uri),
        description: typeof b.description === 'string' ? b.description : undefined,
        mimeType: typeof b.mimeType === 'string' ? b.mimeType : undefined,
      };
    case 'resource': {
      const resource = (b.resource ?? {}) as Record<string, unknown>;
      return {
        kind: 'resource',
        uri: String(resource.uri ?? ''),
        mimeType: typeof resource.mimeType === 'string' ? resource.mimeType : undefined,
        text: typeof resource.text === 'string' ? resource.text : undefined,
        bytes: typeof resource.blob === 'string' ? base64Bytes(resource.blob) : undefined,
      };
    }
    default:
      return { kind: 'unsupported', type: String(block.type), json: JSON.stringify(block, null, 2) };
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
