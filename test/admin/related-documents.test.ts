// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * Related documents without raw ids or leaving the form, in Chromium at a laptop and a phone width: a list
 * filtered by a relationship through the document picker (typed name, chips by title after a reload, the
 * address keeping ids), and the related-document drawer (edit the chosen author, create a category from the
 * picker) while the post's unsaved edits stay (docs/admin.md).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium } from '../browser.ts';
import { openAdminLoggedIn, type AdminPage } from '../support/admin-page.ts';
import { startTestServer, type TestServer } from '../harness.ts';

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'correct horse 2' };

describe.skipIf(!hasChromium())('admin related documents', () => {
  let t: TestServer;
  let token: string;
  const authors: Record<string, number> = {};

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({
      collections: [
        { slug: 'authors', admin: { useAsTitle: 'name' }, fields: [{ name: 'name', type: 'text', required: true }] },
        { slug: 'categories', admin: { useAsTitle: 'name' }, fields: [{ name: 'name', type: 'text', required: true }] },
        {
          slug: 'posts',
          admin: { useAsTitle: 'title' },
          fields: [
            { name: 'title', type: 'text' },
            { name: 'author', type: 'relationship', relationTo: 'authors' },
            { name: 'category', type: 'relationship', relationTo: 'categories' },
          ],
        },
      ],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    token = (await t.login(ADMIN.email, ADMIN.password)).token;
    for (const name of ['Grace Hopper', 'Alan Turing', 'Barbara Liskov', 'Edsger Dijkstra'])
      authors[name] = (await t.request('POST', '/authors', { token, body: { name } })).body.doc.id;
    const posts: [string, string][] = [
      ['Compilers', 'Grace Hopper'],
      ['COBOL', 'Grace Hopper'],
      ['Computable numbers', 'Alan Turing'],
      ['Substitution', 'Barbara Liskov'],
      ['Shortest paths', 'Edsger Dijkstra'],
    ];
    for (const [title, author] of posts)
      await t.request('POST', '/posts', { token, body: { title, author: authors[author] } });
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
  });

  const rowTitles = (page: AdminPage['page']) =>
    page
      .locator('table tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.querySelector('a')?.textContent?.trim() ?? ''));

  for (const width of [1366, 375]) {
    test(`a list is filtered by authors picked by name, and a reload keeps them by name at ${width} px`, async () => {
      let opened: AdminPage | undefined;
      try {
        opened = await openAdminLoggedIn(t, ADMIN, { viewport: { width, height: 860 } });
        const { page, pageErrors } = opened;
        await page.goto(`${t.url}/admin/collections/posts`);
        await page.getByText('5 documents').waitFor();
        await page.getByRole('button', { name: 'Filters' }).click();
        const panel = page.getByRole('form', { name: 'Filters' });
        await panel.getByRole('button', { name: 'Add a filter' }).click();
        await panel.getByLabel('Field of filter 1').selectOption({ label: 'Author' });
        await panel.getByLabel('Operator of filter 1').selectOption({ label: 'is one of' });
        const box = panel.getByRole('combobox', { name: 'Value of filter 1' });
        await box.fill('hopp');
        await page.getByRole('option', { name: /Grace Hopper/ }).click();
        await panel.locator('.chip').getByText('Grace Hopper').waitFor();
        // A second author, by keyboard this time.
        await box.fill('Liskov');
        await page.getByRole('option', { name: /Barbara Liskov/ }).waitFor();
        await box.press('ArrowDown');
        await box.press('Enter');
        await panel.locator('.chip').getByText('Barbara Liskov').waitFor();
        await panel.getByRole('button', { name: 'Apply' }).click();
        await page.getByText('3 documents').waitFor();
        expect((await rowTitles(page)).sort()).toEqual(['COBOL', 'Compilers', 'Substitution']);
        // The address holds the API's where with ids.
        const where = [...new URL(page.url()).searchParams].filter(([k]) => k.startsWith('where['));
        expect(where).toEqual([
          ['where[and][0][author][in]', `${authors['Grace Hopper']},${authors['Barbara Liskov']}`],
        ]);

        await page.reload();
        await page.getByText('3 documents').waitFor();
        if (!(await page.getByRole('form', { name: 'Filters' }).isVisible()))
          await page.getByRole('button', { name: 'Filters' }).click();
        const chips = page.getByRole('form', { name: 'Filters' }).locator('.chip');
        await chips.getByText('Grace Hopper').waitFor();
        await chips.getByText('Barbara Liskov').waitFor();
        expect(await chips.count()).toBe(2);
        // Removing one chip and applying narrows to the other author.
        await page.getByRole('button', { name: 'Remove Barbara Liskov' }).click();
        await page.getByRole('form', { name: 'Filters' }).getByRole('button', { name: 'Apply' }).click();
        await page.getByText('2 documents').waitFor();
        expect((await rowTitles(page)).sort()).toEqual(['COBOL', 'Compilers']);
        expect(pageErrors).toEqual([]);
      } finally {
        await opened?.browser.close();
      }
    }, 30_000);
  }

  for (const [width, title] of [
    [1366, 'Compilers'],
    [375, 'COBOL'],
  ] as const) {
    test(`the author is renamed and a category created in the drawer, the post's unsaved title kept, at ${width} px`, async () => {
      let opened: AdminPage | undefined;
      try {
        opened = await openAdminLoggedIn(t, ADMIN, { viewport: { width, height: 860 } });
        const { page, pageErrors } = opened;
        const post = (await t.request('GET', `/posts?depth=0&where[title][equals]=${title}`, { token })).body.docs[0];
        const author = (await t.request('GET', `/authors/${post.author}`, { token })).body.name as string;
        await page.goto(`${t.url}/admin/collections/posts/${post.id}`);
        await page.getByRole('heading', { name: title }).waitFor();
        await page.getByLabel('Title').fill(`${title}, revised`);

        const edit = page.getByRole('button', { name: `Edit ${author}` });
        await edit.click();
        const drawer = page.getByRole('dialog', { name: `Edit ${author}` });
        const name = drawer.getByLabel('Name');
        await name.waitFor();
        // The drawer keeps focus inside it; Escape closes it and focus goes back to "Edit".
        expect(await name.evaluate((el) => el.closest('dialog')?.matches(':modal'))).toBe(true);
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'detached' });
        await page.waitForFunction(
          (label) => document.activeElement?.getAttribute('aria-label') === label,
          `Edit ${author}`,
        );

        await edit.click();
        await name.fill(`${author} (${width})`);
        await drawer.getByRole('button', { name: 'Save', exact: true }).click();
        await drawer.waitFor({ state: 'detached' });
        await page.locator('[data-path="author"] .chip').getByText(`${author} (${width})`).waitFor();
        expect(await page.getByLabel('Title').inputValue()).toBe(`${title}, revised`);
        expect((await t.request('GET', `/authors/${post.author}`, { token })).body.name).toBe(`${author} (${width})`);

        await page.locator('[data-path="category"]').getByRole('button', { name: 'Create new' }).click();
        const create = page.getByRole('dialog', { name: 'New category' });
        await create.getByLabel('Name').fill(`Languages ${width}`);
        await create.getByLabel('Name').press('Enter');
        await create.waitFor({ state: 'detached' });
        await page.locator('[data-path="category"] .chip').getByText(`Languages ${width}`).waitFor();
        expect(await page.getByLabel('Title').inputValue()).toBe(`${title}, revised`);
        // Nothing of the post was saved by the drawer: its edits wait for its own Save.
        expect((await t.request('GET', `/posts/${post.id}`, { token })).body.title).toBe(title);
        await page.locator('#doc-form').evaluate((f: HTMLFormElement) => f.requestSubmit());
        await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
        const saved = (await t.request('GET', `/posts/${post.id}?depth=1`, { token })).body;
        expect(saved.title).toBe(`${title}, revised`);
        expect(saved.category.name).toBe(`Languages ${width}`);
        expect(pageErrors).toEqual([]);
      } finally {
        await opened?.browser.close();
      }
    }, 30_000);
  }
});
