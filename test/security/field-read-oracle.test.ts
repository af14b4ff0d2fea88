/**
 * Attack (docs/security.md): recover a field the caller may not read by using it in a filter or a sort. An
 * anonymous reader bisects an admin-only value with `gte` and reads the answer from `totalDocs`; the attack
 * must fail at its first request, with the same 400 as an unknown field (docs/accounts.md).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { quietLog, startTestServer, type Session, type TestServer } from '../harness.ts';
import { getCMS } from '../../src/local.ts';
import type { UserConfig } from '../../src/config/types.ts';

const adminOnly = ({ user }: { user: { role: string } | null }) => user?.role === 'admin';
const SECRET = 'k7-violet-harbour';

const config: UserConfig = {
  collections: [
    {
      slug: 'vaults',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'code', type: 'text', access: { read: adminOnly } },
        { name: 'pin', type: 'number', access: { read: adminOnly } },
        { name: 'note', type: 'text', hidden: true },
        {
          name: 'meta',
          type: 'group',
          fields: [
            { name: 'label', type: 'text' },
            { name: 'token', type: 'text', access: { read: adminOnly } },
          ],
        },
        { name: 'sealed', type: 'group', access: { read: adminOnly }, fields: [{ name: 'inner', type: 'text' }] },
        {
          name: 'rows',
          type: 'array',
          fields: [
            { name: 'label', type: 'text' },
            { name: 'cost', type: 'number', access: { read: adminOnly } },
          ],
        },
        // A rule that reads the document: asked without one it cannot say yes, so it must not throw a 500.
        { name: 'byDoc', type: 'text', access: { read: ({ doc }) => (doc as { title: string }).title === 'open' } },
        { name: 'next', type: 'relationship', relationTo: 'vaults' },
      ],
    },
    {
      slug: 'memos',
      drafts: true,
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'code', type: 'text', access: { read: adminOnly } },
      ],
    },
    {
      slug: 'links',
      access: { read: () => true },
      fields: [
        { name: 'vault', type: 'relationship', relationTo: 'vaults' },
        { name: 'name', type: 'text' },
      ],
    },
  ],
};

/** The probe's bisection: is the secret's first character at or after `c`? Each answer is one request. */
function bisectionQueries(field: string): string[] {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  return [...alphabet].map((c) => `where[${field}][gte]=${c}`);
}

describe('a field the caller may not read cannot be used to query', () => {
  let t: TestServer;
  let admin: Session;
  let editor: Session;
  beforeAll(async () => {
    t = await startTestServer(config);
    admin = await t.user('admin');
    editor = await t.user('editor');
    const body = {
      title: 'open',
      code: SECRET,
      pin: 4821,
      note: 'hidden-note',
      meta: { label: 'l', token: 'tok-9' },
      sealed: { inner: 'in-1' },
      rows: [{ label: 'r', cost: 7.25 }],
      byDoc: 'bd',
    };
    expect((await t.request('POST', '/vaults', { token: admin.token, body })).status).toBe(201);
    expect(
      (
        await t.request('POST', '/memos', {
          token: admin.token,
          body: { title: 'm', code: 'memo-1', status: 'published' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await t.request('PATCH', '/memos/1?draft=true', { token: admin.token, body: { code: 'memo-2' } })).status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/vaults', {
          token: admin.token,
          body: { title: 'outer', code: 'outer-code', next: 1 },
        })
      ).status,
    ).toBe(201);
    expect(
      (await t.request('POST', '/links', { token: admin.token, body: { vault: 2, name: 'to-vault' } })).status,
    ).toBe(201);
  });
  afterAll(() => t.stop());

  const expectUnknownField = async (query: string, field: string, token?: string) => {
    const res = await t.request('GET', `/vaults?${query}`, { token });
    expect({ query, status: res.status, errors: res.body?.errors }).toEqual({
      query,
      status: 400,
      errors: [{ message: `The field "${field}" does not exist.`, field, path: field }],
    });
  };

  test('/openapi.json names only the fields the caller may read, and each caller gets its own', async () => {
    const propsOf = (doc: any, name: string) => Object.keys(doc.components.schemas[name].properties);
    const metaOf = (doc: any) => Object.keys(doc.components.schemas.Vaults.properties.meta.anyOf[0].properties);
    const anonymous = await t.request('GET', '/openapi.json');
    const asEditor = await t.request('GET', '/openapi.json', { token: editor.token });
    const asAdmin = await t.request('GET', '/openapi.json', { token: admin.token });
    for (const doc of [anonymous.body, asEditor.body]) {
      expect(propsOf(doc, 'Vaults')).not.toContain('code');
      expect(propsOf(doc, 'Vaults')).not.toContain('pin');
      expect(propsOf(doc, 'Vaults')).not.toContain('sealed');
      expect(propsOf(doc, 'Vaults')).not.toContain('byDoc');
      expect(metaOf(doc)).toEqual(['label']);
      expect(propsOf(doc, 'Memos')).not.toContain('code');
    }
    expect(JSON.stringify(anonymous.body.components.schemas.Vaults)).not.toContain('"token"');
    expect(propsOf(asAdmin.body, 'Vaults')).toEqual(expect.arrayContaining(['code', 'pin', 'sealed']));
    expect(metaOf(asAdmin.body)).toEqual(['label', 'token']);
    expect(asAdmin.headers.get('cache-control')).toBe('private, no-cache');
    // The same document again for the same caller (kept per set of refused fields).
    expect((await t.request('GET', '/openapi.json')).text).toBe(anonymous.text);
  });

  test('the bisection oracle fails at its first request (anonymous and a non-admin user)', async () => {
    for (const token of [undefined, editor.token]) {
      const first = await t.request('GET', `/vaults?${bisectionQueries('code')[0]}`, { token });
      expect(first.status).toBe(400);
      expect(first.body.errors).toEqual([{ message: 'The field "code" does not exist.', field: 'code', path: 'code' }]);
      expect(first.text).not.toContain('totalDocs');
    }
  });

  test('answers exactly as for an unknown field, in every operator', async () => {
    for (const op of ['equals', 'gte', 'lt', 'like', 'contains', 'not_equals', 'in', 'exists']) {
      await expectUnknownField(`where[code][${op}]=${op === 'exists' ? 'true' : 'k'}`, 'code');
      await expectUnknownField(`where[nope][${op}]=${op === 'exists' ? 'true' : 'k'}`, 'nope');
    }
    await expectUnknownField('where[pin][gt]=4000', 'pin', editor.token);
  });

  test('inside and/or, in JSON form, through dot paths and array rows', async () => {
    await expectUnknownField('where[or][0][title][equals]=x&where[or][1][code][like]=k7', 'code');
    await expectUnknownField('where[and][0][or][0][pin][gte]=4000', 'pin');
    await expectUnknownField(
      `where=${encodeURIComponent(JSON.stringify({ or: [{ title: { equals: 'x' } }, { and: [{ code: { gte: 'k' } }] }] }))}`,
      'code',
    );
    await expectUnknownField('where[meta.token][equals]=tok-9', 'meta.token');
    await expectUnknownField('where[sealed.inner][equals]=in-1', 'sealed.inner');
    await expectUnknownField('where[rows.cost][gt]=10', 'rows.cost');
    await expectUnknownField('where[note][equals]=hidden-note', 'note');
    await expectUnknownField('where[byDoc][equals]=bd', 'byDoc');
  });

  test('sort by an unreadable field is refused the same way (no order oracle)', async () => {
    for (const [sort, field] of [
      ['code', 'code'],
      ['-pin', 'pin'],
      ['meta.token', 'meta.token'],
      ['note', 'note'],
    ]) {
      const res = await t.request('GET', `/vaults?sort=${sort}`, { token: editor.token });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ message: `The field "${field}" does not exist.`, field, path: field }]);
    }
  });

  test('draft lists (draft=true) are filtered by the same rules', async () => {
    for (const query of ['draft=true&where[code][gte]=memo-2', 'draft=true&sort=code', 'where[code][equals]=memo-1']) {
      const res = await t.request('GET', `/memos?${query}`, { token: editor.token });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ message: 'The field "code" does not exist.', field: 'code', path: 'code' }]);
    }
    const own = await t.request('GET', '/memos?draft=true&where[code][equals]=memo-2', { token: admin.token });
    expect(own.body.totalDocs).toBe(1);
  });

  test('readable siblings stay queryable', async () => {
    const res = await t.request('GET', '/vaults?where[meta.label][equals]=l&where[rows.label][equals]=r&sort=title', {
      token: editor.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.totalDocs).toBe(1);
  });

  test('whoever may read the field may query it', async () => {
    const res = await t.request('GET', `/vaults?where[code][equals]=${SECRET}&where[rows.cost][gt]=5&sort=-pin,code`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.totalDocs).toBe(1);
    // Hidden stays hidden for every caller over REST.
    expect((await t.request('GET', '/vaults?where[note][equals]=hidden-note', { token: admin.token })).status).toBe(
      400,
    );
  });

  test('populated documents at every depth leave out what the caller may not read', async () => {
    // links → vault 2 (depth 1) → its `next`, vault 1 (depth 2), whose own `next` is empty (depth 3).
    for (const depth of [1, 2, 3]) {
      const res = await t.request('GET', `/links?depth=${depth}`, { token: editor.token });
      expect(res.status).toBe(200);
      expect(res.body.docs[0].vault.title).toBe('outer');
      if (depth > 1) expect(res.body.docs[0].vault.next.title).toBe('open');
      // The numbers as JSON values: a row's random id may hold their digits.
      for (const value of ['outer-code', SECRET, ':4821', 'hidden-note', 'tok-9', 'in-1', ':7.25'])
        expect(res.text).not.toContain(value);
    }
    expect((await t.request('GET', '/links/1?depth=2', { token: admin.token })).text).toContain(SECRET);
  });

  test('the Local API: overrideAccess is the system and may query anything; overrideAccess: false is a caller', async () => {
    const cms = await getCMS({ config: { database: `${t.dir}/local.db`, ...config }, rootDir: t.dir, log: quietLog });
    try {
      await cms.create({ collection: 'vaults', data: { title: 'open', code: SECRET, note: 'n1' } });
      expect(
        (await cms.find({ collection: 'vaults', where: { code: { equals: SECRET }, note: { equals: 'n1' } } }))
          .totalDocs,
      ).toBe(1);
      const denied = cms.find({
        collection: 'vaults',
        where: { code: { gte: 'k' } },
        overrideAccess: false,
        user: null,
      });
      await expect(denied).rejects.toMatchObject({ status: 400, field: 'code' });
    } finally {
      await cms.close();
    }
  });
});
