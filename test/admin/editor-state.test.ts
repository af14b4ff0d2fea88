// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The edit form's state in Chromium against a real server: every field editor writes into the form as it is
 * now (typing in rich text after changing other fields keeps them), opening a document changes nothing,
 * the form's own autosaves are not mistaken for someone else's change, text typed around autosaves stays
 * as typed, a lock makes every field and action read-only, Unpublish asks first, the first list opened
 * speaks words rather than catalogue keys, and autosave keeps going while a new block misses a required value.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildAdmin } from '../../admin/build.ts';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { paragraph, root, text } from '../fixtures/richtext/nodes.ts';

const config = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'posts',
      drafts: { autosave: { interval: 300 } },
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'slug', type: 'text' },
        { name: 'content', type: 'richText' },
        {
          name: 'links',
          type: 'array',
          fields: [
            { name: 'label', type: 'text' },
            { name: 'body', type: 'richText' },
          ],
        },
        {
          name: 'seo',
          type: 'group',
          fields: [
            { name: 'title', type: 'text' },
            { name: 'intro', type: 'richText' },
          ],
        },
      ],
    },
    {
      slug: 'articles',
      drafts: true,
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'content', type: 'richText' },
      ],
    },
    {
      slug: 'landings',
      drafts: true,
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'summary', type: 'textarea' },
        { name: 'tags', type: 'text', admin: { position: 'sidebar' } },
        {
          type: 'row',
          fields: [
            { name: 'kicker', type: 'text' },
            { name: 'accent', type: 'text' },
          ],
        },
        { name: 'layout', type: 'blocks', blocks: [{ slug: 'text', fields: [{ name: 'body', type: 'richText' }] }] },
      ],
    },
    {
      slug: 'pages',
      drafts: { autosave: { interval: 300 } },
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        {
          name: 'layout',
          type: 'blocks',
          blocks: [
            { slug: 'text', fields: [{ name: 'body', type: 'richText' }] },
            {
              slug: 'image',
              fields: [
                { name: 'picture', type: 'upload', relationTo: 'media', required: true },
                { name: 'caption', type: 'text' },
              ],
            },
          ],
        },
      ],
    },
  ],
} as unknown as UserConfig;

const GRACE = { name: 'Grace Hopper', email: 'grace@example.com', password: 'correct horse 1' };
const LIN = { name: 'Lin Editor', email: 'lin@example.com', password: 'correct horse 2' };
const STEP = 40_000;

type Node = { type: string; text?: string; children?: Node[] };
const textOf = (node: Node | undefined): string =>
  !node ? '' : node.type === 'text' ? String(node.text) : (node.children ?? []).map(textOf).join('\n');
const richText = (v: unknown) => textOf((v as { root?: Node } | null)?.root);

/** The same Lexical JSON with every object's keys in reverse order, as another editor might have written it. */
function reversedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversedKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reversedKeys(x)]),
    );
  return v;
}

/** Asks `read` until it answers `want` (as toEqual compares), for up to 8 s; then compares once more. */
async function poll<T>(read: () => Promise<T>, want: T): Promise<void> {
  const until = Date.now() + 8_000;
  while (Date.now() < until) {
    if (Bun.deepEquals(await read(), want)) return;
    await Bun.sleep(150);
  }
  expect(await read()).toEqual(want as Awaited<T>);
}

describe.skipIf(!hasChromium())('admin: the edit form keeps what is typed, and looking changes nothing', () => {
  let t: TestServer;
  let s: Session;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;

  const create = async (collection: string, body: Record<string, unknown>, query = '') => {
    const r = await t.request('POST', `/${collection}${query}`, { token: s.token, body });
    expect(r.status).toBe(201);
    return r.body.doc.id as number;
  };
  const readDraft = async (collection: string, id: number) =>
    (await t.request('GET', `/${collection}/${id}?draft=true&depth=0`, { token: s.token })).body;
  /** Waits until the autosave status says a draft was saved, and what followed has settled. */
  const autosaved = async (p: Page = page) => {
    await p
      .getByTestId('autosave-status')
      .filter({ hasText: /autosaved at/i })
      .waitFor();
    await p.waitForLoadState('networkidle');
  };
  const open = async (path: string, heading: string, p: Page = page) => {
    await p.goto(admin(path));
    await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await p.waitForLoadState('networkidle');
  };
  const typeAtEnd = async (selector: string, what: string, p: Page = page) => {
    await p.locator(selector).click();
    await p.keyboard.press('Control+End');
    await p.keyboard.type(what);
  };

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    expect((await t.request('POST', '/users/first-register', { body: { ...GRACE } })).status).toBe(200);
    s = await t.login(GRACE.email, GRACE.password);
    expect((await t.request('POST', '/users', { token: s.token, body: { ...LIN, role: 'editor' } })).status).toBe(201);
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, GRACE));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'a new post: the title and slug typed before the content stay when the content is typed',
    async () => {
      await page.goto(admin('/collections/posts/create'));
      await page.locator('#field-content').waitFor();
      await page.locator('#field-title').fill('Hello world');
      await page.locator('#field-slug').fill('hello-world');
      await typeAtEnd('#field-content', 'x');
      await page.locator('#field-content').filter({ hasText: 'x' }).waitFor();
      expect(await page.locator('#field-title').inputValue()).toBe('Hello world');
      expect(await page.locator('#field-slug').inputValue()).toBe('hello-world');
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.waitForURL(/\/collections\/posts\/\d+$/);
      const id = Number(page.url().split('/').pop());
      const stored = await readDraft('posts', id);
      expect(stored.title).toBe('Hello world');
      expect(stored.slug).toBe('hello-world');
      expect(richText(stored.content)).toBe('x');
    },
    STEP,
  );

  test(
    'a page: a block added and the title changed stay when an existing block’s rich text is typed in',
    async () => {
      const id = await create('pages', {
        title: 'Home',
        layout: [{ blockType: 'text', body: root(paragraph(text('Welcome'))) }],
      });
      await open(`/collections/pages/${id}`, 'Home');
      await page.getByRole('button', { name: 'Add another block' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Text' }).click();
      await page.locator('#field-layout-1-body').waitFor();
      await page.locator('#field-title').fill('Home page');
      await typeAtEnd('#field-layout-0-body', ' all');
      await page.locator('#field-layout-0-body').filter({ hasText: 'Welcome all' }).waitFor();
      expect(await page.locator('#field-title').inputValue()).toBe('Home page');
      expect(await page.locator('#field-layout-1-body').count()).toBe(1);
      await autosaved();
      await poll(async () => {
        const d = await readDraft('pages', id);
        return [d.title, d.layout.length, richText(d.layout[0].body)];
      }, ['Home page', 2, 'Welcome all']);
    },
    STEP,
  );

  test(
    'arrays and groups: a value changed in one stays when rich text in another is typed in',
    async () => {
      const id = await create('posts', {
        title: 'Nested',
        links: [{ label: 'One', body: root(paragraph(text('Link body'))) }],
        seo: { title: '', intro: root(paragraph(text('Intro'))) },
      });
      await open(`/collections/posts/${id}`, 'Nested');
      await page.locator('#field-seo-title').fill('SEO title');
      await typeAtEnd('#field-links-0-body', ' more');
      await page.locator('#field-links-0-body').filter({ hasText: 'Link body more' }).waitFor();
      expect(await page.locator('#field-seo-title').inputValue()).toBe('SEO title');
      await page.locator('#field-links-0-label').fill('Uno');
      await typeAtEnd('#field-seo-intro', ' too');
      await page.locator('#field-seo-intro').filter({ hasText: 'Intro too' }).waitFor();
      expect(await page.locator('#field-links-0-label').inputValue()).toBe('Uno');
      expect(await page.locator('#field-seo-title').inputValue()).toBe('SEO title');
      await page.locator('#field-title').fill('Nested, edited');
      await typeAtEnd('#field-content', 'Body');
      expect(await page.locator('#field-title').inputValue()).toBe('Nested, edited');
      await autosaved();
      await poll(async () => {
        const d = await readDraft('posts', id);
        return [d.title, d.seo.title, richText(d.seo.intro), d.links[0].label, richText(d.links[0].body)];
      }, ['Nested, edited', 'SEO title', 'Intro too', 'Uno', 'Link body more']);
    },
    STEP,
  );

  test(
    'opening a document with rich text stored in another key order leaves it clean and saves nothing',
    async () => {
      const content = reversedKeys(root(paragraph(text('Stored '), text('bold', 1)), paragraph(text('Second'))));
      const articleId = await create('articles', { title: 'Keys', content });
      await open(`/collections/articles/${articleId}`, 'Keys');
      await page.locator('#field-content').filter({ hasText: 'Second' }).waitFor();
      await page.waitForTimeout(600);
      expect(await page.getByText('Unsaved changes').count()).toBe(0);
      // A version whose rich text differs from the next only in key order is not "changed" there.
      const plain = root(paragraph(text('Stored '), text('bold', 1)), paragraph(text('Second')));
      const body = { title: 'Keys, renamed', content: plain };
      expect((await t.request('PATCH', `/articles/${articleId}?draft=true`, { token: s.token, body })).status).toBe(
        200,
      );
      await open(`/collections/articles/${articleId}`, 'Keys, renamed');
      await page.locator('ol.versions li').nth(1).getByRole('button').first().click();
      const viewer = page.getByRole('dialog');
      await viewer.locator('table.diff').waitFor();
      expect(
        await viewer.locator('tr.changed').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-field'))),
      ).toEqual(['title']);
      await viewer.getByRole('button', { name: 'Close' }).first().click();

      const postId = await create('posts', { title: 'Quiet', content, seo: { intro: content } });
      const before = (await t.request('GET', `/posts/${postId}/versions`, { token: s.token })).body.totalDocs;
      const writes: string[] = [];
      const onRequest = (r: { method(): string; url(): string }) => {
        // The lock's own requests are not writes of the document.
        if (r.method() !== 'GET' && new RegExp(`/posts/${postId}(\\?|$)`).test(r.url()))
          writes.push(`${r.method()} ${r.url()}`);
      };
      page.on('request', onRequest);
      try {
        await open(`/collections/posts/${postId}`, 'Quiet');
        await page.locator('#field-content').filter({ hasText: 'Second' }).waitFor();
        await page.waitForTimeout(1_500);
      } finally {
        page.off('request', onRequest);
      }
      expect(writes).toEqual([]);
      expect(await page.getByTestId('autosave-status').textContent()).toBe('');
      expect((await t.request('GET', `/posts/${postId}/versions`, { token: s.token })).body.totalDocs).toBe(before);
    },
    STEP,
  );

  test(
    'the form’s own autosave is not reported as a change made in another window',
    async () => {
      const id = await create('posts', { title: 'Echo', content: root(paragraph(text('Body'))) });
      await open(`/collections/posts/${id}`, 'Echo');
      for (const word of [' one', ' two', ' three']) {
        await typeAtEnd('#field-title', word);
        // Long enough for the autosave to start, and typing again while its echo comes back.
        await page.waitForTimeout(450);
        await typeAtEnd('#field-content', word);
        await page.waitForTimeout(450);
      }
      await autosaved();
      await page.waitForTimeout(800);
      expect(await page.getByText('in another window').count()).toBe(0);
      expect(await page.getByText(/Changed by/).count()).toBe(0);
      const stored = await readDraft('posts', id);
      expect([stored.title, richText(stored.content)]).toEqual(['Echo one two three', 'Body one two three']);
    },
    STEP,
  );

  test('typing around autosaves keeps the text as typed, in the editor and stored', async () => {
    const id = await create('posts', { title: 'Rounds', content: root(paragraph(text('Start.'))) });
    await open(`/collections/posts/${id}`, 'Rounds');
    const typed: string[] = [];
    await page.locator('#field-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- ');
    for (let round = 1; round <= 6; round++) {
      const line = `Round ${round} has a few words`;
      if (round > 1) await page.keyboard.press('Enter');
      for (const word of line.split(' ')) {
        await page.keyboard.type(`${word} `, { delay: 15 });
        // Pauses around the autosave interval, so saves start and their echoes arrive mid-word.
        if (word.length > 3) await page.waitForTimeout(260 + round * 20);
      }
      typed.push(`${line} `);
    }
    await autosaved();
    await page.waitForTimeout(600);
    const shown = await page
      .locator('#field-content')
      .evaluate((el) => [...el.querySelectorAll('p, li')].map((p) => p.textContent ?? ''));
    expect(shown).toEqual(['Start.', ...typed]);
    await poll(async () => richText((await readDraft('posts', id)).content), ['Start.', typed.join('\n')].join('\n'));
  }, 60_000);

  test(
    'a change saved elsewhere reaches rich text without the focus, never the text being typed in',
    async () => {
      const id = await create('posts', { title: 'Shared', content: root(paragraph(text('Alpha'))) });
      await open(`/collections/posts/${id}`, 'Shared');
      await page.locator('#field-slug').click();
      const elsewhere = async (words: string) =>
        expect(
          (
            await t.request('PATCH', `/posts/${id}?draft=true`, {
              token: s.token,
              body: { content: root(paragraph(text(words))) },
            })
          ).status,
        ).toBe(200);
      await elsewhere('Beta');
      await page.locator('#field-content').filter({ hasText: 'Beta' }).waitFor();

      await typeAtEnd('#field-content', ' one');
      await elsewhere('Gamma');
      await page.waitForTimeout(400);
      await page.keyboard.type(' two');
      await page.waitForTimeout(400);
      expect(await page.locator('#field-content').textContent()).toBe('Beta one two');
    },
    STEP,
  );

  test(
    'a lock makes every field and action read-only for the other editor, and Unpublish asks first',
    async () => {
      const id = await create('posts', { title: 'Locked', content: root(paragraph(text('Live text'))) }, '');
      expect((await t.request('PATCH', `/posts/${id}`, { token: s.token, body: { status: 'published' } })).status).toBe(
        200,
      );
      expect(
        (await t.request('PATCH', `/posts/${id}?draft=true`, { token: s.token, body: { slug: 'pending' } })).status,
      ).toBe(200);
      await open(`/collections/posts/${id}`, 'Locked');
      const other = await openAdminLoggedIn(t, LIN);
      try {
        const p2 = other.page;
        await open(`/collections/posts/${id}`, 'Locked', p2);
        await p2.getByText('Grace Hopper is editing').waitFor();
        expect(await p2.locator('#field-content').getAttribute('contenteditable')).toBe('false');
        await p2.locator('#field-content').click();
        await p2.keyboard.type('intruder');
        await p2.waitForTimeout(300);
        expect(await p2.locator('#field-content').textContent()).toBe('Live text');
        for (const name of ['Unpublish', 'Discard draft', 'Save draft', 'Publish changes'])
          expect([name, await p2.getByRole('button', { name, exact: true }).isDisabled()]).toEqual([name, true]);
        await p2.getByRole('button', { name: 'More actions' }).click();
        for (const name of ['Duplicate', 'Copy to locale', 'Delete'])
          expect([name, await p2.getByRole('button', { name, exact: true }).isDisabled()]).toEqual([name, true]);
      } finally {
        await other.browser.close();
      }
      expect((await t.request('GET', `/posts/${id}?depth=0`, { token: s.token })).body.status).toBe('published');

      await page.getByRole('button', { name: 'Unpublish', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await t.request('GET', `/posts/${id}?depth=0`, { token: s.token })).body.status).toBe('published');
      await page.getByRole('button', { name: 'Unpublish', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Unpublish' }).click();
      await poll(async () => (await t.request('GET', `/posts/${id}?depth=0`, { token: s.token })).body.status, 'draft');
    },
    STEP,
  );

  test(
    'the first list opened in a fresh browser shows words, not catalogue keys',
    async () => {
      await create('posts', { title: 'Shown live', status: 'published' });
      const id = await create('posts', { title: 'Has pending', status: 'published' });
      await t.request('PATCH', `/posts/${id}?draft=true`, { token: s.token, body: { slug: 'x' } });
      const fresh = await openAdminLoggedIn(t, GRACE);
      try {
        const p = fresh.page;
        await p.getByRole('link', { name: 'Posts' }).first().click();
        await p.getByRole('link', { name: 'Has pending' }).waitFor();
        await p.waitForLoadState('networkidle');
        // The rendered text, a line a badge: keys would read "drafts.published".
        // biome-ignore lint/performance/useDomNodeTextContent: textContent runs the badges' words together
        const body = await p.locator('main').evaluate((el) => (el as HTMLElement).innerText);
        expect(body.match(/\b[a-z]+\.[a-z][a-zA-Z]+\b/gi) ?? []).toEqual([]);
        expect(body).toContain('Published');
      } finally {
        await fresh.browser.close();
      }
    },
    STEP,
  );

  // Needs the server to save drafts without their required checks (as Payload does); until then the
  // autosave is answered 400 and this fails at the first wait.
  test(
    'autosave keeps saving while a new block misses a required value, and shows what is missing',
    async () => {
      const id = await create('pages', { title: 'Gallery' });
      await open(`/collections/pages/${id}`, 'Gallery');
      await page.getByRole('button', { name: 'Add a block' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Image' }).click();
      await page.locator('#field-layout-0-caption').fill('A caption');
      await page.locator('#field-title').fill('Gallery, edited');
      await autosaved();
      await poll(async () => {
        const d = await readDraft('pages', id);
        return [d.title, d.layout?.[0]?.caption];
      }, ['Gallery, edited', 'A caption']);
      // Publishing will ask for the picture: the form says so before anyone presses Publish.
      const needed = page.locator('.missing-before-publish');
      await needed.getByRole('link', { name: 'Layout › row 1 › Picture' }).waitFor();
      expect(await needed.getByRole('link').count()).toBe(1);
    },
    STEP,
  );

  test(
    'a key in the title renders the title’s editor and the heading, not the other fields or the page around them',
    async () => {
      const id = await create('landings', {
        title: 'Landing',
        summary: 'Short',
        layout: ['One', 'Two', 'Three'].map((w) => ({ blockType: 'text', body: root(paragraph(text(w))) })),
      });
      // A development build counts every component's renders (admin/src/render-count.ts); a production
      // build leaves that out, so this page loads the development build's scripts in its place.
      const dir = mkdtempSync(join(tmpdir(), 'cms-admin-dev-'));
      const dev = await buildAdmin({ outdir: dir, dev: true });
      const main = dev.files.find((f) => /^assets\/main-[^/]+\.js$/.test(f.path))!.path;
      const p = await browser.context.newPage();
      try {
        await p.route('**/admin/assets/*.js', (route) => {
          const name = basename(new URL(route.request().url()).pathname);
          const file = name.startsWith('main-') ? join(dir, main) : join(dir, 'assets', name);
          return existsSync(file)
            ? route.fulfill({ body: readFileSync(file), contentType: 'text/javascript' })
            : route.continue();
        });
        await open(`/collections/landings/${id}`, 'Landing', p);
        await p.locator('#field-layout-2-body').waitFor();
        // The first key makes the form dirty, which the page around it shows once; count the keys after it.
        await typeAtEnd('#field-title', '!', p);
        await p.getByRole('heading', { name: 'Landing!', level: 1 }).waitFor();
        await p.waitForTimeout(300);
        await p.evaluate(() => {
          const counts = (window as unknown as { __cmsRenders: Record<string, number> }).__cmsRenders;
          for (const k of Object.keys(counts)) delete counts[k];
        });
        for (const key of 'abcd') {
          await p.keyboard.type(key);
          await p.waitForTimeout(50);
        }
        await p.getByRole('heading', { name: 'Landing!abcd', level: 1 }).waitFor();
        await p.waitForTimeout(300);
        const counts: Record<string, number> = await p.evaluate(
          () => (window as unknown as { __cmsRenders: Record<string, number> }).__cmsRenders,
        );
        const named = (re: RegExp) => Object.keys(counts).filter((k) => re.test(k));
        // Components of a field carry its path: only the title's rendered, once a key.
        expect(named(/@/).filter((k) => !k.endsWith('@title'))).toEqual([]);
        expect(named(/^TextInput\d*@title$/).map((k) => counts[k])).toEqual([4]);
        // Nor did the form, its field lists, the column beside it or the view around them.
        expect(named(/^(EditView|FieldList|Fields|SidebarFields|DocumentAside|EditActions)\d*$/)).toEqual([]);
      } finally {
        await p.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    STEP,
  );

  test('no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
