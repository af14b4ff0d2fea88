// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * Admins' operations views in Chromium, each a lazy chunk: webhook deliveries
 * (state, attempts, last error; filter by state; retry a failed one), health (the admin details of
 * GET /health), backups (back up now, list, download).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startReplicaFor } from '../../src/cli/replica.ts';
import { startTestServer, tempDir, type Session, type TestServer } from '../harness.ts';
import { answer, startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const ADMIN = { name: 'Lin', email: 'lin@example.com', password: 'correct horse 4' };
const STEP = 20_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin');

describe.skipIf(!hasChromium())('admin operations views', () => {
  let receiver: Receiver;
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  const nav = () => page.getByRole('navigation', { name: 'Main' });

  beforeAll(async () => {
    await adminBuilt();
    receiver = startReceiver(answer(410));
    t = await startTestServer({
      collections: [{ slug: 'posts', admin: { useAsTitle: 'title' }, fields: [{ name: 'title', type: 'text' }] }],
      webhooks: [{ url: receiver.url, collections: ['posts'], globals: [] }],
      replica: { url: tempDir('cms-ops-replica-') },
    });
    await startReplicaFor(t.cms);
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    await t.request('POST', '/posts', { token: s.token, body: { title: 'Hello' } });
    await flushWebhooks(t.cms);
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.stop();
  });

  test(
    'webhook deliveries: a failed one with its error, filtered by state, retried',
    async () => {
      await nav().getByRole('link', { name: 'Webhook deliveries' }).click();
      await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor();
      const row = page.getByRole('row', { name: /create posts #1/ });
      await row.getByText('HTTP 410').waitFor();
      expect(await row.textContent()).toContain('Failed');

      await page.getByLabel('State').selectOption('pending');
      await page.getByText('No deliveries in state “pending”').waitFor();
      expect(page.url()).toContain('state=pending');
      await page.getByLabel('State').selectOption('failed');
      await row.waitFor();
      await page.screenshot({ path: path.join(SHOTS, 'operations-webhooks-1366.png') });

      receiver.respondWith(answer(200));
      await row.getByRole('button', { name: /Retry/ }).click();
      await page.getByRole('status').filter({ hasText: 'Delivery queued for another attempt' }).waitFor();
      await flushWebhooks(t.cms);
      expect(receiver.requests).toHaveLength(2);
      await page.getByLabel('State').selectOption('');
      await page.getByText('No deliveries.').waitFor();
    },
    STEP,
  );

  test(
    'health shows the admin details',
    async () => {
      await nav().getByRole('link', { name: 'Health' }).click();
      const panel = page.getByRole('region', { name: 'Health details' });
      await panel.waitFor();
      const text = await panel.textContent();
      for (const label of [
        'Status',
        'ok',
        'Database',
        'Uptime',
        'File storage',
        'local',
        'Job loop last run',
        'Webhook deliveries failed',
      ])
        expect(text).toContain(label);
    },
    STEP,
  );

  test(
    'backups: back up now, listed, downloadable; no page overflow at 375 px',
    async () => {
      await nav().getByRole('link', { name: 'Backups' }).click();
      await page.getByText('No backups yet.').waitFor();
      await page.getByRole('button', { name: 'Back up now' }).click();
      const link = page.getByRole('link', { name: /^cms-backup-.*\.tar\.gz$/ });
      await link.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const file = await download.path();
      const bytes = new Uint8Array(await Bun.file(file!).arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
      // The replica's state, read-only, beside the backups.
      const replica = page.getByRole('region', { name: 'Continuous replica' });
      await replica.waitFor();
      const facts = await replica.locator('dt, dd').allTextContents();
      const fact = (label: string) => facts[facts.indexOf(label) + 1];
      expect(fact('Mode')).toBe('async');
      expect(fact('Copies')).toBe(
        t.cms.config.databaseEngine === 'sqlite'
          ? 'The database and the uploads'
          : 'The uploads only (PostgreSQL backs up the database)',
      );
      expect(fact('Last snapshot')).not.toBe('Not yet');
      expect(fact('Oldest moment a restore reaches')).not.toBe('Not yet');
      expect(fact('Oldest moment a restore reaches')).toMatch(/\d/);
      await page.screenshot({ path: path.join(SHOTS, 'operations-backups-1366.png') });

      await page.setViewportSize({ width: 375, height: 800 });
      for (const p of ['webhooks', 'health', 'backups']) {
        await page.goto(`${t.url}/admin/operations/${p}`);
        await page.locator('#main h1').waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `operations-${p}-375.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1366, height: 900 });
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
