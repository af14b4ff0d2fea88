// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin in the reader's language (docs/admin.md, "Languages"): a German browser sees German words,
 * German config labels and German dates, the edit form, its field editors, versions panel, the media library,
 * operations views, the account page and the list's tools in German too; choosing French on the account page switches at once and is kept.
 * Config labels given per language pass through `GET /_admin/config`, and a malformed one is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openBrowserPage } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

const ADMIN = { name: 'Eve', email: 'eve@example.com', password: 'correct horse 9' };
const STEP = 20_000;

const config = (): UserConfig => ({
  collections: [
    {
      slug: 'posts',
      labels: {
        singular: { en: 'Post', de: 'Beitrag', fr: 'Article' },
        plural: { en: 'Posts', de: 'Beiträge', fr: 'Articles' },
      },
      admin: { useAsTitle: 'title' },
      drafts: true,
      fields: [
        { name: 'title', type: 'text', label: { en: 'Title', de: 'Titel', fr: 'Titre' } },
        {
          name: 'kind',
          type: 'select',
          label: 'Kind',
          options: [{ value: 'news', label: { en: 'News', de: 'Nachrichten', fr: 'Actualités' } }],
        },
        { name: 'links', type: 'array', fields: [{ name: 'url', type: 'text' }] },
      ],
    },
  ],
});

describe('per-language labels in the config', () => {
  const sanitize = (c: UserConfig) => sanitizeConfig(c, { configPath: '/x/cms.config.ts', rootDir: '/x' });
  test('the object form is accepted, kept for the admin, and malformed ones are refused with their key', () => {
    const posts = sanitize(config()).collections.find((c) => c.slug === 'posts')!;
    expect(posts.labels?.plural).toEqual({ en: 'Posts', de: 'Beiträge', fr: 'Articles' });
    expect(posts.fields.find((f) => f.name === 'kind')!.options![0]!.label).toEqual({
      en: 'News',
      de: 'Nachrichten',
      fr: 'Actualités',
    });
    const bad = (field: Record<string, unknown>) =>
      sanitize({ collections: [{ slug: 'x', fields: [{ name: 'a', type: 'text', ...field } as never] }] });
    expect(() => bad({ label: { en: '' } })).toThrow('collections[0].fields[0].label');
    expect(() => bad({ label: {} })).toThrow('at least one language');
    expect(() => bad({ label: ['Title'] })).toThrow('object of strings by language');
    expect(() =>
      sanitize({ collections: [{ slug: 'x', labels: { plural: { de: 3 } as never }, fields: [] }] }),
    ).toThrow('labels.plural');
  });
});

describe.skipIf(!hasChromium())('admin languages', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config());
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    await t.request('POST', '/posts', { token: s.token, body: { title: 'Hallo', kind: 'news' } });
    ({ browser, page, pageErrors } = await openBrowserPage({
      viewport: { width: 1366, height: 900 },
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test('GET /_admin/config passes the labels as written', async () => {
    const res = await t.request('GET', '/_admin/config', { token: s.token });
    const posts = res.body.collections.find((c: { slug: string }) => c.slug === 'posts');
    expect(posts.labels.singular).toEqual({ en: 'Post', de: 'Beitrag', fr: 'Article' });
    expect(posts.fields[0].label).toEqual({ en: 'Title', de: 'Titel', fr: 'Titre' });
    // Releases are off unless the config turns them on: the admin then offers no Releases view.
    expect(res.body.features.releases).toBe(false);
  });

  test(
    'a German browser sees German words, German labels and German dates',
    async () => {
      await page.goto(admin());
      await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      await page.getByLabel('E-Mail').fill(ADMIN.email);
      await page.getByLabel('Passwort').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await page.getByRole('heading', { name: 'Willkommen, Eve' }).waitFor();
      await page.getByRole('link', { name: 'Beiträge' }).first().waitFor();
      await page.getByRole('link', { name: 'Beiträge 1 Dokument' }).waitFor();
      await page.getByRole('link', { name: 'Benutzer 1 Dokument' }).waitFor();
      expect(await page.getByRole('button', { name: 'Abmelden' }).count()).toBe(1);
      await page.getByRole('link', { name: 'Beiträge' }).first().click();
      await page.getByRole('columnheader', { name: /Titel/ }).waitFor();
      await page.getByRole('cell', { name: 'Nachrichten' }).waitFor();
      await page.getByText('1–1 von 1').waitFor();
      await page.getByRole('searchbox', { name: 'Beiträge nach Titel durchsuchen' }).waitFor();
      // "12.05.2025, 14:03": day.month.year, 24-hour clock.
      expect(await page.locator('td.nowrap').first().textContent()).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'the edit form, a field editor, the versions panel and an operations view speak German',
    async () => {
      await page.getByRole('link', { name: 'Hallo' }).click();
      await page.getByRole('button', { name: 'Entwurf speichern' }).waitFor();
      await page.getByRole('heading', { name: 'Versionen' }).waitFor();
      await page.getByRole('heading', { name: 'Zeitplan' }).waitFor();
      await page.getByRole('button', { name: 'Zeile hinzufügen' }).click();
      await page.getByRole('button', { name: 'Zeile 1 entfernen' }).waitFor();
      await page.getByText('Ungespeicherte Änderungen').waitFor();
      await page.getByRole('button', { name: 'Entwurf speichern' }).click();
      await page.getByText('Entwurf gespeichert').first().waitFor();
      await page
        .getByText(/^von Eve ·/)
        .first()
        .waitFor();
      await page.goto(admin('/operations/health'));
      await page.getByRole('heading', { name: 'Zustand' }).waitFor();
      await page.getByText('Datenbank').waitFor();
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'the media library, operations views, the account page and the list tools speak German',
    async () => {
      await page.goto(admin('/collections/media'));
      await page.getByRole('searchbox', { name: 'Medien nach Dateiname durchsuchen' }).waitFor();
      await page.getByText('Dateien hierher ziehen').waitFor();
      await page.getByText('Noch keine Dateien. Ziehen Sie welche in das Feld oben.').waitFor();
      await page.goto(admin('/operations/webhooks'));
      await page.getByRole('heading', { name: 'Webhook-Zustellungen' }).waitFor();
      expect(await page.locator('main select option').allTextContents()).toEqual([
        'Alle',
        'Wartend',
        'Wird gesendet',
        'Fehlgeschlagen',
      ]);
      await page.goto(admin('/operations/backups'));
      await page.getByRole('heading', { name: 'Sicherungen' }).waitFor();
      await page.getByRole('button', { name: 'Jetzt sichern' }).waitFor();
      await page.goto(admin('/account/security'));
      await page.getByRole('heading', { name: 'Zwei-Faktor-Anmeldung', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Zwei-Faktor-Anmeldung einrichten' }).waitFor();
      await page.getByRole('heading', { name: 'Wo Sie angemeldet sind' }).waitFor();
      await page.getByRole('columnheader', { name: 'Zuletzt verwendet' }).waitFor();
      // A fresh load of a list: its own tools read the first part, so they are German before any lazy page.
      await page.goto(admin('/collections/posts'));
      await page.getByText('Spalten', { exact: true }).waitFor();
      expect(await page.locator('.theme-switch option').allTextContents()).toEqual([
        'Systemeinstellung',
        'Hell',
        'Dunkel',
      ]);
      await page.getByRole('button', { name: 'Tastenkürzel' }).click();
      await page.getByRole('heading', { name: 'Überall' }).waitFor();
      await page.keyboard.press('Escape');
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'choosing French on the account page changes the admin at once, and it stays after a reload',
    async () => {
      await page.goto(admin('/account/security'));
      await page.getByRole('heading', { name: 'Anmeldung und Sicherheit' }).waitFor();
      await page.getByLabel('Sprache der Verwaltung').selectOption('fr');
      await page.getByRole('heading', { name: 'Connexion et sécurité' }).waitFor();
      await page.getByRole('link', { name: 'Articles' }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
      await page.reload();
      await page.getByRole('heading', { name: 'Connexion et sécurité' }).waitFor();
      await page.getByLabel('Langue de l’interface').selectOption('');
      await page.getByRole('heading', { name: 'Anmeldung und Sicherheit' }).waitFor();
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
