// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin's finish in Chromium, grouped by page: a phone does not scroll sideways on a page with a media
 * block; German shows German words (no English left in buttons and counts, badges as the catalogue writes
 * them); the dark theme's primary button is readable; the version viewer shows rich text as text and uploads
 * as pictures; the media page works by keyboard; the rich text editor's toolbar is one tab stop of icons named
 * as they show, and its link dialog offers content collections and keeps what was linked.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium } from '../browser.ts';
import { openAdminLoggedIn, type AdminPage } from '../support/admin-page.ts';
import { form, png } from '../support/media-fixtures.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { block, paragraph, root, text, upload } from '../fixtures/richtext/nodes.ts';

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'correct horse 2' };

/** WCAG contrast of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe.skipIf(!hasChromium())('admin polish', () => {
  let t: TestServer;
  let s: Session;
  let mediaId: number;
  let pageId: number;
  let postId: number;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'pages',
          drafts: true,
          search: { fields: ['title'] },
          admin: { useAsTitle: 'title' },
          livePreview: { url: ({ doc }) => `http://127.0.0.1:9/pages/${String(doc.id)}` },
          fields: [
            { name: 'title', type: 'text' },
            {
              name: 'layout',
              type: 'blocks',
              blocks: [
                {
                  slug: 'mediaBlock',
                  labels: { singular: 'Media', plural: 'Media' },
                  fields: [{ name: 'media', type: 'upload', relationTo: 'media' }],
                },
              ],
            },
            { name: 'links', type: 'array', fields: [{ name: 'label', type: 'text' }] },
          ],
        },
        {
          slug: 'posts',
          drafts: true,
          trash: true,
          admin: { useAsTitle: 'title' },
          fields: [
            { name: 'title', type: 'text' },
            { name: 'hero', type: 'upload', relationTo: 'media' },
            { name: 'content', type: 'richText' },
          ],
        },
        {
          slug: 'notes',
          admin: { useAsTitle: 'title' },
          fields: [
            { name: 'title', type: 'text' },
            {
              name: 'content',
              type: 'richText',
              blocks: [{ slug: 'callout', fields: [{ name: 'note', type: 'text' }] }],
            },
            { name: 'see', type: 'relationship', relationTo: 'pages', admin: { position: 'sidebar' } },
          ],
        },
        {
          slug: 'articles',
          drafts: { autosave: { interval: 200 } },
          admin: { useAsTitle: 'title' },
          livePreview: { url: ({ doc }) => `http://127.0.0.1:9/articles/${String(doc.id)}` },
          fields: [{ name: 'title', type: 'text', localized: true }],
        },
        { slug: 'media', folders: true, fields: [] },
      ],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    const image = await t.request('POST', '/media', {
      token: s.token,
      body: form(await png(1600, 900), 'harbour.png', { alt: 'The harbour at dusk' }, 'image/png'),
    });
    expect(image.status).toBe(201);
    mediaId = image.body.doc.id;
    const made = await t.request('POST', '/pages', {
      token: s.token,
      body: {
        title: 'Home',
        layout: [{ blockType: 'mediaBlock', media: mediaId }],
        links: [{ label: 'One' }, { label: 'Two' }],
      },
    });
    expect(made.status).toBe(201);
    pageId = made.body.doc.id;
    const post = await t.request('POST', '/posts', {
      token: s.token,
      body: { title: 'Harbour', content: root(paragraph(text('Boats at rest.'))) },
    });
    postId = post.body.doc.id;
    const second = await t.request('PATCH', `/posts/${postId}`, {
      token: s.token,
      body: {
        hero: mediaId,
        content: root(paragraph(text('Boats at rest.')), paragraph(text('Gulls ', 0), text('overhead', 1))),
      },
    });
    expect(second.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
  });

  async function open(
    options: Parameters<typeof openAdminLoggedIn>[2],
    run: (page: Page, o: AdminPage) => Promise<void>,
  ) {
    let opened: AdminPage | undefined;
    try {
      opened = await openAdminLoggedIn(t, ADMIN, options);
      await run(opened.page, opened);
      expect(opened.pageErrors).toEqual([]);
    } finally {
      await opened?.browser.close();
    }
  }

  test('a page with a media block does not scroll sideways at 375 px', async () => {
    await open({ viewport: { width: 375, height: 800 } }, async (page) => {
      await page.goto(`${t.url}/admin/collections/pages/${pageId}`);
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      await page.locator('.blocks-field, [data-row]').first().waitFor();
      await page.waitForTimeout(300);
      const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
      expect(width).toBeLessThanOrEqual(375);
    });
  }, 30_000);

  test('in German the edit page shows German buttons, counts and badges as written', async () => {
    await open({}, async (page) => {
      await page.evaluate(() => localStorage.setItem('cms-language', 'de'));
      await page.goto(`${t.url}/admin/collections/pages/${pageId}`);
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      await page.getByRole('button', { name: 'Live-Vorschau' }).waitFor();
      expect(await page.getByRole('button', { name: 'Live preview' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Preview$/ }).count()).toBe(0);
      const main = await page.locator('main').textContent();
      expect(main).toContain('2 Zeilen');
      expect(main).not.toMatch(/\b2 rows\b/);
      const badges = await page
        .locator('.badge')
        .evaluateAll((els) => els.map((e) => getComputedStyle(e).textTransform));
      expect(badges.length).toBeGreaterThan(0);
      expect(badges.every((v) => v === 'none')).toBe(true);
      // The palette's key hint in the side bar shows whole.
      const hint = await page.locator('.palette-button kbd').evaluate((kbd) => {
        const box = kbd.getBoundingClientRect();
        const button = kbd.closest('button')!.getBoundingClientRect();
        const nav = kbd.closest('nav, .sidebar')!.getBoundingClientRect();
        return {
          inside: box.left >= button.left && box.right <= button.right && box.right <= nav.right,
          whole: kbd.scrollWidth <= kbd.clientWidth + 1 && box.height < 30,
          text: kbd.textContent,
        };
      });
      expect(hint).toEqual({ inside: true, whole: true, text: 'Ctrl K' });
    });
  }, 30_000);

  test('the dark theme primary button reads at 4.5:1 or more', async () => {
    await open({ colorScheme: 'dark' }, async (page) => {
      await page.goto(`${t.url}/admin/collections/posts/create`);
      const button = page.locator('button.primary').first();
      await button.waitFor();
      const { color, background } = await button.evaluate((b) => ({
        color: getComputedStyle(b).color,
        background: getComputedStyle(b).backgroundColor,
      }));
      expect(contrast(color, background)).toBeGreaterThanOrEqual(4.5);
    });
  }, 30_000);

  test('the version viewer shows rich text as text with changes marked, and uploads as pictures', async () => {
    await open({}, async (page) => {
      await page.goto(`${t.url}/admin/collections/posts/${postId}`);
      await page.getByRole('heading', { name: 'Harbour' }).waitFor();
      const versions = page.locator('ol.versions li');
      await versions.nth(1).waitFor();
      await versions.nth(1).getByRole('button').first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const content = dialog.locator('tr[data-field="content"]');
      await content.waitFor();
      const shown = await content.textContent();
      expect(shown).not.toContain('"root"');
      expect(shown).toContain('Boats at rest.');
      // The newer version (compared against) added the second paragraph, in bold in part.
      await content.locator('ins').filter({ hasText: 'Gulls' }).waitFor();
      await content.locator('strong', { hasText: 'overhead' }).waitFor();
      const hero = dialog.locator('tr[data-field="hero"]');
      await hero.getByRole('img', { name: 'The harbour at dusk' }).waitFor();
      expect(await hero.textContent()).not.toMatch(/^\s*\d+\s*$/m);
    });
  }, 30_000);

  test('the media page replaces the file and moves the focal point by keyboard', async () => {
    await open({}, async (page) => {
      await page.goto(`${t.url}/admin/collections/media/${mediaId}`);
      const replace = page.getByRole('button', { name: 'Replace file' });
      await replace.waitFor();
      // The focal point and crop are edited on the image, not as raw fields below it.
      await page.getByLabel('Alt').waitFor();
      expect(await page.locator('[data-path="focalX"], [data-path="focalY"], [data-path="crop"]').count()).toBe(0);
      const chooser = page.waitForEvent('filechooser');
      await replace.press('Enter');
      await chooser;
      const focal = page.getByRole('slider', { name: /Focal point/ });
      await focal.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await page.getByText('Focal point saved').first().waitFor();
      const stored = await t.request('GET', `/media/${mediaId}`, { token: s.token });
      expect([stored.body.focalX, stored.body.focalY]).toEqual([60, 45]);
    });
  }, 30_000);

  type Node = { type: string; text?: string; children?: Node[]; [key: string]: unknown };
  const textOf = (node: Node): string =>
    node.type === 'text' ? String(node.text) : (node.children ?? []).map(textOf).join('');

  /** A note with this content, opened; answers its id. */
  async function openNote(page: Page, content: unknown): Promise<number> {
    const made = await t.request('POST', '/notes', { token: s.token, body: { title: 'Note', content } });
    expect(made.status).toBe(201);
    await page.goto(`${t.url}/admin/collections/notes/${made.body.doc.id}`);
    await page.getByRole('textbox', { name: 'Content' }).waitFor();
    return made.body.doc.id;
  }

  async function saveAndRead(page: Page, id: number): Promise<Node[]> {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /(?<![a-z])saved/i })
      .waitFor();
    const stored = await t.request('GET', `/notes/${id}?depth=0`, { token: s.token });
    return (stored.body.content?.root.children ?? []) as Node[];
  }

  test('the rich text toolbar is one tab stop of icons named as they show; links go to content', async () => {
    await open({}, async (page) => {
      const id = await openNote(page, root(paragraph(text('Read the docs'))));
      const editor = page.getByRole('textbox', { name: 'Content' });
      const toolbar = page.getByRole('toolbar', { name: 'Content: formatting' });
      const buttons = await toolbar.getByRole('button').evaluateAll((els) =>
        els.map((b) => ({
          name: b.getAttribute('aria-label'),
          text: (b.textContent ?? '').trim(),
          icon: b.querySelector('svg') !== null,
          tab: (b as HTMLElement).tabIndex,
        })),
      );
      expect(buttons.map((b) => b.name)).toEqual([
        'Heading 1',
        'Heading 2',
        'Heading 3',
        'Bold',
        'Italic',
        'Underline',
        'Strikethrough',
        'Code',
        'Bulleted list',
        'Numbered list',
        'Checklist',
        'Quote',
        'Link',
        'Insert image',
        'Insert document',
        'Insert block',
        'Insert inline block',
        'Undo',
        'Redo',
      ]);
      // Drawn, not written: no characters whose look depends on an emoji font, nothing to mismatch the name.
      expect(buttons.filter((b) => b.text !== '' || !b.icon)).toEqual([]);
      expect(buttons.filter((b) => b.tab === 0).map((b) => b.name)).toEqual(['Heading 1']);

      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
      // The page moves the focus to its heading in a frame after it renders, and the click's caret reaches
      // the editor in an update of its own: both done before the key, so that neither lands after it on a
      // busy machine.
      const frames = () =>
        page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await frames();
      await editor.click();
      await page.waitForFunction(() => {
        const active = document.activeElement;
        return active?.getAttribute('aria-label') === 'Content' && active.contains(getSelection()?.anchorNode ?? null);
      });
      await frames();
      await page.keyboard.press('Shift+Tab');
      expect(await focused()).toBe('Heading 1');
      await page.keyboard.press('ArrowRight');
      expect(await focused()).toBe('Heading 2');
      await page.keyboard.press('End');
      expect(await focused()).toBe('Insert inline block');
      await page.keyboard.press('Shift+Tab');
      expect(await toolbar.evaluate((el) => el.contains(document.activeElement))).toBe(false);

      // A link applied to selected text: the very next key types after it, never over it.
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Shift+Control+ArrowLeft');
      await toolbar.getByRole('button', { name: 'Link', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add link' });
      await dialog.getByLabel('URL').fill('https://example.com/docs');
      await dialog.getByLabel('URL').press('Enter');
      await page.keyboard.type('!');
      await editor.locator('a', { hasText: 'docs' }).waitFor();
      expect(await editor.textContent()).toBe('Read the docs!');

      // The document dialog starts on the first content collection and offers no accounts, keys or folders.
      await page.keyboard.type(' See ');
      await toolbar.getByRole('button', { name: 'Link', exact: true }).click();
      await dialog.getByLabel('A document').check();
      const collection = dialog.getByLabel('Collection');
      expect(await collection.locator('option').allTextContents()).toEqual([
        'Pages',
        'Posts',
        'Notes',
        'Articles',
        'Media',
      ]);
      expect(await collection.inputValue()).toBe('pages');
      await dialog.getByRole('combobox', { name: 'Document' }).fill('Home');
      await page.getByRole('option', { name: /Home/ }).click();
      await dialog.getByRole('button', { name: 'Apply link' }).click();
      const internal = editor.locator('a', { hasText: 'Home' });
      await internal.waitFor();
      expect(await internal.getAttribute('href')).toBe(`/admin/collections/pages/${pageId}`);
      await editor.locator('a[title="Links to Home"]').waitFor();
      const [p] = await saveAndRead(page, id);
      expect(textOf(p!)).toBe('Read the docs! See Home');
    });
  }, 60_000);

  test('blocks and images in text: named images, a line after the last block, removal undone', async () => {
    await open({}, async (page) => {
      const id = await openNote(
        page,
        root(
          paragraph(text('Intro')),
          upload(mediaId),
          block({ id: 'c1', blockType: 'callout', note: 'Mind the gap' }),
        ),
      );
      const editor = page.getByRole('textbox', { name: 'Content' });
      await editor.locator('.rt-embed', { hasText: 'Image: The harbour at dusk' }).waitFor();
      await editor.getByRole('img', { name: 'The harbour at dusk' }).waitFor();

      // Removing a block is undone by Ctrl+Z, where the focus goes.
      const box = editor.getByRole('group', { name: 'Block: Mind the gap' });
      await box.waitFor();
      await box.getByRole('button', { name: /Remove block/ }).click();
      await box.waitFor({ state: 'detached' });
      await page.keyboard.press('Control+z');
      await box.waitFor();
      // Down from the end of the text before the trailing blocks: a new line after them, where typing goes.
      await editor.getByText('Intro').click();
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowDown');
      await editor.locator('.rt-block-embed + p').waitFor();
      await page.keyboard.type('After');
      await editor.locator('.rt-block-embed + p', { hasText: 'After' }).waitFor();
      const nodes = await saveAndRead(page, id);
      expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'upload', 'block', 'paragraph']);
      expect(textOf(nodes[3]!)).toBe('After');
    });
  }, 60_000);

  test('selected text gets a floating toolbar; "/" offers blocks and elements by keyboard', async () => {
    await open({}, async (page) => {
      const id = await openNote(page, root(paragraph(text('Calm water'))));
      const editor = page.getByRole('textbox', { name: 'Content' });
      const floating = page.getByRole('toolbar', { name: 'Content: selected text' });
      await editor.click();
      await page.keyboard.press('Control+End');
      expect(await floating.count()).toBe(0);
      await page.keyboard.press('Shift+Control+ArrowLeft');
      await floating.waitFor();
      expect(
        await floating.getByRole('button').evaluateAll((els) => els.map((b) => b.getAttribute('aria-label'))),
      ).toEqual(['Bold', 'Italic', 'Underline', 'Code', 'Link']);
      await floating.getByRole('button', { name: 'Bold' }).click();
      await editor.locator('.rt-bold', { hasText: 'water' }).waitFor();
      await page.keyboard.press('End');
      await floating.waitFor({ state: 'detached' });

      await page.keyboard.press('Enter');
      await page.keyboard.type('/head');
      const menu = page.getByRole('listbox', { name: 'Insert' });
      await menu.waitFor();
      expect(await menu.getByRole('option').allTextContents()).toEqual(['Heading 1', 'Heading 2', 'Heading 3']);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'detached' });
      await page.keyboard.type('Tides');
      await editor.locator('h2', { hasText: 'Tides' }).waitFor();
      await page.keyboard.press('Enter');
      await page.keyboard.type('/call');
      await menu.getByRole('option', { name: 'Callout' }).waitFor();
      await page.keyboard.press('Enter');
      const box = editor.getByRole('group', { name: /^Block: / });
      await box.getByRole('textbox', { name: 'Note' }).waitFor();
      const nodes = await saveAndRead(page, id);
      // The block takes the line the "/" was typed on; the caret goes to a new line after it.
      expect(nodes.map((n) => n.type)).toEqual(['paragraph', 'heading', 'block', 'paragraph']);
      expect(nodes[1]).toMatchObject({ tag: 'h2' });
      expect(textOf(nodes[1]!)).toBe('Tides');
      expect(nodes.map(textOf).join('|')).not.toContain('/');
    });
  }, 60_000);

  test('a relationship in the side column has room, and Enter picks the only match', async () => {
    await open({}, async (page) => {
      const id = await openNote(page, null);
      const search = page.getByRole('combobox', { name: 'See' });
      await search.waitFor();
      expect((await search.boundingBox())!.width).toBeGreaterThan(200);
      await search.fill('Home');
      await page.getByRole('option', { name: /Home/ }).waitFor();
      await search.press('Enter');
      await page.getByRole('option', { name: /Home/ }).waitFor({ state: 'detached' });
      await saveAndRead(page, id);
      const stored = await t.request('GET', `/notes/${id}?depth=0`, { token: s.token });
      expect(stored.body.see).toBe(pageId);
    });
  }, 60_000);

  test('the German header stays one line at 1366 px and drops "autosaved" once published', async () => {
    const made = await t.request('POST', '/articles', { token: s.token, body: { title: 'Ebbe' } });
    await open({ viewport: { width: 1366, height: 900 } }, async (page) => {
      await page.evaluate(() => localStorage.setItem('cms-language', 'de'));
      await page.goto(`${t.url}/admin/collections/articles/${made.body.doc.id}`);
      const title = page.getByRole('textbox', { name: 'Title' });
      await title.fill('Ebbe und Flut');
      const status = page.getByTestId('autosave-status');
      await status.filter({ hasText: 'Entwurf automatisch gespeichert' }).waitFor();
      const rows = await page
        .locator('.edit-head .actions > *')
        .evaluateAll((els) => [
          ...new Set(els.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))),
        ]);
      expect(rows.length).toBe(1);
      const right = await page.locator('.edit-head .actions').evaluate((e) => e.getBoundingClientRect().right);
      expect(right).toBeLessThanOrEqual(1366);
      await page.getByRole('button', { name: 'Veröffentlichen', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Veröffentlicht' }).first().waitFor();
      await expect(status.filter({ hasText: 'automatisch gespeichert' }).count()).resolves.toBe(0);
    });
  }, 60_000);

  test('the audit log names documents by title and people by name, and a restore from trash as one', async () => {
    const made = await t.request('POST', '/posts', { token: s.token, body: { title: 'Lighthouse' } });
    const id = made.body.doc.id;
    expect((await t.request('DELETE', `/posts/${id}`, { token: s.token })).status).toBe(200);
    const back = await t.request('PATCH', `/posts/${id}?trash=true`, { token: s.token, body: { deletedAt: null } });
    expect(back.status).toBe(200);
    await open({}, async (page) => {
      await page.goto(`${t.url}/admin/operations/audit?collection=posts&document=${id}`);
      const rows = page.locator('table.audit-table tbody tr');
      await rows.first().getByRole('link', { name: 'Lighthouse' }).waitFor();
      const shown = await rows.evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll('td')]
            .slice(1, 4)
            .map((td) => (td.querySelector('.badge, a') ?? td).firstChild?.textContent),
        ),
      );
      expect(shown.map((r) => r[0])).toEqual(['Restore', 'Delete', 'Create']);
      expect(shown[0]).toEqual(['Restore', 'Lighthouse', 'Ada']);
      expect(JSON.stringify(shown)).not.toContain('ada@example.com');
      expect(JSON.stringify(shown)).not.toContain(`#${id}`);
    });
  }, 60_000);
});
