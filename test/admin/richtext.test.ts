// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The rich text editor in Chromium against a real server: typing, keyboard and Markdown shortcuts, links,
 * image embeds, blocks inside the text, undo, pasted HTML, and a 375 px screen. Every editing test saves and
 * then checks what the server stored (the Lexical JSON, docs/rich-text.md) as well as what the page shows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { form, png } from '../support/media-fixtures.ts';
import { block, paragraph, root, text } from '../fixtures/richtext/nodes.ts';

const config: UserConfig = {
  collections: [
    { slug: 'pages', admin: { useAsTitle: 'title' }, fields: [{ name: 'title', type: 'text', required: true }] },
    {
      slug: 'posts',
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        {
          name: 'content',
          type: 'richText',
          // As Payload's website template writes it: no label shown; the editor keeps the field's name.
          label: false,
          blocks: [
            { slug: 'callout', fields: [{ name: 'note', type: 'text' }] },
            {
              slug: 'cta',
              labels: { singular: 'Call to action', plural: 'Calls to action' },
              fields: [
                { name: 'title', type: 'text', required: true },
                { name: 'url', type: 'text' },
              ],
            },
          ],
        },
      ],
    },
  ],
};

const ADMIN = { name: 'Rita Writer', email: 'rita@example.com', password: 'correct horse 1' };
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin-richtext');

type Node = { type: string; children?: Node[]; [key: string]: unknown };

describe.skipIf(!hasChromium())('admin: the rich text editor', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  let mediaId: number;
  let pageId: number;
  const editor = () => page.getByRole('textbox', { name: 'Content' });
  const toolbar = () => page.getByRole('toolbar', { name: 'Content: formatting' });

  /** A fresh post with the given content, opened in the editor with the caret at the end of the text. */
  async function openPost(content: unknown = null): Promise<number> {
    const made = await t.request('POST', '/posts', { token: s.token, body: { title: 'Rich', content } });
    expect(made.status).toBe(201);
    const id = made.body.doc.id as number;
    await page.goto(`${t.url}/admin/collections/posts/${id}`);
    await editor().waitFor();
    await editor().click();
    await page.keyboard.press('Control+End');
    return id;
  }

  /** Saves, waits for the confirmation, and answers the stored top-level nodes. */
  async function saveAndRead(id: number): Promise<Node[]> {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // "Saved" or "Draft saved", never the "Unsaved changes" note the edit put up before the click.
    await page
      .getByRole('status')
      .filter({ hasText: /(?<![a-z])saved/i })
      .waitFor();
    const stored = await t.request('GET', `/posts/${id}?depth=0`, { token: s.token });
    expect(stored.status).toBe(200);
    return stored.body.content.root.children as Node[];
  }

  const textOf = (node: Node): string =>
    node.type === 'text' ? String(node.text) : (node.children ?? []).map(textOf).join('');

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    expect((await t.request('POST', '/users/first-register', { body: { ...ADMIN } })).status).toBe(200);
    s = await t.login(ADMIN.email, ADMIN.password);
    const media = await t.request('POST', '/media', {
      token: s.token,
      body: form(await png(), 'sunset.png', { alt: 'A sunset' }),
    });
    expect(media.status).toBe(201);
    mediaId = media.body.doc.id;
    pageId = (await t.request('POST', '/pages', { token: s.token, body: { title: 'About us' } })).body.doc.id;
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test('typing and Ctrl+B store a paragraph with a bold run', async () => {
    const id = await openPost();
    await page.keyboard.type('Plain ');
    await page.keyboard.press('Control+b');
    await expect(toolbar().getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await page.keyboard.type('strong');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' end');
    await editor().locator('strong, .rt-bold').filter({ hasText: 'strong' }).waitFor();
    const [first] = await saveAndRead(id);
    expect(first!.type).toBe('paragraph');
    expect(first!.children!.map((c) => [c.text, c.format])).toEqual([
      ['Plain ', 0],
      ['strong', 1],
      [' end', 0],
    ]);
  });

  test('label: false shows no label above the editor, which screen readers still hear named', async () => {
    await openPost();
    const label = page.locator('[data-path="content"] .field-label').first();
    expect(await label.textContent()).toBe('Content');
    expect(await label.boundingBox().then((box) => (box?.height ?? 0) <= 1)).toBe(true);
    await expect(editor().getAttribute('aria-label')).resolves.toBe('Content');
  });

  test('"## " makes a heading and "- " a bulleted list', async () => {
    const id = await openPost();
    await page.keyboard.type('## Title here');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- first');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second');
    await editor().locator('h2', { hasText: 'Title here' }).waitFor();
    expect(await editor().locator('ul > li').allTextContents()).toEqual(['first', 'second']);
    const [h, l] = await saveAndRead(id);
    expect({ type: h!.type, tag: h!.tag, text: textOf(h!) }).toEqual({
      type: 'heading',
      tag: 'h2',
      text: 'Title here',
    });
    expect({ type: l!.type, listType: l!.listType, tag: l!.tag }).toEqual({
      type: 'list',
      listType: 'bullet',
      tag: 'ul',
    });
    expect(l!.children!.map((i) => [i.type, textOf(i)])).toEqual([
      ['listitem', 'first'],
      ['listitem', 'second'],
    ]);
  });

  test('undo takes back the last change, in the page and in what is saved', async () => {
    const id = await openPost(root(paragraph(text('Kept'))));
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Dropped');
    await editor().locator('h2').waitFor();
    const undo = toolbar().getByRole('button', { name: 'Undo' });
    while ((await editor().locator('h2, p', { hasText: 'Dropped' }).count()) > 0) await undo.click();
    const nodes = await saveAndRead(id);
    expect(nodes.map(textOf).join('|')).not.toContain('Dropped');
    expect(textOf(nodes[0]!)).toBe('Kept');
  });

  test('pasted HTML keeps the allowed nodes and drops the rest', async () => {
    const id = await openPost();
    const html =
      '<h3 style="color:red">Pasted <b>bold</b></h3><script>alert(1)</script><table><tr><td>cell</td></tr></table><p onclick="x()">Para <a href="javascript:alert(1)">bad</a> <a href="https://example.com/">good</a></p><ol><li>one</li></ol>';
    await editor().evaluate((el, html) => {
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', 'Pasted bold');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, html);
    await editor().locator('h3', { hasText: 'Pasted' }).waitFor();
    expect(await editor().locator('script, table, [onclick], [style*="red"]').count()).toBe(0);
    const nodes = await saveAndRead(id);
    const allowed = new Set([
      'paragraph',
      'heading',
      'text',
      'linebreak',
      'tab',
      'list',
      'listitem',
      'quote',
      'link',
      'autolink',
      'horizontalrule',
      'upload',
      'relationship',
      'block',
      'inlineBlock',
    ]);
    const walk = (n: Node): Node[] => [n, ...(n.children ?? []).flatMap(walk)];
    const every = nodes.flatMap(walk);
    expect(every.filter((n) => !allowed.has(n.type))).toEqual([]);
    const heading = nodes.find((n) => n.type === 'heading')!;
    expect(heading.tag).toBe('h3');
    expect(heading.children!.find((c) => c.text === 'bold')!.format).toBe(1);
    expect(every.some((n) => n.type === 'list' && n.listType === 'number')).toBe(true);
    const links = every.filter((n) => n.type === 'link').map((n) => (n.fields as { url: string }).url);
    expect(links).toContain('https://example.com/');
    expect(links.join(' ')).not.toContain('javascript:');
    expect(JSON.stringify(nodes)).not.toContain('alert');
  });

  test('a block inside the text is shown and kept when the text around it changes', async () => {
    const id = await openPost(
      root(paragraph(text('Before')), block({ id: 'c1', blockType: 'callout', note: 'Mind the gap' })),
    );
    await editor().getByRole('group', { name: 'Block: Mind the gap' }).waitFor();
    await editor().getByText('Before').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' edited');
    const nodes = await saveAndRead(id);
    expect(textOf(nodes[0]!)).toBe('Before edited');
    expect(nodes[1]).toMatchObject({ type: 'block', fields: { id: 'c1', blockType: 'callout', note: 'Mind the gap' } });
  });

  test('a block inserted from the toolbar is filled by keyboard and stored between the paragraphs', async () => {
    const id = await openPost(root(paragraph(text('Intro')), paragraph(text('Outro'))));
    await editor().getByText('Intro').click();
    await page.keyboard.press('End');
    await toolbar().getByRole('button', { name: 'Insert block', exact: true }).click();
    await page.getByRole('dialog', { name: 'Add a block' }).getByRole('button', { name: 'Call to action' }).click();
    const box = editor().getByRole('group', { name: /^Block: / });
    await box.getByRole('textbox', { name: 'Title' }).waitFor();
    await expect(
      box.getByRole('textbox', { name: 'Title' }).evaluate((el) => el === document.activeElement),
    ).resolves.toBe(true);
    await page.keyboard.type('Join us');
    await page.keyboard.press('Tab');
    await page.keyboard.type('/join');
    await box
      .getByRole('textbox', { name: 'Url' })
      .evaluate((el) => (el as HTMLInputElement).value === '/join' || Promise.reject(new Error('not typed')));
    const nodes = await saveAndRead(id);
    expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'block', 'paragraph']);
    expect(textOf(nodes[0]!)).toBe('Intro');
    expect(textOf(nodes[2]!)).toBe('Outro');
    expect(nodes[1]).toMatchObject({
      type: 'block',
      format: '',
      version: 2,
      fields: { blockType: 'cta', blockName: '', title: 'Join us', url: '/join' },
    });
    expect(typeof (nodes[1]!.fields as { id: unknown }).id).toBe('string');
  });

  test('an inline block sits inside the paragraph and is edited in a dialog', async () => {
    const id = await openPost(root(paragraph(text('See '))));
    await toolbar().getByRole('button', { name: 'Insert inline block' }).click();
    await page.getByRole('dialog', { name: 'Add a block' }).getByRole('button', { name: 'Callout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Inline block: Callout' });
    await dialog.getByRole('textbox', { name: 'Note' }).focus();
    await page.keyboard.type('the footnote');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await editor().getByRole('button', { name: 'Edit inline block the footnote' }).waitFor();
    const [p] = await saveAndRead(id);
    expect(p!.type).toBe('paragraph');
    expect(p!.children!.map((c) => c.type)).toEqual(['text', 'inlineBlock']);
    expect(p!.children![1]).toMatchObject({
      type: 'inlineBlock',
      fields: { blockType: 'callout', note: 'the footnote' },
    });
  });

  test("the server's error on a block's field is shown on that block, and nothing is stored", async () => {
    const id = await openPost(root(paragraph(text('Start'))));
    await toolbar().getByRole('button', { name: 'Insert block', exact: true }).click();
    await page.getByRole('dialog', { name: 'Add a block' }).getByRole('button', { name: 'Call to action' }).click();
    const box = editor().getByRole('group', { name: /^Block: / });
    await box.getByRole('textbox', { name: 'Title' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('/nowhere');
    const answer = page.waitForResponse((r) => r.url().includes(`/posts/${id}`) && r.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refused = await answer;
    expect(refused.status()).toBe(400);
    const field = ((await refused.json()) as { errors: { field?: string }[] }).errors[0]!.field;
    expect(field).toBe('content.root.children.1.fields.title');
    await box.locator('.field-error').first().waitFor();
    expect(await box.getAttribute('class')).toContain('has-error');
    expect(await box.locator('.error-count').textContent()).toBe('1 error');
    expect(await box.locator(`[data-path="${field}"].has-error`).count()).toBe(1);
    const stored = await t.request('GET', `/posts/${id}?depth=0`, { token: s.token });
    expect(stored.body.content.root.children.map((n: Node) => n.type)).toEqual(['paragraph']);
    await box.getByRole('textbox', { name: 'Title' }).focus();
    await page.keyboard.type('Fixed');
    const nodes = await saveAndRead(id);
    expect(nodes[1]).toMatchObject({ type: 'block', fields: { blockType: 'cta', title: 'Fixed', url: '/nowhere' } });
  });

  test('the link dialog links selected text to a URL in a new tab, and typed text to a document', async () => {
    const id = await openPost(root(paragraph(text('Read the docs'))));
    await page.keyboard.press('Shift+Control+ArrowLeft');
    await toolbar().getByRole('button', { name: 'Link', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add link' });
    await dialog.getByLabel('URL').fill('javascript:alert(1)');
    await dialog.getByRole('button', { name: 'Apply link' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByLabel('URL').fill('https://example.com/docs');
    await dialog.getByLabel('Open in a new tab').check();
    await dialog.getByLabel('URL').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await editor().locator('a', { hasText: 'docs' }).waitFor();
    expect(await toolbar().getByRole('button', { name: 'Link', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    // A document link with nothing selected: the document's title becomes the link's text.
    await page.keyboard.press('End');
    await page.keyboard.type(' and ');
    // The dialog keeps the selection it opens on: it must be after the typed text, not still on the link.
    await editor().filter({ hasText: 'Read the docs and' }).waitFor();
    await toolbar().getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByRole('dialog', { name: 'Add link' }).getByLabel('A document').check();
    await page.getByLabel('Collection').selectOption('pages');
    await page.getByRole('combobox', { name: 'Document' }).fill('About');
    await page.getByRole('option', { name: /About us/ }).click();
    await page.getByRole('button', { name: 'Apply link' }).click();
    await editor().locator('a', { hasText: 'About us' }).waitFor();

    const [p] = await saveAndRead(id);
    const links = p!.children!.filter((c) => c.type === 'link');
    expect(links.map((l) => [textOf(l), l.fields])).toEqual([
      ['docs', { linkType: 'custom', url: 'https://example.com/docs', newTab: true }],
      ['About us', { linkType: 'internal', newTab: false, doc: { relationTo: 'pages', value: pageId } }],
    ]);
    expect(textOf(p!)).toBe('Read the docs and About us');
  });

  test('an image is chosen from the media picker with thumbnails and stored as an upload node', async () => {
    const id = await openPost(root(paragraph(text('Look:'))));
    await toolbar().getByRole('button', { name: 'Insert image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a file' });
    const card = dialog.getByRole('button', { name: /sunset\.png/ });
    await card.locator('img').waitFor();
    await card.click();
    await dialog.waitFor({ state: 'detached' });
    await editor().locator('.rt-embed img').waitFor();
    expect(await editor().locator('.rt-embed img').getAttribute('alt')).toBe('A sunset');
    await page.keyboard.type('After');
    const nodes = await saveAndRead(id);
    expect(nodes.map((n) => n.type)).toContain('upload');
    expect(nodes.find((n) => n.type === 'upload')).toMatchObject({ relationTo: 'media', value: mediaId });
    const html = await t.request('GET', `/posts/${id}?depth=1&richText=html`, { token: s.token });
    expect(html.body.content).toContain('alt="A sunset"');
  });

  test('a document embed is found by searching its collection', async () => {
    const id = await openPost(root(paragraph(text('See'))));
    await toolbar().getByRole('button', { name: 'Insert document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Insert a document' });
    await dialog.getByLabel('Collection').selectOption('pages');
    await dialog.getByRole('combobox', { name: 'Document' }).fill('About');
    await page.getByRole('option', { name: /About us/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await editor().locator('.rt-embed', { hasText: 'pages' }).waitFor();
    const nodes = await saveAndRead(id);
    expect(nodes.find((n) => n.type === 'relationship')).toMatchObject({ relationTo: 'pages', value: pageId });
  });

  test('no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });

  test('at 375 px the toolbar is reachable and nothing scrolls sideways', async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 375, height: 780 });
    const id = await openPost(root(paragraph(text('A long unbroken word: ' + 'x'.repeat(120)))));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    for (const name of ['Bold', 'Bulleted list', 'Link', 'Insert image', 'Undo']) {
      const box = (await toolbar().getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    await page.keyboard.press('Control+a');
    await toolbar().getByRole('button', { name: 'Italic', exact: true }).click();
    await page.screenshot({ path: path.join(SHOTS, 'editor-375.png'), fullPage: true });
    const [first] = await saveAndRead(id);
    expect(first!.children![0]!.format).toBe(2);
    await page.setViewportSize({ width: 1366, height: 900 });
  });
});
