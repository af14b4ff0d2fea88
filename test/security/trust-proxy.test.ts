/**
 * Attack: forge X-Forwarded-* headers to dodge the login lock or pass the origin check (docs/operations.md). The headers count only when the peer is a trusted proxy per `trustProxy`; the login
 * lock (keyed by client IP) shows which address the server believed. Test requests come from 127.0.0.1.
 */
import { describe, expect, test } from 'bun:test';
import path from 'node:path';
import { createCMS } from '../../src/create-cms.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { quietLog, startTestServer, tempDir, type TestServer } from '../harness.ts';

const VICTIM = 'victim@example.com';
const RIGHT = 'the-right-password';
const lock = { maxLoginAttempts: 3, lockWindow: 600 };

const attempt = (t: TestServer, password: string, forwardedFor: string) =>
  t.request('POST', '/users/login', {
    body: { email: VICTIM, password },
    headers: { 'x-forwarded-for': forwardedFor },
  });

/** Three failures from `guesser`, then the right password from `owner`: 200 when the server told them apart. */
async function ownerAfterGuesses(config: UserConfig, guesser: (i: number) => string, owner: string): Promise<number> {
  const t = await startTestServer({ ...config, auth: lock });
  await t.user('editor', VICTIM, RIGHT);
  for (let i = 0; i < 3; i++) expect((await attempt(t, 'wrong-guess', guesser(i))).status).toBe(401);
  const status = (await attempt(t, RIGHT, owner)).status;
  await t.stop();
  return status;
}

describe('client IP from X-Forwarded-For', () => {
  test('by default the header is ignored: forging a new address per guess does not escape the lock', async () => {
    expect(await ownerAfterGuesses({}, (i) => `203.0.113.${i}`, '198.51.100.1')).toBe(429);
  });

  test('a proxy list that does not hold the peer: the header is ignored', async () => {
    expect(
      await ownerAfterGuesses({ trustProxy: ['10.0.0.0/8', 'fd00::/8'] }, (i) => `203.0.113.${i}`, '198.51.100.1'),
    ).toBe(429);
  });

  test('a proxy list holding the peer: the header names the client', async () => {
    expect(await ownerAfterGuesses({ trustProxy: ['127.0.0.1/8'] }, () => '203.0.113.5', '198.51.100.1')).toBe(200);
  });

  test('a proxy list skips trusted hops but stops at the first untrusted one: entries forged before it do not count', async () => {
    const config = { trustProxy: ['127.0.0.0/8', '10.0.0.0/8'] };
    expect(
      await ownerAfterGuesses(config, (i) => `198.51.100.${i}, 203.0.113.5, 10.1.1.1`, '203.0.113.6, 10.1.1.1'),
    ).toBe(200);
    expect(
      await ownerAfterGuesses(
        config,
        (i) => `198.51.100.${i}, 203.0.113.5, 10.1.1.1`,
        '198.51.100.77, 203.0.113.5, 10.1.1.1',
      ),
    ).toBe(429);
  });

  test('trustProxy: true takes the left-most address', async () => {
    expect(await ownerAfterGuesses({ trustProxy: true }, () => '203.0.113.5', '198.51.100.1')).toBe(200);
  });

  test('a hop count takes that many proxies off the right: forged entries further left do not count', async () => {
    expect(
      await ownerAfterGuesses({ trustProxy: 1 }, (i) => `198.51.100.${i}, 203.0.113.5`, '198.51.100.9, 203.0.113.5'),
    ).toBe(429);
    expect(await ownerAfterGuesses({ trustProxy: 1 }, () => '203.0.113.5', '203.0.113.6')).toBe(200);
    expect(await ownerAfterGuesses({ trustProxy: 2 }, () => '203.0.113.5, 10.0.0.2', '203.0.113.6, 10.0.0.2')).toBe(
      200,
    );
  });

  test('an entry that is no address ends the chain', async () => {
    expect(
      await ownerAfterGuesses({ trustProxy: true }, (i) => `203.0.113.5, junk-${i}`, '203.0.113.5, other-junk'),
    ).toBe(429);
  });
});

describe('own origin from X-Forwarded-Proto and X-Forwarded-Host', () => {
  const site = { collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' as const }] }] };
  const forwarded = {
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'cms.example.com',
    origin: 'https://cms.example.com',
  };

  async function cookieWrite(config: UserConfig, headers: Record<string, string>): Promise<number> {
    const t = await startTestServer({ ...site, ...config });
    const s = await t.user('editor');
    const res = await t.request('POST', '/notes', { body: { text: 'hi' }, cookie: s, headers });
    await t.stop();
    return res.status;
  }

  test('from a trusted proxy, the browser-facing origin passes the cookie origin check', async () => {
    expect(await cookieWrite({ trustProxy: ['127.0.0.1'] }, forwarded)).toBe(201);
  });

  test('from anybody else, forged headers do not make a foreign origin our own', async () => {
    expect(await cookieWrite({}, forwarded)).toBe(403);
    expect(await cookieWrite({ trustProxy: ['10.0.0.0/8'] }, forwarded)).toBe(403);
  });

  test('a forwarded host carrying more than a host is ignored', async () => {
    expect(
      await cookieWrite(
        { trustProxy: true },
        { ...forwarded, 'x-forwarded-host': 'cms.example.com/x@evil.example', origin: 'https://evil.example' },
      ),
    ).toBe(403);
  });

  test('a login through the proxy from the browser-facing origin is accepted', async () => {
    const t = await startTestServer({ trustProxy: true });
    await t.user('editor', VICTIM, RIGHT);
    const res = await t.request('POST', '/users/login', {
      body: { email: VICTIM, password: RIGHT },
      headers: forwarded,
    });
    expect(res.status).toBe(200);
    await t.stop();
  });
});

describe('trustProxy in the config', () => {
  const start = (trustProxy: unknown) => {
    const dir = tempDir();
    return createCMS({
      config: { database: path.join(dir, 'data/cms.db'), trustProxy } as UserConfig,
      rootDir: dir,
      log: quietLog,
    });
  };
  for (const [value, key] of [
    [['10.0.0.0/33'], 'trustProxy[0]'],
    [['proxy.internal'], 'trustProxy[0]'],
    [-1, 'trustProxy'],
    [1.5, 'trustProxy'],
    [{}, 'trustProxy'],
  ] as const) {
    test(`${JSON.stringify(value)} stops start-up naming ${key}`, async () => {
      await expect(start(value)).rejects.toThrow(`${key}:`);
    });
  }
});
