// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin for assistants and the audit log, in Chromium: the API-key form's mcp:publish scope, the
 * "Connect an assistant" panel (MCP address, a key limited to the choices, client snippets that work),
 * and the audit-log view with its filters, reached from a document's versions panel.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'correct horse 5' };
const STEP = 20_000;

describe.skipIf(!hasChromium())('admin: assistants and the audit log', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  const admin = (p: string) => `${t.url}/admin${p}`;
  const nav = () => page.getByRole('navigation', { name: 'Main' });

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({
      collections: [
        { slug: 'posts', drafts: true, admin: { useAsTitle: 'title' }, fields: [{ name: 'title', type: 'text' }] },
      ],
      globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text' }] }],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'the API-key form offers the mcp:publish scope',
    async () => {
      await page.goto(admin('/collections/api-keys/create'));
      await page.getByLabel('Name').fill('Writer bot');
      await page.locator('#field-user').fill('Ada');
      await page.getByRole('option', { name: /Ada/ }).click();
      await page.getByRole('checkbox', { name: 'posts:*' }).check();
      await page.getByRole('checkbox', { name: /Assistants may publish/ }).check();
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByText('API key created.').waitFor();
      const keys = await t.request('GET', '/api-keys?where[name][equals]=Writer%20bot', { token: s.token });
      expect(keys.body.docs[0].scopes).toEqual(['posts:*', 'mcp:publish']);
    },
    STEP,
  );

  test(
    '"Connect an assistant": the address, a limited key and snippets that work',
    async () => {
      await nav().getByRole('link', { name: 'Connect an assistant' }).click();
      await page.getByRole('heading', { name: 'Connect an assistant' }).waitFor();
      const url = `${t.api}/mcp`;
      expect(await page.getByTestId('mcp-url').textContent()).toBe(url);
      await page.getByLabel('Access to Posts').selectOption('write');
      await page.getByLabel('Access to Media').selectOption('none');
      await page.getByLabel('Access to Settings').selectOption('none');
      await page.getByRole('button', { name: 'Create key and show the setup' }).click();
      const key = (await page.getByTestId('assistant-key').textContent())!.trim();
      expect(key).toMatch(/^cms_/);
      const cursor = JSON.parse((await page.getByTestId('snippet-Cursor').textContent())!);
      expect(cursor).toEqual({ mcpServers: { cms: { url, headers: { Authorization: `Bearer ${key}` } } } });
      const vscode = JSON.parse((await page.getByTestId('snippet-VS Code').textContent())!);
      expect(vscode.servers.cms).toMatchObject({ type: 'http', url });
      expect(await page.getByTestId('snippet-Claude Desktop').textContent()).toContain('mcp-remote');
      // The key is limited to what was chosen: drafts of posts, no publishing.
      const keys = await t.request('GET', '/api-keys?where[name][equals]=Assistant', { token: s.token });
      expect(keys.body.docs[0].scopes).toEqual(['posts:read', 'posts:create', 'posts:update']);
      const mcp = await fetch(cursor.mcpServers.cms.url, {
        method: 'POST',
        headers: {
          ...cursor.mcpServers.cms.headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'publish', arguments: { collection: 'posts', id: 1 } },
        }),
      });
      expect(mcp.status).toBe(200);
      expect((await mcp.json()).result.isError).toBe(true);
    },
    STEP,
  );

  test(
    "the audit log, from a document's versions panel, with filters",
    async () => {
      const post = (await t.request('POST', '/posts', { token: s.token, body: { title: 'Audited' } })).body.doc;
      await t.request('PATCH', `/posts/${post.id}`, {
        token: s.token,
        body: { title: 'Audited, edited', status: 'published' },
      });
      await page.goto(admin(`/collections/posts/${post.id}`));
      await page.getByRole('link', { name: 'Who changed it: audit log' }).click();
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      expect(page.url()).toContain(`document=${post.id}`);
      const rows = page.locator('.audit-table tbody tr');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).textContent()).toContain('Publish');
      expect(await rows.nth(1).textContent()).toContain('Create');
      await rows.nth(0).getByText('2 fields').click();
      expect(await rows.nth(0).textContent()).toContain('Audited, edited');

      await page.getByLabel('Action', { exact: true }).selectOption('create');
      await page.waitForFunction(() => document.querySelectorAll('.audit-table tbody tr').length === 1);
      await page.getByLabel('Action', { exact: true }).selectOption('delete');
      await page.getByText('No entries match.').waitFor();

      await page.getByLabel('Action', { exact: true }).selectOption('login');
      await page.getByLabel('Document', { exact: true }).fill('');
      await page.getByLabel('Document', { exact: true }).dispatchEvent('change');
      await page.getByLabel('Collection', { exact: true }).selectOption('users');
      await page.getByLabel('User', { exact: true }).selectOption({ label: `${ADMIN.name} (${ADMIN.email})` });
      await rows.first().waitFor();
      expect(await rows.first().textContent()).toContain(ADMIN.name);
    },
    STEP,
  );

  test('no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
