/** A project's own `users` and `media` collections merge their fields, access rules and hooks into the built-in ones (docs/accounts.md, docs/media.md). */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

describe('merging a project users and media collection into the built-in ones', () => {
  let t: TestServer;
  let admin: Session;
  let editor: Session;
  const seen: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      collections: [
        {
          slug: 'users',
          // `name` again, as Payload's templates declare it: the built-in field stands, the label joins it.
          fields: [
            { name: 'name', type: 'text', label: 'Full name' },
            { name: 'bio', type: 'textarea' },
          ],
          hooks: {
            afterChange: [
              ({ doc }) => {
                seen.push(String(doc?.email));
                return doc;
              },
            ],
          },
        },
        {
          slug: 'media',
          // Media readable by logged-in users only, and a caption field.
          access: { read: ({ user }) => Boolean(user) },
          fields: [
            { name: 'alt', type: 'text', required: false },
            { name: 'caption', type: 'text' },
          ],
        },
      ],
    });
    admin = await t.user('admin');
    editor = await t.user('editor');
  });
  afterAll(() => t.stop());

  test('users keep their built-in fields and rules and gain the project field and hook', async () => {
    const res = await t.request('PATCH', `/users/${editor.user.id}`, {
      token: editor.token,
      body: { bio: 'Writes things', role: 'admin' },
    });
    expect(res.status).toBe(200);
    expect(res.body.doc).toMatchObject({ bio: 'Writes things', role: 'editor', email: editor.user.email });
    expect(seen).toContain(editor.user.email as string);
    const named = await t.request('PATCH', `/users/${editor.user.id}`, {
      token: editor.token,
      body: { name: 'Ed Itor' },
    });
    expect(named.body.doc.name).toBe('Ed Itor');
    expect(
      t.cms.config.collections.find((c) => c.slug === 'users')?.fields.filter((f) => f.name === 'name'),
    ).toMatchObject([{ label: 'Full name' }]);
    expect(
      (
        await t.request('POST', '/users', {
          token: editor.token,
          body: { email: 'x@example.com', password: 'password123' },
        })
      ).status,
    ).toBe(403);
  });

  test('media gains the caption field and the stricter read rule', async () => {
    const form = new FormData();
    const png = await (await import('sharp'))
      .default({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    form.append('file', new File([png], 'dot.png'));
    form.append('caption', 'A dot');
    const res = await t.request('POST', '/media', { token: admin.token, body: form });
    expect(res.status).toBe(201);
    expect(res.body.doc).toMatchObject({ caption: 'A dot', mimeType: 'image/png', width: 10 });
    expect((await t.request('GET', `/media/${res.body.doc.id}`)).status).toBe(401);
    expect((await t.request('GET', `/media/${res.body.doc.id}`, { token: editor.token })).status).toBe(200);
    expect(
      (await t.request('PATCH', `/media/${res.body.doc.id}`, { token: editor.token, body: { caption: 'Changed' } }))
        .body.doc.caption,
    ).toBe('Changed');
    expect(
      (await t.request('PATCH', `/media/${res.body.doc.id}`, { token: editor.token, body: { filesize: 1 } })).status,
    ).toBe(400);
  });

  test('a project field may not reuse a built-in name with another type', async () => {
    const { sanitizeConfig } = await import('../../src/config/sanitize.ts');
    expect(() =>
      sanitizeConfig(
        { collections: [{ slug: 'users', fields: [{ name: 'email', type: 'text' }] }] },
        { configPath: '/x/cms.config.ts', rootDir: '/x' },
      ),
    ).toThrow('built-in field');
  });
});
