/**
 * The account screens of the admin in Chromium against the real server and a real SMTP server: forgot
 * password → mail → reset page → signed in; an invitation link; a login that asks for a two-factor code.
 * Skipped without /usr/bin/chromium, like test/admin-browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { buildAdmin } from '../admin/build.ts';
import { hasChromium, launchBrowser, type Browser } from './browser.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { linkIn, startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';
import { fromBase32, referenceTOTP } from './support/totp-reference.ts';

const STEP = 20_000;

describe.skipIf(!hasChromium())('account screens in Chromium', () => {
  let t: TestServer;
  let sink: SmtpSink;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await buildAdmin();
    sink = await startSmtpSink();
    t = await startTestServer({ email: { transport: sink.url, from: 'cms@site.test' } });
    await t.user('admin', 'admin@example.com', 'password123');
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(8_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await sink?.stop();
  });

  const signOut = () => page.context().clearCookies();

  test('forgot password: the link in the mail opens the reset page, which sets the password and signs in', async () => {
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
  }, STEP);

  test('a used link says so and offers a new one', async () => {
    await signOut();
    const admin = await t.login('admin@example.com', 'password123');
    const made = await t.request('POST', '/users', { token: admin.token, body: { email: 'twice@example.com' } });
    await t.request('POST', '/users/reset-password', { body: { token: new URL(made.body.inviteUrl).searchParams.get('token'), password: 'first-pass-1' } });
    await page.goto(made.body.inviteUrl);
    await page.getByLabel('New password').fill('second-pass-1');
    await page.getByRole('button', { name: 'Set password and log in' }).click();
    await page.getByText('not valid or has expired').waitFor();
    expect(await page.getByRole('link', { name: 'Ask for a new link' }).count()).toBe(1);
  }, STEP);

  test('an invitation link lets the new user choose a password and enter the admin', async () => {
    await signOut();
    const admin = await t.login('admin@example.com', 'password123');
    const made = await t.request('POST', '/users', { token: admin.token, body: { email: 'ina@example.com', name: 'Ina' } });
    expect(made.status).toBe(201);
    await t.cms.background.idle();
    expect(linkIn(await sink.next('ina@example.com'))).toBe(made.body.inviteUrl);
    await page.goto(made.body.inviteUrl);
    await page.getByLabel('New password').fill('ina-password');
    await page.getByRole('button', { name: 'Set password and log in' }).click();
    await page.getByRole('heading', { name: 'Welcome, Ina' }).waitFor();
  }, STEP);

  test('with two-factor sign-in on, the login form asks for the code', async () => {
    await signOut();
    const totp = await t.user('editor', 'totp@example.com', 'password123');
    const { secret } = (await t.request('POST', '/users/totp/setup', { token: totp.token })).body;
    const code = (steps = 0) => referenceTOTP(fromBase32(secret), Math.floor((t.clock.now() + steps * 30_000) / 1000));
    expect((await t.request('POST', '/users/totp/enable', { token: totp.token, body: { code: await code() } })).status).toBe(200);
    await page.goto(`${t.url}/admin/`);
    await page.getByLabel('Email').fill('totp@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByLabel('Two-factor code').waitFor();
    await page.getByLabel('Two-factor code').fill(await code(1));
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  }, STEP);

  test('two-factor enrolment on the security page: key, first code, recovery codes; then sessions are listed and ended', async () => {
    await signOut();
    await t.user('editor', 'enrol@example.com', 'password123');
    await page.goto(`${t.url}/admin/`);
    await page.getByLabel('Email').fill('enrol@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Sign-in and security' }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Code from the app').fill(await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000)));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('shown only now').waitFor();
    expect(await page.locator('.recovery-codes li').count()).toBe(10);
    const login = await t.request('POST', '/users/login', { body: { email: 'enrol@example.com', password: 'password123' } });
    expect(login.body.errors[0].field).toBe('code');
    // Another session of the same user shows up, and "Sign out all others" ends it.
    const other = await t.request('POST', '/users/login', { body: { email: 'enrol@example.com', password: 'password123', code: await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000) + 30) } });
    expect(other.status).toBe(200);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out all others' }).click();
    await page.getByRole('button', { name: 'Sign out all others' }).waitFor({ state: 'detached' });
    expect((await t.request('GET', '/users/me', { token: other.body.token })).body.user).toBeNull();
    expect(pageErrors).toEqual([]);
  }, STEP);
});

describe.skipIf(!hasChromium())('auth.requireTwoFactor in Chromium', () => {
  let t: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    await buildAdmin();
    t = await startTestServer({ auth: { requireTwoFactor: ['admin'] } });
    const { create } = await import('../src/operations/create.ts');
    const { createContext } = await import('../src/operations/context.ts');
    await create(createContext(t.cms, { overrideAccess: true }), { collection: 'users', data: { email: 'boss@example.com', password: 'password123', role: 'admin', name: 'Boss' } });
    browser = await launchBrowser();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test('an admin without two factors enrols at login, then enters the admin', async () => {
    const page = browser.page;
    page.setDefaultTimeout(8_000);
    await page.goto(`${t.url}/admin/`);
    await page.getByLabel('Email').fill('boss@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Code from the app').fill(await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000)));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Welcome, Boss' }).waitFor();
  }, STEP);
});
