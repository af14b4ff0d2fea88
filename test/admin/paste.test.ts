// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * Pasting HTML into the rich text editor, in Chromium against a real server: what the clipboard of Google
 * Docs, Word and a web page holds is pasted (a paste event carrying `text/html`, as the browser sends it),
 * saved, and what the server stored is compared with what `cms import` makes of the same HTML (the
 * importer's converter, run here on the server side with its own parser). docs/rich-text.md, "Pasting".
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { htmlToLexical } from '../../src/richtext/from-html.ts';
import { TEXT_FORMAT } from '../../src/richtext/nodes.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'posts',
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'content', type: 'richText' },
      ],
    },
  ],
};
const ADMIN = { name: 'Paula Paste', email: 'paula@example.com', password: 'correct horse 1' };

type Node = { type: string; children?: Node[]; [key: string]: unknown };

/** A Google Docs copy as Chrome hands it over: one `<b style="font-weight:normal">` around it all, styled spans. */
const GOOGLE_DOCS = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-5b1c2d3e-7fff-0a1b-2c3d-4e5f60718293"><h2 dir="ltr" style="line-height:1.38;margin-top:18pt;margin-bottom:6pt;"><span style="font-size:16pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">Moving in</span></h2><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">Plain, then </span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">bold</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;"> and </span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:italic;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">italic</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">, with </span><a href="https://example.com/guide" style="text-decoration:none;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#1155cc;background-color:transparent;font-weight:400;font-style:normal;text-decoration:underline;-webkit-text-decoration-skip:none;text-decoration-skip-ink:none;vertical-align:baseline;white-space:pre-wrap;">a link</span></a><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">.</span></p><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre;" aria-level="1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;" role="presentation"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">First point</span></p></li><li dir="ltr" style="list-style-type:disc;font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre;" aria-level="1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;" role="presentation"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">Second point</span></p></li></ul><br><div dir="ltr" style="margin-left:0pt;" align="left"><table style="border:none;border-collapse:collapse;"><colgroup><col width="200"><col width="200"></colgroup><tbody><tr style="height:0pt"><td style="border-left:solid #000000 1pt;border-right:solid #000000 1pt;vertical-align:top;padding:5pt 5pt 5pt 5pt;overflow:hidden;overflow-wrap:break-word;"><p dir="ltr" style="line-height:1.2;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:700;white-space:pre-wrap;">Step</span></p></td><td style="border-left:solid #000000 1pt;vertical-align:top;padding:5pt 5pt 5pt 5pt;"><p dir="ltr" style="line-height:1.2;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:700;white-space:pre-wrap;">When</span></p></td></tr><tr style="height:0pt"><td style="vertical-align:top;padding:5pt 5pt 5pt 5pt;"><p dir="ltr" style="line-height:1.2;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;white-space:pre-wrap;">Move</span></p></td><td style="vertical-align:top;padding:5pt 5pt 5pt 5pt;"><p dir="ltr" style="line-height:1.2;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;white-space:pre-wrap;">May</span></p></td></tr></tbody></table></div></b>`;

/** A Word copy: a whole document with Office namespaces, a style sheet in its head and `<o:p>` marks. */
const WORD = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40"><head><meta http-equiv=Content-Type content="text/html; charset=utf-8"><meta name=Generator content="Microsoft Word 15"><style><!--
p.MsoNormal, li.MsoNormal {margin:0cm; font-size:11.0pt; font-family:"Calibri",sans-serif;}
--></style></head><body lang=EN-GB style='tab-interval:36.0pt;word-wrap:break-word'><!--StartFragment--><h1>Quarterly
notes<o:p></o:p></h1><p class=MsoNormal>The <b>plan</b> is <i>simple</i>: read the <a
href="https://example.com/notes">notes</a>, then<o:p></o:p></p><p class=MsoNormal><span
style='font-family:"Courier New"'>bun run build</span><o:p></o:p></p><p class=MsoNormal><!--[if gte vml 1]><v:shape id="Picture_x0020_1" style='width:240pt;height:150pt'><v:imagedata src="file:///C:/Users/ana/AppData/Local/Temp/msohtmlclip1/01/clip_image001.png" o:title=""/></v:shape><![endif]--><![if !vml]><img width=320 height=200 src="file:///C:/Users/ana/AppData/Local/Temp/msohtmlclip1/01/clip_image002.png" alt="Sales chart" v:shapes="Picture_x0020_1"><![endif]><o:p></o:p></p><!--EndFragment--></body></html>`;

/** A piece of a web page: code, a quote, a numbered list, a rule, and a style sheet and script that must go. */
const WEB_PAGE = `<meta charset='utf-8'><h3 style="color: rgb(17, 17, 17); font-family: Georgia, serif;">Install</h3><p style="color: rgb(17, 17, 17); font-weight: 400;">Run this:</p><pre style="background: rgb(246, 248, 250);"><code class="language-sh">bun install
bun run build</code></pre><blockquote style="border-left: 3px solid;"><p>Quoted <em>words</em>.</p></blockquote><ol start="3"><li>three</li><li>four<ul><li>four and a half</li></ul></li></ol><style>.x { color: red }</style><script>document.title = 'pasted script ran'</script><p>Ends with <code>inline code</code>, <s>struck</s> and a <a href="/docs/start">relative link</a>.</p><hr><p>After the rule.</p>`;

/** The structure a reader sees: node types, heading tags, list types, text with its format, link targets. */
function shape(nodes: Node[]): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes) {
    const children = () => shape(node.children ?? []);
    const last = out[out.length - 1] as { text?: string; format?: number } | undefined;
    if (node.type === 'text') {
      // Neighbouring runs of one format read as one.
      if (last?.text !== undefined && last.format === node.format) last.text += String(node.text);
      else out.push({ text: String(node.text), format: node.format });
    } else if (node.type === 'paragraph') {
      // Empty paragraphs (the editor's own line before and after a paste) show nothing.
      if (node.children?.length) out.push({ p: children() });
    } else if (node.type === 'heading') out.push({ [String(node.tag)]: children() });
    else if (node.type === 'list') out.push({ [`${node.listType} list from ${node.start}`]: children() });
    else if (node.type === 'link') out.push({ link: (node.fields as { url: string }).url, children: children() });
    else if (node.children) out.push({ [node.type]: children() });
    else out.push(node.type);
  }
  return out;
}

describe.skipIf(!hasChromium())('admin: pasting HTML into rich text', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  const editor = () => page.getByRole('textbox', { name: 'Content' });

  /** A new post with `content`, opened in the editor. */
  async function openPost(content: unknown = null): Promise<number> {
    const made = await t.request('POST', '/posts', { token: s.token, body: { title: 'Pasted', content } });
    expect(made.status).toBe(201);
    await page.goto(`${t.url}/admin/collections/posts/${made.body.doc.id}`);
    await editor().waitFor();
    return made.body.doc.id as number;
  }

  /** A paste event carrying `html`, as the browser sends one, at the caret. */
  const paste = (html: string) =>
    editor().evaluate((el, html) => {
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', el.ownerDocument.createRange().createContextualFragment(html).textContent ?? '');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, html);

  /** Saves, waits for the confirmation, and answers the stored top-level nodes. */
  async function saveAndRead(id: number): Promise<Node[]> {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /(?<![a-z])saved/i })
      .waitFor();
    const stored = await t.request('GET', `/posts/${id}?depth=0`, { token: s.token });
    expect(stored.status).toBe(200);
    return stored.body.content.root.children as Node[];
  }

  /** Pastes `html` into a new post's empty text, saves, and answers the stored top-level nodes. */
  async function pasteAndSave(html: string): Promise<Node[]> {
    const id = await openPost();
    await editor().click();
    await paste(html);
    return saveAndRead(id);
  }

  /** What `cms import` stores for the same HTML read as a web page's (line ends are spaces). */
  const imported = (html: string) => htmlToLexical(html, { autoParagraphs: false }).value.root.children as Node[];

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    expect((await t.request('POST', '/users/first-register', { body: { ...ADMIN } })).status).toBe(200);
    s = await t.login(ADMIN.email, ADMIN.password);
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test('a Google Docs copy stores what an import of it stores: only the bold word bold, a table as lines', async () => {
    const stored = await pasteAndSave(GOOGLE_DOCS);
    expect(shape(stored)).toEqual(shape(imported(GOOGLE_DOCS)));
    expect(shape(stored)).toEqual([
      { h2: [{ text: 'Moving in', format: 0 }] },
      {
        p: [
          { text: 'Plain, then ', format: 0 },
          { text: 'bold', format: TEXT_FORMAT.bold },
          { text: ' and ', format: 0 },
          { text: 'italic', format: TEXT_FORMAT.italic },
          { text: ', with ', format: 0 },
          { link: 'https://example.com/guide', children: [{ text: 'a link', format: TEXT_FORMAT.underline }] },
          { text: '.', format: 0 },
        ],
      },
      {
        'bullet list from 1': [
          { listitem: [{ text: 'First point', format: 0 }] },
          { listitem: [{ text: 'Second point', format: 0 }] },
        ],
      },
      // A table has no node: each row is a line of its cells, as an import keeps it.
      {
        p: [
          { text: 'Step', format: TEXT_FORMAT.bold },
          { text: ' | ', format: 0 },
          { text: 'When', format: TEXT_FORMAT.bold },
        ],
      },
      { p: [{ text: 'Move | May', format: 0 }] },
    ]);
  });

  test('a Word copy stores what an import of it stores: head, style sheet and Office marks dropped, alt text kept', async () => {
    const stored = await pasteAndSave(WORD);
    expect(shape(stored)).toEqual(shape(imported(WORD)));
    expect(shape(stored)).toEqual([
      { h1: [{ text: 'Quarterly notes', format: 0 }] },
      {
        p: [
          { text: 'The ', format: 0 },
          { text: 'plan', format: TEXT_FORMAT.bold },
          { text: ' is ', format: 0 },
          { text: 'simple', format: TEXT_FORMAT.italic },
          { text: ': read the ', format: 0 },
          { link: 'https://example.com/notes', children: [{ text: 'notes', format: 0 }] },
          { text: ', then', format: 0 },
        ],
      },
      { p: [{ text: 'bun run build', format: 0 }] },
      // An image from the writer's own disk cannot be linked to: its alt text stays, as an import keeps it.
      { p: [{ text: 'Sales chart', format: 0 }] },
    ]);
    expect(JSON.stringify(stored)).not.toContain('MsoNormal');
  });

  test('a web page stores what an import of it stores: code, quote, nested list, rule; no script or style', async () => {
    const stored = await pasteAndSave(WEB_PAGE);
    expect(shape(stored)).toEqual(shape(imported(WEB_PAGE)));
    const code = TEXT_FORMAT.code;
    expect(shape(stored)).toEqual([
      { h3: [{ text: 'Install', format: 0 }] },
      { p: [{ text: 'Run this:', format: 0 }] },
      { p: [{ text: 'bun install', format: code }, 'linebreak', { text: 'bun run build', format: code }] },
      {
        quote: [
          { text: 'Quoted ', format: 0 },
          { text: 'words', format: TEXT_FORMAT.italic },
          { text: '.', format: 0 },
        ],
      },
      {
        'number list from 3': [
          { listitem: [{ text: 'three', format: 0 }] },
          { listitem: [{ text: 'four', format: 0 }] },
          { listitem: [{ 'bullet list from 1': [{ listitem: [{ text: 'four and a half', format: 0 }] }] }] },
        ],
      },
      {
        p: [
          { text: 'Ends with ', format: 0 },
          { text: 'inline code', format: code },
          { text: ', ', format: 0 },
          { text: 'struck', format: TEXT_FORMAT.strikethrough },
          { text: ' and a ', format: 0 },
          { link: '/docs/start', children: [{ text: 'relative link', format: 0 }] },
          { text: '.', format: 0 },
        ],
      },
      'horizontalrule',
      { p: [{ text: 'After the rule.', format: 0 }] },
    ]);
    expect(JSON.stringify(stored)).not.toMatch(/color|pasted script ran/);
    expect(await page.title()).not.toBe('pasted script ran');
  });

  test('HTML pasted into the middle of a line joins it where the caret is', async () => {
    const id = await openPost(htmlToLexical('<p>Before after</p>').value);
    await editor().click();
    await page.keyboard.press('Control+End');
    for (let i = 0; i < ' after'.length; i++) await page.keyboard.press('ArrowLeft');
    await paste('<meta charset="utf-8">, <span style="font-weight:700">bold</span>');
    const stored = await saveAndRead(id);
    expect(shape(stored)).toEqual([
      {
        p: [
          { text: 'Before, ', format: 0 },
          { text: 'bold', format: TEXT_FORMAT.bold },
          { text: ' after', format: 0 },
        ],
      },
    ]);
  });

  test('HTML that makes no node leaves the paste to its plain text', async () => {
    const id = await openPost();
    await editor().click();
    await editor().evaluate((el) => {
      const data = new DataTransfer();
      data.setData('text/html', '<meta charset="utf-8"><img src="file:///C:/Users/ana/clip_image001.png">');
      data.setData('text/plain', 'Plain words');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    expect(shape(await saveAndRead(id))).toEqual([{ p: [{ text: 'Plain words', format: 0 }] }]);
  });

  test('a rule an import stored opens in the editor, and stays through an edit', async () => {
    const id = await openPost(htmlToLexical('<p>Above</p><hr><p>Below</p>').value);
    await editor().locator('hr').waitFor();
    await editor().getByText('Below').click();
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    expect(shape(await saveAndRead(id))).toEqual([
      { p: [{ text: 'Above', format: 0 }] },
      'horizontalrule',
      { p: [{ text: 'Below!', format: 0 }] },
    ]);
  });

  test('no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
