/** A Chromium page logged into the admin of a test server (for the admin browser suites). */
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../browser.ts';
import type { TestServer } from '../harness.ts';

export type AdminPage = { browser: Browser; page: Page; pageErrors: string[] };

/** Fills the login form (the page must show it). */
export async function logInThroughForm(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * A Chromium page with the suites' 15 s default timeout (a wait ends as soon as its element shows; the bound
 * only matters on a machine busy with both engines' runs), its uncaught errors collected in `pageErrors`.
 */
export async function openBrowserPage(options: Parameters<typeof launchBrowser>[0] = {}): Promise<AdminPage> {
  const browser = await launchBrowser(options);
  const page = browser.page;
  const pageErrors: string[] = [];
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  return { browser, page, pageErrors };
}

export async function openAdminLoggedIn(
  t: TestServer,
  who: { name: string; email: string; password: string },
  options: Parameters<typeof launchBrowser>[0] = {},
): Promise<AdminPage> {
  const opened = await openBrowserPage({ viewport: { width: 1366, height: 900 }, ...options });
  await opened.page.goto(`${t.url}/admin`);
  await logInThroughForm(opened.page, who);
  await opened.page.getByRole('heading', { name: `Welcome, ${who.name}` }).waitFor();
  return opened;
}
