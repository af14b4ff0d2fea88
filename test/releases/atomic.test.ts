/**
 * A release goes live all at once (docs/releases.md): a reader during the publish of many items sees every
 * document as it was or every document as it became, never a mix; and a server killed with SIGKILL in the
 * middle of a publish comes back with nothing of it published.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { UserConfig } from '../../src/config/types.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import fs from 'node:fs';
import path from 'node:path';
import { startChildServer, type ChildServer } from '../support/child-server.ts';

const ITEMS = 300;

const config: UserConfig = {
  releases: true,
  collections: [{ slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text' }] }],
};
const childConfig = config as Record<string, unknown>;

/** REST calls to a child server as its admin. */
const caller = (server: ChildServer) => (method: string, url: string, body?: unknown) =>
  fetch(`${server.api}${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

/** A release of `count` new drafts titled `<title> <n>`, none of them published yet. */
async function draftRelease(server: ChildServer, title: string, count: number): Promise<number> {
  const call = caller(server);
  const release = await call('POST', '/releases', { title });
  for (let i = 0; i < count; i++) {
    const made = await call('POST', '/posts?draft=true', { title: `${title} ${i}` });
    await call('POST', `/releases/${release.body.doc.id}/items`, {
      collection: 'posts',
      id: made.body.doc.id,
      action: 'publish',
    });
  }
  return release.body.doc.id;
}

describe('a reader during a publish', () => {
  let writer: ChildServer;
  let reader: TestServer;
  beforeAll(async () => {
    writer = await startChildServer(childConfig);
  });
  afterAll(async () => {
    await reader?.server.stop();
    await writer.stop();
  });

  test('in another process sees none or all of it, in lists and counts', async () => {
    const release = await draftRelease(writer, 'many', ITEMS);
    // The reader is a second instance on the same database, in this process: its reads run while the
    // writer's process is in the middle of its transaction.
    const { database } = JSON.parse(fs.readFileSync(path.join(writer.dir, 'cms.config.json'), 'utf8'));
    const onDisk = database.startsWith('postgres') ? database : path.join(writer.dir, database);
    reader = await startTestServer(
      { ...config, database: onDisk },
      { dir: writer.dir, socket: false, migrate: 'none' },
    );
    const token = writer.token;
    const seen: number[] = [];
    // Warm: the first read of an instance prepares its statements, and the first of each route and query
    // shape loads what it needs; cold, the loop's first read could start only after the publish ended.
    const list = () => reader.request('GET', '/posts?limit=1&where[status][equals]=published', { token });
    const count = () => reader.request('GET', '/posts/count?where[status][equals]=published', { token });
    expect((await reader.request('GET', '/posts/count', { token })).body.totalDocs).toBe(ITEMS);
    expect([(await list()).body.totalDocs, (await count()).body.totalDocs]).toEqual([0, 0]);
    let publishing = true;
    const reading = (async () => {
      while (publishing) {
        // Reads answered in-process from the cache never leave the microtask queue: let the publish's answer in.
        await new Promise((resolve) => setImmediate(resolve));
        const [listed, counted] = [await list(), await count()];
        seen.push(listed.body.totalDocs, counted.body.totalDocs);
      }
    })();
    const published = await caller(writer)('POST', `/releases/${release}/publish`);
    publishing = false;
    await reading;
    expect(published.status).toBe(200);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.filter((n) => n !== 0 && n !== ITEMS)).toEqual([]);
    // Reads began before the commit: the loop did watch the publish happen.
    expect(seen[0]).toBe(0);
  });
});

describe('kill -9 during a publish', () => {
  test('leaves the release unpublished and every document as it was', async () => {
    let server = await startChildServer(childConfig);
    const dir = server.dir;
    try {
      // The first release measures how long a publish of this size takes; the second is killed halfway.
      const measured = await draftRelease(server, 'measured', ITEMS);
      const started = performance.now();
      expect((await caller(server)('POST', `/releases/${measured}/publish`)).status).toBe(200);
      const took = performance.now() - started;
      const killed = await draftRelease(server, 'killed', ITEMS);
      let answered = false;
      const publish = caller(server)('POST', `/releases/${killed}/publish`).then(
        () => (answered = true),
        () => {},
      );
      await Bun.sleep(took / 2);
      await server.crash();
      await publish;
      server = await startChildServer(childConfig, { dir });
      const call = caller(server);
      const release = (await call('GET', `/releases/${killed}`)).body;
      const published = (await call('GET', '/posts/count?where[title][like]=killed&where[status][equals]=published'))
        .body;
      // Nothing of it, or (when the commit beat the kill) all of it; an answered publish is always all of it.
      const outcome = [release.status, published.totalDocs];
      expect([
        ['open', 0],
        ['published', ITEMS],
      ]).toContainEqual(outcome);
      if (answered) expect(outcome).toEqual(['published', ITEMS]);
    } finally {
      await server.stop();
    }
  });
});
