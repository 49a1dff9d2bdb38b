/**
 * Text shown as it is in a Markdown tooltip: escapes what Markdown (links and images, emphasis,
 * code, HTML, entities, headings, lists, indented code) or a theme icon (`$(name)`) would read,
 * and makes one line of it. Unlike `MarkdownString.appendText`, it leaves alone what cannot form
 * anything once `[` is escaped (parentheses, braces, `!`): VS Code's hover showed their escapes
 * after a URL it had made a link of (`http://…/mcp refused … \(HTTP 401\)`).
 */
export function plainMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]#+\-~|<>&$]/g, '\\$&')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/^(\d+)([.)])/, '$1\\$2');
}
