// Runs once (on the SQLite pass): pure functions of the admin; no server.
/** The admin's pure helpers: query strings, labels, form diffs, upload prechecks, the Markdown preview's safety. */
import { beforeAll, describe, expect, test } from 'bun:test';
import { errorFromBody, queryString, type Field } from '../../admin/src/api.ts';
import { cellText, formatBytes, humanize, singularLabel } from '../../admin/src/format.ts';
import { renderMarkdown } from '../../admin/src/markdown.ts';
import { precheckUpload, thumbnailURL } from '../../admin/src/upload.ts';
import { loadPageMessages } from '../../admin/src/i18n/i18n.ts';
import { changedFields, emptyDoc, same, withDefaults } from '../../admin/src/form/values.ts';
import { pathWriter, setIn } from '../../admin/src/form/form-context.ts';
import { missingRequired } from '../../admin/src/form/missing.ts';

describe('queryString', () => {
  test('writes the bracket form the API reads, leaving out empty values', () => {
    expect(
      queryString({ limit: 20, page: 1, sort: '-title', where: { title: { like: 'a b&c' } }, locale: undefined }),
    ).toBe('?limit=20&page=1&sort=-title&where[title][like]=a%20b%26c');
    expect(queryString({ where: { or: [{ a: { like: 'x' } }, { b: { like: 'y' } }] } })).toBe(
      '?where[or][0][a][like]=x&where[or][1][b][like]=y',
    );
    expect(queryString({ draft: undefined })).toBe('');
  });
});

describe('errors', () => {
  test('a 400 keeps every field error; a bodyless 413 gets a readable message', () => {
    const e = errorFromBody(400, {
      errors: [
        { field: 'title', message: 'This field is required.' },
        { field: 'links.0.label', message: 'Required.' },
      ],
    });
    expect(e.field).toBe('title');
    expect(e.errors.map((x) => x.field)).toEqual(['title', 'links.0.label']);
    expect(errorFromBody(413, null).message).toBe('The file is too large.');
  });
});

describe('labels', () => {
  test('humanize and singular', () => {
    expect(humanize('publishedAt')).toBe('Published at');
    expect(humanize('api-keys')).toBe('API keys');
    expect(humanize('seo')).toBe('SEO');
    expect(singularLabel({ slug: 'categories', fields: [] })).toBe('Category');
    expect(singularLabel({ slug: 'posts', fields: [] })).toBe('Post');
    expect(singularLabel({ slug: 'media', fields: [] })).toBe('Media');
    expect(formatBytes(10_000_000)).toBe('10 MB');
    expect(formatBytes(1500)).toBe('1.5 kB');
  });
});

describe('form values', () => {
  const fields: Field[] = [
    { name: 'title', type: 'text' },
    { name: 'done', type: 'checkbox' },
    { name: 'tags', type: 'select', hasMany: true, options: [] },
    { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text' }] },
    { name: 'rows', type: 'array', fields: [{ name: 'x', type: 'text' }] },
    { name: 'filename', type: 'text', admin: { readOnly: true } },
  ];

  test('a blank document has a value for every input', () => {
    expect(emptyDoc(fields)).toEqual({
      title: null,
      done: false,
      tags: [],
      seo: { title: null },
      rows: [],
      filename: null,
    });
  });

  test('only changed, editable fields are sent', () => {
    const initial = withDefaults(fields, { title: 'a', seo: null, filename: 'x.png' });
    const values = { ...initial, title: 'b', filename: 'y.png', seo: { title: null } };
    expect(changedFields(fields, values, initial)).toEqual({ title: 'b' });
    expect(changedFields(fields, { ...emptyDoc(fields), done: true }, emptyDoc(fields))).toEqual({ done: true });
  });

  test('values are compared as stored, whatever order their keys come in', () => {
    const stored = { root: { type: 'root', children: [{ type: 'text', text: 'a', format: 0 }], version: 1 } };
    const reordered = { root: { version: 1, children: [{ format: 0, text: 'a', type: 'text' }], type: 'root' } };
    expect(same(stored, reordered)).toBe(true);
    expect(same(stored, { root: { ...stored.root, version: 2 } })).toBe(false);
    expect(same([1, 2], [2, 1])).toBe(false);
    expect(same(null, undefined)).toBe(true);
    expect(same({ a: null }, {})).toBe(true);
    expect(changedFields(fields, { ...emptyDoc(fields), seo: { title: null } }, emptyDoc(fields))).toEqual({});
  });

  test('a write by path changes only that path, on the values as they are then', () => {
    const doc = { title: 'a', rows: [{ x: '1' }, { x: '2' }], seo: { title: 's' } };
    const next = setIn(doc, ['rows', '1', 'x'], '3') as typeof doc;
    expect(next).toEqual({ title: 'a', rows: [{ x: '1' }, { x: '3' }], seo: { title: 's' } });
    expect(next.seo).toBe(doc.seo);
    expect(next.rows[0]).toBe(doc.rows[0]);
    let state: Record<string, unknown> = { title: 'a', seo: { title: null } };
    const writer = pathWriter((fn) => (state = fn(state)), 'drawer-posts');
    writer.at('drawer-posts.title')('b');
    writer.at('drawer-posts.seo.title')('c');
    expect(state).toEqual({ title: 'b', seo: { title: 'c' } });
    expect(writer.at('drawer-posts.title')).toBe(writer.at('drawer-posts.title'));
  });

  test('required values still empty are listed by path, at every depth', () => {
    const withRequired: Field[] = [
      { name: 'title', type: 'text', required: true },
      { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text', required: true }] },
      {
        name: 'layout',
        type: 'blocks',
        blocks: [{ slug: 'media', fields: [{ name: 'image', type: 'upload', relationTo: 'media', required: true }] }],
      },
    ];
    const doc = {
      title: 'Set',
      seo: { title: '' },
      layout: [{ blockType: 'media', image: 3 }, { blockType: 'media' }],
    };
    expect(missingRequired(withRequired, doc)).toEqual(['seo.title', 'layout.1.image']);
    expect(missingRequired(withRequired, doc, { 'seo.title': false })).toEqual(['layout.1.image']);
  });
});

describe('uploads', () => {
  const limits = { maxFileSize: 1000, mimeTypes: ['image/*', 'application/pdf'] };
  // The uploader runs inside the lazily loaded pages, whose texts arrive with them.
  beforeAll(() => loadPageMessages());
  test('refuses what the server would refuse, before sending it', () => {
    expect(precheckUpload(new File([new Uint8Array(10)], 'a.png', { type: 'image/png' }), limits)).toBeNull();
    expect(precheckUpload(new File([new Uint8Array(2000)], 'a.png', { type: 'image/png' }), limits)).toContain(
      'the limit is 1 kB',
    );
    expect(precheckUpload(new File(['x'], 'a.txt', { type: 'text/plain' }), limits)).toContain('not accepted');
  });
  test('thumbnails prefer a generated size of at least 160px', () => {
    const doc = {
      mimeType: 'image/png',
      url: '/f.png',
      sizes: {
        tiny: { width: 64, url: '/t.png' },
        card: { width: 400, url: '/c.png' },
        thumb: { width: 300, url: '/m.png' },
      },
    };
    expect(thumbnailURL(doc)).toBe('/m.png');
    expect(thumbnailURL({ mimeType: 'application/pdf', url: '/f.pdf' })).toBeNull();
  });
});

describe('markdown preview', () => {
  test('renders the basics', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n[site](https://example.com)');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>');
  });
  test('cannot inject markup or script', () => {
    const html = renderMarkdown(
      '<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) [y](data:text/html,hi) `<b>`\n\n```\n<script>\n```',
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('href="javascript');
    expect(html).not.toContain('href="data');
  });
});

describe('list cells', () => {
  const upload = { name: 'cover', type: 'upload', relationTo: 'media' } as Field;
  const authors = { name: 'authors', type: 'relationship', relationTo: 'users', hasMany: true } as Field;
  test('populated related documents show their name, ids show #id', () => {
    expect(cellText(upload, { id: 3, filename: 'cat-x1.png' })).toBe('cat-x1.png');
    expect(
      cellText(authors, [
        { id: 1, email: 'a@example.com' },
        { id: 2, name: 'Bo', email: 'b@example.com' },
      ]),
    ).toBe('a@example.com, Bo');
    expect(cellText(upload, 7)).toBe('#7');
    expect(cellText(authors, [{ id: 4 }])).toBe('#4');
  });
});
