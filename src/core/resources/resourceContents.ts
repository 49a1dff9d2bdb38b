import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { ModelPart } from '../models/modelMessages';

type Content = ReadResourceResult['contents'][number];

/** The bytes of one part of a resource: text as UTF-8, a blob decoded from base64. */
export function contentBytes(content: Content): Uint8Array {
  return 'blob' in content && typeof content.blob === 'string'
    ? Buffer.from(content.blob, 'base64')
    : Buffer.from(String((content as { text?: string }).text ?? ''), 'utf8');
}

/**
 * A resource read for a chat model: each text part as text headed by its URI and server, images
 * as data, other binaries named with their size (a model cannot take them).
 */
export function resourceForModel(serverId: string, uri: string, result: ReadResourceResult): ModelPart[] {
  const parts: ModelPart[] = [];
  for (const content of result.contents) {
    const where = `Resource ${content.uri ?? uri} from MCP server "${serverId}"`;
    if ('text' in content && typeof content.text === 'string') {
      parts.push({
        kind: 'text',
        text: `${where}${content.mimeType ? ` (${content.mimeType})` : ''}:\n${content.text}`,
      });
      continue;
    }
    const bytes = contentBytes(content);
    if (content.mimeType?.startsWith('image/')) {
      parts.push(
        { kind: 'text', text: `${where}: an image (${content.mimeType}) follows.` },
        { kind: 'data', mimeType: content.mimeType, data: bytes },
      );
    } else {
      parts.push({
        kind: 'text',
        text: `${where}: binary${content.mimeType ? ` ${content.mimeType}` : ''}, ${bytes.byteLength} bytes (not shown to the model).`,
      });
    }
  }
  return parts;
}
