// Runs once (on the SQLite pass): pure conversions of rich text; no server.
/**
 * The conversions are pure: no server, no engine. HTML and plain text are compared with what Payload's
 * own Lexical converters made of the same JSON (recorded by scripts/record-payload-richtext.ts); Markdown
 * is checked to read back as the same content; the HTML is checked to be safe whatever the JSON holds.
 */
import { describe, expect, test } from 'bun:test';
import { marked } from 'marked';
import { CASES } from '../fixtures/richtext/cases.ts';
import recorded from '../fixtures/richtext/payload-output.json';
import { richTextToHTML } from '../../src/richtext/to-html.ts';
import { richTextToText } from '../../src/richtext/to-text.ts';
import { richTextToMarkdown } from '../../src/richtext/to-markdown.ts';
import { markdownToRichText } from '../../src/richtext/from-markdown.ts';
import { convertRichTextValues } from '../../src/fields/convert-rich-text.ts';
import type { RichTextValue } from '../../src/richtext/nodes.ts';
import { link, paragraph, root, text } from '../fixtures/richtext/nodes.ts';

const outputs = recorded.outputs as Record<string, { html: string; text: string }>;
// Check list items carry a random id per render (Payload: a UUID) tying the input to its label.
const sameIds = (html: string) => html.replace(/(id|htmlFor)="[^"]+"/g, '$1="…"');

describe('HTML and plain text as Payload renders them', () => {
  for (const [name, value] of Object.entries(CASES)) {
    test(name, () => {
      const expected = outputs[name];
      expect(expected).toBeDefined();
      expect(sameIds(richTextToHTML(value as RichTextValue))).toBe(sameIds(expected.html));
      expect(richTextToText(value as RichTextValue)).toBe(expected.text);
    });
  }
});

describe('HTML is safe by construction', () => {
  const table: [string, string, string][] = [
    ['javascript: with nothing after it', 'javascript:', 'href="#"'],
    ['a scheme hidden by control characters', 'java\tscript:alert(1)', 'href="#"'],
    ['vbscript', 'VBScript:msgbox', 'href="#"'],
    ['an attribute break-out', '" onmouseover="x', 'href="&quot; onmouseover=&quot;x"'],
    ['a colon before any slash', 'foo:bar', 'href="#"'],
    ['protocol-relative', '//cdn.test/x', 'href="//cdn.test/x"'],
    ['a fragment', '#top', 'href="#top"'],
  ];
  for (const [name, url, expected] of table) {
    test(name, () =>
      expect(richTextToHTML(root(paragraph(link(url, [text('x')]))) as unknown as RichTextValue)).toContain(expected),
    );
  }
  test('style and unknown properties of nodes never reach the markup', () => {
    const html = richTextToHTML(
      root({
        ...paragraph({ ...text('x'), style: 'background:url(javascript:1)' }),
        format: 'center;color:red',
      }) as unknown as RichTextValue,
    );
    expect(html).toBe('<div class="payload-richtext"><p>x</p></div>');
  });
});

describe('Markdown out reads back as the same content', () => {
  const samples = [
    '## Title\n\nSome **bold**, *italic*, ~~gone~~ and `code`.',
    '- one\n- two\n   - nested',
    '1. first\n2. second',
    '- [x] done\n- [ ] todo',
    '> a quote',
    '[a link](https://example.com/a_b) and text with \\*stars\\* and 1. not a list',
    '1\\. at the start of a line is text',
    'line one  \nline two\n\n---',
  ];
  for (const markdown of samples) {
    test(JSON.stringify(markdown.slice(0, 30)), () => {
      const value = markdownToRichText(markdown);
      const again = markdownToRichText(richTextToMarkdown(value));
      expect(again).toEqual(value);
      expect(richTextToMarkdown(value)).toBe(markdown);
    });
  }
});

describe('inline code stays inside its code span', () => {
  const escapeHTML = (s: string) =>
    s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  const img = '<img src=x onerror=alert(1)>';
  const table: [string, string][] = [
    ['two backticks inside', `a\`\`${img}\`\`b`],
    ['one backtick inside', `a\`${img}\`b`],
    ['a run of three', `x\`\`\`${img}`],
    ['starts with a backtick', `\`${img}`],
    ['ends with a backtick', `${img}\``],
    ['only backticks', '``'],
    ['spaces at both ends', ` ${img} `],
    ['a blank line inside', `a\n\n${img}`],
  ];
  for (const [name, code] of table) {
    test(name, () => {
      const markdown = richTextToMarkdown(root(paragraph(text('see '), text(code, 16))) as unknown as RichTextValue);
      // Read by a CommonMark parser that passes raw HTML: the code is one code span, its HTML escaped.
      const shown = code.replace(/\n/g, ' ');
      expect(marked.parse(markdown, { async: false })).toBe(`<p>see <code>${escapeHTML(shown)}</code></p>\n`);
      const back = markdownToRichText(markdown).root.children![0].children!;
      expect(back.map((n) => [n.text, n.format])).toEqual([
        ['see ', 0],
        [shown, 16],
      ]);
    });
  }
});

describe('convertRichTextValues', () => {
  const fields = [
    { name: 'body', type: 'richText', path: 'body', localized: false },
    {
      name: 'rows',
      type: 'array',
      path: 'rows',
      localized: false,
      fields: [{ name: 'body', type: 'richText', path: 'rows.body', localized: false }],
    },
  ] as never;
  test('converts values at any nesting and leaves everything else', () => {
    const doc = {
      id: 1,
      title: 'x',
      body: root(paragraph(text('top'))),
      rows: [{ id: 'a', body: root(paragraph(text('inner', 1))) }],
    };
    expect(convertRichTextValues(doc, fields, 'markdown') as unknown).toEqual({
      id: 1,
      title: 'x',
      body: 'top',
      rows: [{ id: 'a', body: '**inner**' }],
    });
  });
});
