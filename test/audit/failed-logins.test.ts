/**
 * Failed logins in the audit log are folded (docs/audit-log.md "Failed logins"): a client trying made-up
 * emails, which the login lock never stops since each email is a new key, writes one entry per address,
 * account and window, its count going up, instead of one entry per attempt; a new window starts a new
 * entry; and past a bound on addresses followed at once, further addresses share one entry.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { MAX_FOLDED_ADDRESSES, recordFailedLogin } from '../../src/audit/failed-logins.ts';
import { listAuditEntries } from '../../src/audit/list-entries.ts';
import { createContext } from '../../src/operation-context.ts';
import { startTestServer, type TestServer } from '../harness.ts';

const ATTEMPTS = 24;

describe('failed logins, folded', () => {
  let t: TestServer;
  let member: Record<string, unknown>;
  beforeAll(async () => {
    t = await startTestServer({ trustProxy: true });
    member = (await t.user('editor')).user;
  });
  afterAll(() => t?.stop());

  const failedEntries = async () =>
    (
      await listAuditEntries(createContext(t.cms, { overrideAccess: true }), {
        where: { action: { equals: 'login_failed' } },
        sort: 'id',
        limit: 100,
      })
    ).docs as Record<string, any>[];
  const failLogin = async (from: string, email: string) =>
    (
      await t.request('POST', '/users/login', {
        headers: { 'x-forwarded-for': from },
        body: { email, password: 'not-the-password' },
      })
    ).status;

  test(`${ATTEMPTS} made-up emails from one address write one entry counting them`, async () => {
    const statuses: number[] = [];
    // Eight at a time, as a client that does not wait for each answer.
    for (let i = 0; i < ATTEMPTS; i += 8) {
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 8 }, (_, j) => failLogin('203.0.113.7', `made-up-${i + j}@example.com`)),
        )),
      );
    }
    expect(statuses.filter((s) => s !== 401)).toEqual([]);
    await failLogin('203.0.113.8', 'someone@example.com');
    await failLogin('203.0.113.7', member.email as string);
    const entries = await failedEntries();
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      ip: '203.0.113.7',
      document: null,
      user: null,
      changes: { attempts: { from: 1, to: ATTEMPTS } },
    });
    expect(entries[0].changes.lastAttempt.from).toBe(entries[0].at);
    expect(entries[1]).toMatchObject({ ip: '203.0.113.8', document: null, changes: {} });
    expect(entries[2]).toMatchObject({ ip: '203.0.113.7', document: member.id, changes: {} });
  });

  test('once the window has passed, the next failure from that address starts a new entry', async () => {
    const before = (await failedEntries()).length;
    t.clock.advance(t.cms.config.auth.lockWindow * 1000 + 1);
    await failLogin('203.0.113.7', 'made-up-again@example.com');
    await failLogin('203.0.113.7', 'made-up-once-more@example.com');
    const entries = (await failedEntries()).slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ip: '203.0.113.7', changes: { attempts: { from: 1, to: 2 } } });
  });

  test('addresses past the bound followed at once share one entry without an address', async () => {
    t.clock.advance(t.cms.config.auth.lockWindow * 1000 + 1);
    const before = (
      await listAuditEntries(createContext(t.cms, { overrideAccess: true }), {
        where: { action: { equals: 'login_failed' } },
        limit: 1,
      })
    ).totalDocs;
    const origin = (i: number) => ({
      user: null,
      apiKey: null,
      via: 'rest' as const,
      ip: `198.51.${i >> 8}.${i & 255}`,
    });
    for (let i = 0; i < MAX_FOLDED_ADDRESSES + 30; i++) await recordFailedLogin(t.cms, null, origin(i));
    const newest = await listAuditEntries(createContext(t.cms, { overrideAccess: true }), {
      where: { action: { equals: 'login_failed' } },
      sort: '-id',
      limit: 1,
    });
    expect(newest.totalDocs - before).toBe(MAX_FOLDED_ADDRESSES + 1);
    expect(newest.docs[0]).toMatchObject({ ip: null, document: null, changes: { attempts: { from: 1, to: 30 } } });
  }, 60_000);
});
