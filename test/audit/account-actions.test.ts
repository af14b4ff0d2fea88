/**
 * The audit entries of an admin's actions on another user's account (docs/audit-log.md, docs/accounts.md):
 * ending their sessions, resetting their second factor, lifting a login lock, from REST and GraphQL. Each is
 * written with the change, names the account and the admin; what users do to their own account, and what is
 * refused, leaves none.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import { createContext } from '../../src/operation-context.ts';
import { listAuditEntries } from '../../src/audit/list-entries.ts';
import * as operations from '../../src/operations/index.ts';
import { fromBase32, referenceTOTP } from '../support/totp-reference.ts';

const MEMBER = 'member@example.com';
const PASSWORD = 'a-long-password-9';

/** The member every row acts on, made by the seed (its id is the same in every row's copy). */
let memberId = 0;
const seed = async (t: TestServer) => {
  const ctx = createContext(t.cms, { overrideAccess: true });
  const member = await operations.create(ctx, {
    collection: 'users',
    data: { email: MEMBER, password: PASSWORD, role: 'editor', active: true },
  });
  memberId = member.id as number;
};

/** The newest entry's id once a row's setup is done: a row's check reads only what its request wrote. */
let mark = 0;
async function entriesSinceMark(t: TestServer) {
  const ctx = createContext(t.cms, { overrideAccess: true });
  return (await listAuditEntries(ctx, { where: { id: { greater_than: mark } }, sort: 'id', limit: 100 })).docs;
}

/**
 * The request's own check, then exactly these entries (a partial match each). `user: 'admin'` is the row's
 * admin and `document: 'member'` the seeded member, both known only once the rows run.
 */
function expectEntries(expected: Record<string, unknown>[]): NonNullable<Scenario['check']> {
  return async (_res, t) => {
    const known = { user: { admin: (await t.session('admin')).user.id }, document: { member: memberId } };
    const entries = await entriesSinceMark(t);
    expect(entries).toHaveLength(expected.length);
    expected.forEach((e, i) =>
      expect(entries[i]).toMatchObject({
        ...e,
        ...(e.user === 'admin' ? { user: known.user.admin } : {}),
        ...(e.document === 'member' ? { document: known.document.member } : {}),
      }),
    );
  };
}

const memberLogin = (t: TestServer) =>
  t.request('POST', '/users/login', { body: { email: MEMBER, password: PASSWORD } }).then((res) => {
    expect(res.status).toBe(200);
    return res.body.token as string;
  });

async function memberSessionId(t: TestServer): Promise<string> {
  await memberLogin(t);
  const row = await t.cms.store.get<{ id: string }>('SELECT "id" FROM "_cms_sessions" WHERE "userId" = ?', [memberId]);
  return row!.id;
}

let sessionId = '';

const rows: Scenario[] = [
  {
    name: 'an admin signing another user out everywhere is recorded against that user',
    method: 'DELETE',
    url: () => `/users/sessions?user=${memberId}`,
    as: 'admin',
    setup: async (t) => {
      await memberLogin(t);
      await memberLogin(t);
    },
    status: 200,
    contains: ['"ended":2', 'Signed out of every session.'],
    events: { '*': 0 },
    check: expectEntries([
      { action: 'end_sessions', collection: 'users', document: 'member', user: 'admin', via: 'rest', changes: {} },
    ]),
  },
  {
    name: "an admin ending one of another user's sessions is recorded",
    method: 'DELETE',
    url: () => `/users/sessions/${sessionId}?user=${memberId}`,
    as: 'admin',
    setup: async (t) => {
      sessionId = await memberSessionId(t);
    },
    status: 200,
    contains: ['Session ended.'],
    events: { '*': 0 },
    check: expectEntries([{ action: 'end_session', collection: 'users', document: 'member', user: 'admin' }]),
  },
  {
    name: "an admin's reset of another user's two-factor sign-in is recorded",
    method: 'POST',
    url: () => `/users/totp/disable?user=${memberId}`,
    as: 'admin',
    setup: async (t) => {
      const token = await memberLogin(t);
      const { secret } = (await t.request('POST', '/users/totp/setup', { token })).body;
      const code = await referenceTOTP(fromBase32(secret), Math.floor(t.clock.now() / 1000));
      expect((await t.request('POST', '/users/totp/enable', { token, body: { code } })).status).toBe(200);
    },
    status: 200,
    contains: ['Two-factor sign-in is off.'],
    events: { '*': 0 },
    check: async (res, t) => {
      await expectEntries([{ action: 'reset_two_factor', collection: 'users', document: 'member', user: 'admin' }])(
        res,
        t,
      );
      expect(await t.cms.store.get('SELECT 1 AS "on" FROM "_cms_totp" WHERE "userId" = ?', [memberId])).toBeNull();
    },
  },
  {
    name: 'an admin lifting the login lock of an email is recorded against its account',
    method: 'POST',
    url: '/users/unlock',
    as: 'admin',
    body: { email: ' Member@Example.com ' },
    setup: async (t) => {
      await t.request('POST', '/users/login', { body: { email: MEMBER, password: 'wrong-password' } });
    },
    status: 200,
    contains: ['"message":"Success"'],
    events: { '*': 0 },
    check: expectEntries([{ action: 'unlock', collection: 'users', document: 'member', user: 'admin', via: 'rest' }]),
  },
  {
    name: 'unlocking an email no account has is recorded without a document',
    method: 'POST',
    url: '/users/unlock',
    as: 'admin',
    body: { email: 'nobody@example.com' },
    status: 200,
    contains: ['"message":"Success"'],
    events: { '*': 0 },
    check: expectEntries([{ action: 'unlock', collection: 'users', document: null, user: 'admin' }]),
  },
  {
    name: "GraphQL's unlock is recorded as GraphQL's",
    method: 'POST',
    url: '/graphql',
    as: 'admin',
    body: { query: `mutation { unlockUser(email: "${MEMBER}") }` },
    status: 200,
    contains: ['"unlockUser":true'],
    events: { '*': 0 },
    check: expectEntries([{ action: 'unlock', document: 'member', user: 'admin', via: 'graphql' }]),
  },
  {
    name: 'users signing themselves out elsewhere leave no entry',
    method: 'DELETE',
    url: '/users/sessions',
    as: 'editor',
    status: 200,
    contains: ['Signed out of every other session.'],
    events: { '*': 0 },
    check: expectEntries([]),
  },
  {
    name: "an editor refused another user's sessions leaves no entry",
    method: 'DELETE',
    url: () => `/users/sessions?user=${memberId}`,
    as: 'editor',
    setup: async (t) => {
      await memberLogin(t);
    },
    status: 403,
    contains: ['"errors"', "Only admins can manage another user's account."],
    events: { '*': 0 },
    check: expectEntries([]),
  },
  {
    name: 'an editor refused an unlock leaves no entry',
    method: 'POST',
    url: '/users/unlock',
    as: 'editor',
    body: { email: MEMBER },
    status: 403,
    contains: ['"errors"', 'Only admins can unlock a login.'],
    events: { '*': 0 },
    check: expectEntries([]),
  },
];

runScenarios(
  "audit log: an admin's actions on another user's account",
  {},
  // Each row's mark is taken last in its setup, so what the setup wrote (logins) is not counted.
  rows.map((row) => ({
    ...row,
    setup: async (t: TestServer) => {
      await row.setup?.(t);
      const [newest] = (await listAuditEntries(createContext(t.cms, { overrideAccess: true }), { limit: 1 })).docs;
      mark = Number(newest?.id ?? 0);
    },
  })),
  { seed },
);
