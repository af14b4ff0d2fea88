/**
 * Attack (or accident): `kill -9` a server in the middle of uploads. What it leaves (staged `.part`
 * files, stored files that no media document names) is removed at the next start once older than an
 * hour (docs/operations.md); every media document keeps its files, image sizes included, and
 * a young leftover (perhaps another process's upload in flight) is left alone. Later sweeps run daily.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { filesIn, form, pdf, png, streamedUpload } from '../support/media-fixtures.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { sweepUploadsIfDue } from '../../src/jobs/upload-sweep.ts';

const MB = 1024 * 1024;
const HOUR = 3600_000;
const config = { upload: { imageSizes: [{ name: 'thumb', width: 16 }] } };

/** A streamed upload that sends its first chunks and then stalls, as if the sender were slow. */
function stalledUpload(): { body: ReadableStream<Uint8Array>; contentType: string } {
  const source = streamedUpload(64 * MB);
  const reader = source.body.getReader();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent++ >= 8) return new Promise<void>(() => {});
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  return { body, contentType: source.contentType };
}

const age = (file: string, ms: number) => {
  const when = new Date(Date.now() - ms);
  fs.utimesSync(file, when, when);
};

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await Bun.sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('attack: kill -9 during uploads (child process)', () => {
  let first: ChildServer;
  let second: ChildServer | undefined;
  afterAll(async () => {
    await second?.stop();
  });

  test('after a restart the leftovers are gone and every media document keeps its files', async () => {
    first = await startChildServer(config);
    const uploads = path.join(first.dir, 'uploads');
    const incoming = path.join(uploads, '.incoming');
    const auth = { authorization: `Bearer ${first.token}` };
    for (const body of [form(await png(), 'kept.png', { alt: 'kept' }), form(pdf(), 'kept.pdf')]) {
      expect((await fetch(`${first.api}/media`, { method: 'POST', headers: auth, body })).status).toBe(201);
    }
    const inFlight = Array.from({ length: 3 }, () => {
      const upload = stalledUpload();
      return fetch(`${first.api}/media`, {
        method: 'POST',
        body: upload.body,
        duplex: 'half',
        headers: { ...auth, 'content-type': upload.contentType },
      } as RequestInit).then(
        (r) => r.status,
        () => 'dropped',
      );
    });
    await until(
      () =>
        filesIn(incoming).filter((f) => f.endsWith('.part') && fs.statSync(path.join(incoming, f)).size > 0).length ===
        3,
      'three staged uploads',
    );
    await first.crash();
    expect(await Promise.all(inFlight)).toEqual(['dropped', 'dropped', 'dropped']);

    // What a crash between storing a file and writing its document leaves, old and young.
    fs.writeFileSync(path.join(uploads, 'orphan-abcdefghij.pdf'), pdf());
    fs.writeFileSync(path.join(uploads, 'young-abcdefghij.pdf'), pdf());
    const staged = filesIn(incoming);
    expect(staged.length).toBe(3);
    for (const name of fs.readdirSync(uploads))
      if (name !== 'young-abcdefghij.pdf' && name !== '.incoming') age(path.join(uploads, name), 2 * HOUR);
    for (const name of staged) age(path.join(incoming, name), 2 * HOUR);

    second = await startChildServer(config, { dir: first.dir });
    await until(
      () => filesIn(incoming).length === 0 && !fs.existsSync(path.join(uploads, 'orphan-abcdefghij.pdf')),
      'the sweep at start',
    );
    expect(fs.existsSync(path.join(uploads, 'young-abcdefghij.pdf'))).toBe(true);

    const list = (await (
      await fetch(`${second.api}/media?limit=100`, { headers: { authorization: `Bearer ${second.token}` } })
    ).json()) as { docs: any[] };
    const named = list.docs.flatMap((d) => [d.filename, ...Object.values(d.sizes ?? {}).map((s: any) => s.filename)]);
    expect(list.docs.length).toBe(2);
    expect(named.length).toBe(3);
    for (const name of named) {
      expect(fs.existsSync(path.join(uploads, name))).toBe(true);
      expect((await fetch(`${second.api}/media/file/${name}`)).status).toBe(200);
    }
    expect(fs.readdirSync(uploads).sort()).toEqual(['.incoming', ...named, 'young-abcdefghij.pdf'].sort());
  }, 60_000);
});

describe('the sweep runs daily by cms.clock, remembered in the database', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({}, { jobLoop: true });
  });
  afterAll(async () => {
    await t?.stop();
  });

  test('not again within a day of the last sweep; once a day has passed, old leftovers go', async () => {
    const recorded = async () =>
      (
        await t.cms.store.all<{ value: string }>(
          `SELECT "value" FROM "_cms_settings" WHERE "key" = 'uploads.lastSweepAt'`,
        )
      ).map((row) => ({ at: Number(row.value) }));
    await until(async () => (await recorded()).length === 1, 'the sweep at start');
    const started = t.clock.now();
    expect(await recorded()).toEqual([{ at: started }]);
    const orphan = path.join(t.dir, 'uploads', 'orphan-abcdefghij.pdf');
    fs.writeFileSync(orphan, pdf());
    const when = new Date(t.clock.now() - 2 * HOUR);
    fs.utimesSync(orphan, when, when);

    t.clock.advance(23 * HOUR);
    await sweepUploadsIfDue(t.cms);
    expect(fs.existsSync(orphan)).toBe(true);
    expect(await recorded()).toEqual([{ at: started }]);

    t.clock.advance(2 * HOUR);
    await sweepUploadsIfDue(t.cms);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(await recorded()).toEqual([{ at: started + 25 * HOUR }]);
  });
});
