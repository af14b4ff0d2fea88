/**
 * The system Chromium for browser tests (CONTRIBUTING.md, "Browser tests"): headless, no sandbox. One
 * Chromium per test process, started on first use; each `launchBrowser` is a fresh context of it (its own
 * cookies, storage and cache, as a new profile would be), closed by `close()`. Starting Chromium costs
 * seconds on a busy machine; a context costs a fraction of that.
 */
import fs from 'node:fs';
import { chromium, type Browser as Chromium, type BrowserContext, type Page } from 'playwright-core';

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

let shared: Promise<Chromium> | undefined;

/** The process's Chromium, started once; started again if it went away (a crash ends only its own tests). */
function sharedChromium(): Promise<Chromium> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS }).then((b) => {
    b.on('disconnected', () => {
      shared = undefined;
    });
    return b;
  });
  return shared;
}

export async function launchBrowser(
  options: {
    viewport?: { width: number; height: number };
    colorScheme?: 'light' | 'dark';
    timezoneId?: string;
    locale?: string;
  } = {},
): Promise<Browser> {
  const context = await (await sharedChromium()).newContext({
    viewport: options.viewport ?? { width: 1280, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    timezoneId: options.timezoneId,
    locale: options.locale,
  });
  const page = await context.newPage();
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
    },
  };
}
