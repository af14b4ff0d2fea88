/**
 * The converter tests' round trip (test/richtext/from-html.test.ts, test/richtext/from-markdown.test.ts): a
 * server with a `posts` collection holding rich text, one media document and one post to link to; each
 * converted value is stored through the API, read back as stored and as `?richText=html`.
 */
import { expect } from 'bun:test';
import type { RichTextValue } from '../../src/richtext/nodes.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { shapes } from '../fixtures/richtext/shape.ts';
import { form, png } from './media-fixtures.ts';

export type RoundTrip = {
  t: TestServer;
  media: { id: number; url: string };
  target: { id: number; slug: string };
  /** Stores the value as a new post: what the API stored, and the HTML it reads back as. */
  store(title: string, value: RichTextValue): Promise<{ stored: RichTextValue; html: string }>;
};

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };

export async function roundTripServer(targetSlug: string): Promise<RoundTrip> {
  const t = await startTestServer({
    collections: [
      {
        slug: 'posts',
        access: open,
        fields: [
          { name: 'title', type: 'text' },
          { name: 'slug', type: 'text' },
          { name: 'content', type: 'richText' },
        ],
      },
    ],
  });
  const admin = await t.user('admin');
  const media = await t.request('POST', '/media', { token: admin.token, body: form(await png(), 'pic.png') });
  expect(media.status).toBe(201);
  const target = await t.request('POST', '/posts', { body: { title: 'Target', slug: targetSlug } });
  expect(target.status).toBe(201);
  return {
    t,
    media: { id: media.body.doc.id, url: String(media.body.doc.url) },
    target: { id: target.body.doc.id, slug: targetSlug },
    async store(title, value) {
      const created = await t.request('POST', '/posts', { body: { title, content: value } });
      expect(created.status).toBe(201);
      const stored = await t.request('GET', `/posts/${created.body.doc.id}?depth=0`);
      const read = await t.request('GET', `/posts/${created.body.doc.id}?depth=1&richText=html`);
      expect(read.status).toBe(200);
      expect(typeof read.body.content).toBe('string');
      return { stored: stored.body.content, html: read.body.content };
    },
  };
}

/**
 * A value's shapes as HTML shows them: a run of white space is one space, and none shows at the ends of a
 * paragraph or at the start of a line (so code indented after a line break reads back without indentation).
 */
export function asHTMLShows(value: RichTextValue): unknown {
  const seen = (shape: unknown): unknown => {
    if (!Array.isArray(shape)) return typeof shape === 'string' ? shape.replace(/\s+/g, ' ') : shape;
    const parts = shape.map(seen);
    const trim = (i: number, side: 'start' | 'end') => {
      const part = parts[i];
      const cut = (s: string) => (side === 'start' ? s.trimStart() : s.trimEnd());
      if (typeof part === 'string' && part !== 'BR') parts[i] = cut(part);
      else if (Array.isArray(part) && typeof part[0] === 'string' && typeof part[1] === 'number')
        parts[i] = [cut(part[0]), part[1]];
    };
    if (parts.length > 1) {
      trim(1, 'start');
      trim(parts.length - 1, 'end');
      parts.forEach((_, i) => parts[i - 1] === 'BR' && trim(i, 'start'));
    }
    return parts.filter((part) => part !== '');
  };
  return shapes(value).map(seen);
}
