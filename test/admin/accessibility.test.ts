// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * axe-core (the accessibility rules engine browsers' audits use) run inside Chromium on the admin's six main
 * views, in the light and the dark theme: the dashboard, a list, a document's edit page (rich text, blocks,
 * an upload, drafts), the media library, the account page and the audit log. No serious or critical
 * violation is allowed; each one found is listed with its rule and the elements it names.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { form, png } from '../support/media-fixtures.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { paragraph, root, text } from '../fixtures/richtext/nodes.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  upload: { imageSizes: [{ name: 'thumbnail', width: 80, height: 80 }] },
  collections: [
    {
      slug: 'posts',
      drafts: { autosave: false },
      admin: { useAsTitle: 'title', defaultColumns: ['title', 'category', 'updatedAt'] },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'category', type: 'select', options: ['news', 'notes'] },
        { name: 'cover', type: 'upload', relationTo: 'media' },
        { name: 'content', type: 'richText' },
        {
          name: 'layout',
          type: 'blocks',
          blocks: [
            { slug: 'quote', fields: [{ name: 'text', type: 'textarea' }] },
            { slug: 'cta', fields: [{ name: 'label', type: 'text' }] },
          ],
        },
        { name: 'featured', type: 'checkbox', admin: { position: 'sidebar' } },
      ],
    },
    { slug: 'media', fields: [{ name: 'alt', type: 'text' }] },
  ],
};
const ADMIN = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse 1' };
const AXE = path.join(path.dirname(require.resolve('axe-core/package.json')), 'axe.min.js');

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[]; summary: string }[] };

/** Runs axe on the page as it is and answers its serious and critical violations. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const axe = (window as any).axe;
    // The rules axe still calls experimental run too (they found the sessions table's unnamed column).
    const experimental = axe.getRules(['experimental']).map((r: any) => r.ruleId);
    const rules = Object.fromEntries(experimental.map((id: string) => [id, { enabled: true }]));
    const result = await axe.run(document, { resultTypes: ['violations'], rules });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => ({ target: n.target, summary: n.failureSummary })),
    }));
  });
  return (found as Violation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe.skipIf(!hasChromium())('admin: accessibility of the main views', () => {
  let t: TestServer;
  let s: Session;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let postId: number;
  const admin = (p = '') => `${t.url}/admin${p}`;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    expect((await t.request('POST', '/users/first-register', { body: { ...ADMIN } })).status).toBe(200);
    s = await t.login(ADMIN.email, ADMIN.password);
    const media = await t.request('POST', '/media', {
      token: s.token,
      body: form(await png(120, 80), 'harbour.png', { alt: 'The harbour at dawn' }),
    });
    expect(media.status).toBe(201);
    for (const [title, category] of [
      ['Spring notes', 'notes'],
      ['Harbour news', 'news'],
    ]) {
      const made = await t.request('POST', '/posts', {
        token: s.token,
        body: {
          title,
          category,
          status: 'published',
          cover: media.body.doc.id,
          content: root(paragraph(text(`The first words of ${title}.`))),
          layout: [
            { blockType: 'quote', text: 'Write what you mean.' },
            { blockType: 'cta', label: 'Read on' },
          ],
        },
      });
      expect(made.status).toBe(201);
      postId = made.body.doc.id;
    }
    // A pending draft, so the edit page shows its draft controls and the list its badge.
    await t.request('PATCH', `/posts/${postId}?draft=true`, { token: s.token, body: { title: 'Harbour news, v2' } });
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  const views: { name: string; path: string; ready: (p: Page) => Promise<unknown> }[] = [
    {
      name: 'dashboard',
      path: '/',
      ready: (p) => p.getByRole('heading', { name: `Welcome, ${ADMIN.name}` }).waitFor(),
    },
    {
      name: 'posts list',
      path: '/collections/posts',
      ready: (p) => p.getByRole('link', { name: 'Spring notes' }).waitFor(),
    },
    {
      name: 'post edit page',
      path: '',
      ready: (p) => p.locator('[contenteditable="true"]').first().waitFor(),
    },
    {
      name: 'media library',
      path: '/collections/media',
      ready: (p) => p.getByText('harbour.png').first().waitFor(),
    },
    {
      name: 'account page',
      path: '/account/security',
      ready: (p) => p.locator('#main table').waitFor(),
    },
    {
      name: 'audit log',
      path: '/operations/audit',
      ready: (p) => p.locator('#main table').waitFor(),
    },
  ];

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe finds no serious or critical violation on the six main views, ${scheme} theme`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      const report: string[] = [];
      for (const view of views) {
        await page.goto(admin(view.path || `/collections/posts/${postId}`));
        await view.ready(page);
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
        for (const v of await seriousViolations(page)) {
          const where = v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.summary.replace(/\s+/g, ' ')}`);
          report.push(`${view.name}: ${v.id} (${v.impact}) ${v.help}\n${where.join('\n')}`);
        }
      }
      expect(report.join('\n')).toBe('');
      expect(pageErrors).toEqual([]);
    }, 150_000);
  }
});
