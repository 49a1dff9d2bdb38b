import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { plainMarkdown } from '../../../src/editor/ui/plainMarkdown';

/** Markdown as a hover renders it: CommonMark with links made of bare URLs. */
const markdown = new MarkdownIt({ linkify: true });
const rendered = (text: string) => markdown.renderInline(plainMarkdown(text));
/** What a reader sees: the rendered text without its tags and entities. */
const seen = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('plainMarkdown: text shown as it is in a Markdown tooltip', () => {
  it('shows a reason that names a URL as it is, parentheses and all, with no escape left in sight', () => {
    const reason =
      'http://127.0.0.1:4000/mcp refused the credentials in "headers" (HTTP 401 Unauthorized); check the value of "Authorization"';
    assert.equal(seen(rendered(reason)), reason);
    assert.doesNotMatch(plainMarkdown(reason), /\\[(). ]/, 'nothing escaped that cannot form Markdown');
  });

  it('lets an untrusted string form no link, image, HTML, code, emphasis, heading, list or theme icon', () => {
    for (const text of [
      '[open](command:workbench.action.reloadWindow)',
      '![pixel](http://127.0.0.1:9/pixel.png)',
      '<img src=x onerror=alert(1)> &amp; <b>bold</b>',
      '`code` *em* _em_ ~~gone~~',
      '# Title',
      '- item',
      '+ item',
      '$(zap) icon',
      'a | b',
      '1. first',
      '2) second',
      '    indented like code',
    ]) {
      const html = markdown.render(plainMarkdown(text));
      assert.match(html, /^<p>/, `${text} stays a paragraph: ${html}`);
      // A bare URL becomes a link to itself, as VS Code's hover makes one (appendText's too); nothing else.
      const elements = html.replace(/<a href="(https?:[^"]+)">\1<\/a>/g, 'URL');
      assert.doesNotMatch(elements, /<(?!\/?p>)/, `${text} makes no element: ${html}`);
      assert.equal(seen(html).trim(), text.trim(), `${text} reads as written`);
      // A theme icon's syntax is escaped: VS Code reads `$(name)` only without a backslash before it.
      if (text.startsWith('$(')) assert.ok(plainMarkdown(text).startsWith('\\$('));
    }
  });

  it('makes one line of several, so that a value stays on its row', () => {
    assert.equal(plainMarkdown('first\n  second\r\nthird'), 'first second third');
  });
});
