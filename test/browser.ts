/**
 * Launches the system Chromium for browser tests (CONTRIBUTING.md, "Browser tests"): headless, no sandbox,
 * a fresh profile in a temp folder through launchPersistentContext, removed on close.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the browser tests can run. Locally a missing Chromium skips them; in CI (`CI` set, as `.ci/run`
 * and hosted runners do) it throws, so the run fails loudly as it does without PostgreSQL.
 */
export function hasChromium(): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.env.CI && process.env.CI !== 'false') {
    throw new Error(
      `Chromium is not at ${CHROMIUM}: the browser tests cannot run in CI. Install it (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  return false;
}

export type Browser = { context: BrowserContext; page: Page; close(): Promise<void> };

export async function launchBrowser(
  options: {
    viewport?: { width: number; height: number };
    colorScheme?: 'light' | 'dark';
    timezoneId?: string;
    locale?: string;
  } = {},
): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: options.viewport ?? { width: 1280, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    timezoneId: options.timezoneId,
    locale: options.locale,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
