/** The server takes bodies of any size (uploads are limited while they stream); JSON bodies have their own 16 MB limit. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { MAX_JSON_BODY } from '../../src/http/body.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'notes',
        access: { create: () => true },
        fields: [{ name: 'text', type: 'textarea', maxLength: 3 << 20 }],
      },
    ],
  });
});
afterAll(() => t.stop());

test('a JSON body over the limit is a 413 in the contract shape, with or without Content-Length', async () => {
  const text = JSON.stringify({ text: 'x'.repeat(MAX_JSON_BODY) });
  const sized = await t.request('POST', '/notes', { body: text, headers: { 'content-type': 'application/json' } });
  expect(sized.status).toBe(413);
  expect(sized.body.errors[0].message).toContain('larger than');
  const bytes = new TextEncoder().encode(text);
  const stream = new ReadableStream({
    pull(c) {
      c.enqueue(bytes.subarray(0, 1 << 20));
      c.enqueue(bytes.subarray(1 << 20));
      c.close();
    },
  });
  const chunked = await fetch(`${t.api}/notes`, {
    method: 'POST',
    body: stream,
    duplex: 'half',
    headers: { 'content-type': 'application/json' },
  } as RequestInit);
  expect(chunked.status).toBe(413);
});

test('a JSON body under the limit is read as before', async () => {
  const res = await t.request('POST', '/notes', { body: { text: 'y'.repeat(2 << 20) } });
  expect(res.status).toBe(201);
  expect(res.body.doc.text).toHaveLength(2 << 20);
});

test('a body is decoded the same whether it comes with a length or chunked: UTF-8 kept, a byte-order mark refused', async () => {
  const send = async (text: string, chunked: boolean) => {
    const bytes = new TextEncoder().encode(text);
    const body = chunked
      ? new ReadableStream({
          pull(c) {
            c.enqueue(bytes.subarray(0, 3));
            c.enqueue(bytes.subarray(3));
            c.close();
          },
        })
      : bytes;
    const res = await fetch(`${t.api}/notes`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': 'application/json' },
    } as RequestInit);
    return { status: res.status, body: await res.json() };
  };
  for (const chunked of [false, true]) {
    const plain = await send(JSON.stringify({ text: 'Grüße, 世界 ✓' }), chunked);
    expect(plain.status).toBe(201);
    expect(plain.body.doc.text).toBe('Grüße, 世界 ✓');
    const marked = await send(`\uFEFF${JSON.stringify({ text: 'x' })}`, chunked);
    expect(marked.status).toBe(400);
    expect(marked.body.errors[0].message).toBe('The request body is not valid JSON.');
  }
});
