// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The account screens of the admin in Chromium against the real server and a real SMTP server: forgot
 * password → mail → reset page → signed in; an invitation link; a login that asks for a two-factor code;
 * the QR code of the two-factor setup; invitations, reset links, two-factor resets and sessions of other
 * users from an admin's user pages; a reload during a forced enrolment. Skipped without /usr/bin/chromium,
 * like test/admin/basics.test.ts. Screenshots at 1366 and 375 px go to test-artifacts/admin-accounts/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { encode } from 'uqr';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openBrowserPage } from '../support/admin-page.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { fromBase32, referenceTOTP } from '../support/totp-reference.ts';

const STEP = 20_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin-accounts');

/** Screenshots of the page as it is, at desktop and phone width, each checked for sideways scrolling. */
async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}

async function logIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/admin/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}

describe.skipIf(!hasChromium())('account screens in Chromium', () => {
  let t: TestServer;
  let sink: SmtpSink;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    await adminBuilt();
    sink = await startSmtpSink();
    t = await startTestServer({ email: { transport: sink.url, from: 'cms@site.test' } });
    await t.user('admin', 'admin@example.com', 'password123');
    ({ browser, page, pageErrors } = await openBrowserPage());
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await sink?.stop();
  });

  const signOut = () => page.context().clearCookies();

  /** Signed out, opens a reset or invitation link, chooses a password and lands on the dashboard. */
  async function followLink(link: string, password: string, welcome: string): Promise<void> {
    await signOut();
    await page.goto(link);
    await page.getByLabel('New password').fill(password);
    await page.getByRole('button', { name: 'Set password and log in' }).click();
    await page.getByRole('heading', { name: welcome }).waitFor();
    expect(pageErrors).toEqual([]);
  }

  test(
    'forgot password: the link in the mail opens the reset page, which sets the password and signs in',
    async () => {
      await t.user('editor', 'ed@example.com', 'password123');
      await page.goto(`${t.url}/admin/`);
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('heading', { name: 'Forgot password' }).waitFor();
      await page.getByLabel('Email').fill('ed@example.com');
      await page.getByRole('button', { name: 'Send link' }).click();
      await page.getByRole('status').waitFor();
      await t.cms.background.idle();
      const link = linkIn(await sink.next('ed@example.com'));
      await page.goto(link);
      await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
      await page.getByLabel('New password').fill('a-new-password');
      await page.getByRole('button', { name: 'Set password and log in' }).click();
      await page.getByRole('heading', { name: 'Welcome' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/');
      await t.login('ed@example.com', 'a-new-password');
    },
    STEP,
  );

  test(
    'a used link says so and offers a new one',
    async () => {
      await signOut();
      const admin = await t.login('admin@example.com', 'password123');
      const made = await t.request('POST', '/users', { token: admin.token, body: { email: 'twice@example.com' } });
      await t.request('POST', '/users/reset-password', {
        body: { token: new URL(made.body.inviteUrl).searchParams.get('token'), password: 'first-pass-1' },
      });
      await page.goto(made.body.inviteUrl);
      await page.getByLabel('New password').fill('second-pass-1');
      await page.getByRole('button', { name: 'Set password and log in' }).click();
      await page.getByText('not valid or has expired').waitFor();
      expect(await page.getByRole('link', { name: 'Ask for a new link' }).count()).toBe(1);
    },
    STEP,
  );

  test(
    'an invitation link lets the new user choose a password and enter the admin',
    async () => {
      await signOut();
      const admin = await t.login('admin@example.com', 'password123');
      const made = await t.request('POST', '/users', {
        token: admin.token,
        body: { email: 'ina@example.com', name: 'Ina' },
      });
      expect(made.status).toBe(201);
      await t.cms.background.idle();
      expect(linkIn(await sink.next('ina@example.com'))).toBe(made.body.inviteUrl);
      await page.goto(made.body.inviteUrl);
      await page.getByLabel('New password').fill('ina-password');
      await page.getByRole('button', { name: 'Set password and log in' }).click();
      await page.getByRole('heading', { name: 'Welcome, Ina' }).waitFor();
    },
    STEP,
  );

  test(
    'with two-factor sign-in on, the login form asks for the code',
    async () => {
      await signOut();
      const totp = await t.user('editor', 'totp@example.com', 'password123');
      const { secret } = (await t.request('POST', '/users/totp/setup', { token: totp.token })).body;
      const code = (steps = 0) =>
        referenceTOTP(fromBase32(secret), Math.floor((t.clock.now() + steps * 30_000) / 1000));
      expect(
        (await t.request('POST', '/users/totp/enable', { token: totp.token, body: { code: await code() } })).status,
      ).toBe(200);
      await page.goto(`${t.url}/admin/`);
      await page.getByLabel('Email').fill('totp@example.com');
      await page.getByLabel('Password').fill('password123');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByLabel('Two-factor code').waitFor();
      await page.getByLabel('Two-factor code').fill(await code(1));
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    },
    STEP,
  );

  test(
    'two-factor enrolment on the security page: key, first code, recovery codes; then sessions are listed and ended',
    async () => {
      await signOut();
      await t.user('editor', 'enrol@example.com', 'password123');
      await page.goto(`${t.url}/admin/`);
      await page.getByLabel('Email').fill('enrol@example.com');
      await page.getByLabel('Password').fill('password123');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('link', { name: 'Sign-in and security' }).click();
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
      await page
        .getByLabel('Code from the app')
        .fill(await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000)));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('shown only now').waitFor();
      expect(await page.locator('.recovery-codes li').count()).toBe(10);
      const login = await t.request('POST', '/users/login', {
        body: { email: 'enrol@example.com', password: 'password123' },
      });
      expect(login.body.errors[0].field).toBe('code');
      // Another session of the same user shows up, and "Sign out all others" ends it.
      const other = await t.request('POST', '/users/login', {
        body: {
          email: 'enrol@example.com',
          password: 'password123',
          code: await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000) + 30),
        },
      });
      expect(other.status).toBe(200);
      await page.reload();
      await page.getByRole('button', { name: 'Sign out all others' }).click();
      await page.getByRole('button', { name: 'Sign out all others' }).waitFor({ state: 'detached' });
      expect((await t.request('GET', '/users/me', { token: other.body.token })).body.user).toBeNull();
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'the two-factor setup shows a QR code holding the otpauth URL',
    async () => {
      await signOut();
      await t.user('editor', 'qr@example.com', 'password123');
      await logIn(page, t.url, 'qr@example.com', 'password123');
      await page.getByRole('link', { name: 'Sign-in and security' }).click();
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
      await qr.waitFor();
      const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
      const url = (await page.getByRole('link', { name: 'this link' }).getAttribute('href'))!;
      expect(url).toBe(
        `otpauth://totp/CMS:qr%40example.com?secret=${secret}&issuer=CMS&algorithm=SHA1&digits=6&period=30`.replace(
          '%40',
          url.includes('%40') ? '%40' : '@',
        ),
      );
      // The dark modules drawn are exactly those the encoder gives for that URL (same library, same options).
      const drawn = await qr.locator('path').getAttribute('d');
      const dark = new Set([...drawn!.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${m[1]},${m[2]}`));
      const expected = encode(url, { ecc: 'M', border: 4 });
      const want = new Set(expected.data.flatMap((row, y) => row.flatMap((on, x) => (on ? [`${x},${y}`] : []))));
      expect(dark.size).toBeGreaterThan(100);
      expect(dark).toEqual(want);
      expect(await qr.getAttribute('viewBox')).toBe(`0 0 ${expected.size} ${expected.size}`);
      const box = (await qr.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(150);
      expect(box.height).toBe(box.width);
      await shoot(page, 'two-factor-setup');
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'an admin invites from the user form: no password, the invitation link with a copy button, also mailed',
    async () => {
      await signOut();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
      await logIn(page, t.url, 'admin@example.com', 'password123');
      await page.goto(`${t.url}/admin/collections/users/create`);
      await page.locator('#field-email').fill('newbie@example.com');
      await page.locator('#field-name').fill('Newbie');
      await page.getByRole('button', { name: 'Create' }).click();
      const shown = page.getByTestId('invite-link');
      await shown.waitFor();
      const invite = (await shown.textContent())!.trim();
      expect(invite).toStartWith(`${t.url}/admin/reset-password?token=`);
      await page.getByRole('button', { name: 'Copy invitation link' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(invite);
      await t.cms.background.idle();
      expect(linkIn(await sink.next('newbie@example.com'))).toBe(invite);
      await shoot(page, 'user-invited');
      await followLink(invite, 'newbie-password', 'Welcome, Newbie');
    },
    STEP,
  );

  test(
    "on another user's page an admin copies a reset link, resets two-factor sign-in and ends their sessions",
    async () => {
      await signOut();
      const lost = await t.user('editor', 'lost@example.com', 'password123');
      const { secret } = (await t.request('POST', '/users/totp/setup', { token: lost.token })).body;
      const code = await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000));
      expect((await t.request('POST', '/users/totp/enable', { token: lost.token, body: { code } })).status).toBe(200);
      const phone = await t.request('POST', '/users/login', {
        body: {
          email: 'lost@example.com',
          password: 'password123',
          code: await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000) + 30),
        },
        headers: { 'user-agent': 'Phone Browser 1.0' },
      });
      expect(phone.status).toBe(200);
      const admin = await t.login('admin@example.com', 'password123');
      await logIn(page, t.url, 'admin@example.com', 'password123');
      await page.goto(`${t.url}/admin/collections/users/${lost.user.id}`);
      const panel = page.getByRole('region', { name: 'Sign-in and security' });
      await panel.getByText('Phone Browser 1.0').waitFor();
      expect(await panel.locator('.user-sessions li').count()).toBe(2);
      await panel.getByText('Two-factor sign-in is on.').waitFor();
      await shoot(page, 'user-account-panel');

      await panel.getByRole('button', { name: 'Copy reset link' }).click();
      const link = (await panel.getByTestId('reset-link').textContent())!.trim();
      expect(link).toStartWith(`${t.url}/admin/reset-password?token=`);

      await panel.getByRole('button', { name: 'Reset two-factor' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Reset two-factor' }).click();
      await panel.getByText('Two-factor sign-in is off.').waitFor();
      expect((await t.request('GET', `/users/totp?user=${lost.user.id}`, { token: admin.token })).body.enabled).toBe(
        false,
      );

      await panel.locator('li', { hasText: 'Phone Browser 1.0' }).getByRole('button', { name: 'Sign out' }).click();
      await panel.getByText('Phone Browser 1.0').waitFor({ state: 'detached' });
      expect((await t.request('GET', '/users/me', { token: phone.body.token })).body.user).toBeNull();
      expect((await t.request('GET', '/users/me', { token: lost.token })).body.user).not.toBeNull();
      await panel.getByRole('button', { name: 'Sign out everywhere' }).click();
      await panel.getByText('Not signed in anywhere.').waitFor();
      expect((await t.request('GET', '/users/me', { token: lost.token })).body.user).toBeNull();

      // The copied link works: the user sets a password (no second factor any more) and is in.
      await followLink(link, 'found-again-1', 'Welcome');
    },
    STEP,
  );
});

describe.skipIf(!hasChromium())('auth.requireTwoFactor in Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({ auth: { requireTwoFactor: ['admin'] } });
    ({ browser, page } = await openBrowserPage());
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  /** A new admin (made without HTTP, as `cms create-admin` would) logs in and lands on the forced setup. */
  async function adminAtSetup(email: string, name: string): Promise<void> {
    const { create } = await import('../../src/operations/create.ts');
    const { createContext } = await import('../../src/operation-context.ts');
    await create(createContext(t.cms, { overrideAccess: true }), {
      collection: 'users',
      data: { email, password: 'password123', role: 'admin', name },
    });
    await page.context().clearCookies();
    await page.goto(`${t.url}/admin/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
  }

  /** Sets up the second factor on the screen shown, then continues into the admin. */
  async function enrol(name: string, afterSetup: () => Promise<void> = async () => {}): Promise<void> {
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await afterSetup();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page
      .getByLabel('Code from the app')
      .fill(await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000)));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: `Welcome, ${name}` }).waitFor();
  }

  test(
    'an admin without two factors enrols at login, then enters the admin',
    async () => {
      await adminAtSetup('boss@example.com', 'Boss');
      await enrol('Boss');
    },
    STEP,
  );

  test(
    'a reload during the forced setup shows the setup again, not the app and its refusals',
    async () => {
      await adminAtSetup('chief@example.com', 'Chief');
      await page.reload();
      await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
      expect(await page.getByRole('heading', { name: /^Welcome/ }).count()).toBe(0);
      await enrol('Chief', async () => {
        await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
        await shoot(page, 'forced-setup');
      });
    },
    STEP,
  );
});
