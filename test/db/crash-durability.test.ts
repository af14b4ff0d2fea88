/**
 * A crash loses nothing that was acknowledged: `cms serve` takes concurrent creates (which share commits
 * on SQLite, src/db/sqlite/write-turn.ts) and is killed with SIGKILL while they are in flight, several
 * times over one database. After each restart every create that got its 201 is there, with the title it
 * was acknowledged with, and ids are unique; no later read changes that.
 */
import { describe, expect, test } from 'bun:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';

const config = {
  collections: [
    { slug: 'notes', access: { read: () => true }, fields: [{ name: 'title', type: 'text', required: true }] },
  ],
};
const CYCLES = 4;
const WRITERS = 24;

/**
 * Creates from `WRITERS` concurrent loops until the server dies, `killAfterMs` after the first was
 * acknowledged (a server just started may first open its database connections); answers the acknowledged ones.
 */
async function writeUntilKilled(server: ChildServer, cycle: number, killAfterMs: number): Promise<Map<number, string>> {
  const acknowledged = new Map<number, string>();
  let alive = true;
  let firstAcknowledged: () => void = () => {};
  const first = new Promise<void>((resolve) => (firstAcknowledged = resolve));
  const loops = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; alive; i++) {
      const title = `c${cycle}-w${w}-${i}`;
      try {
        const res = await fetch(`${server.api}/notes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
          body: JSON.stringify({ title }),
        });
        if (res.status !== 201) continue;
        const body = (await res.json()) as { doc: { id: number; title: string } };
        acknowledged.set(body.doc.id, body.doc.title);
        firstAcknowledged();
      } catch {
        return; // the connection died with the server: this write was never acknowledged
      }
    }
  });
  await Promise.race([first, Bun.sleep(30_000)]);
  await Bun.sleep(killAfterMs);
  await server.crash();
  alive = false;
  await Promise.all(loops);
  return acknowledged;
}

describe('kill -9 under concurrent writes', () => {
  test(`${CYCLES} crashes: every acknowledged create survives`, async () => {
    let server = await startChildServer(config);
    const dir = server.dir;
    const all = new Map<number, string>();
    try {
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const acknowledged = await writeUntilKilled(server, cycle, 300 + cycle * 70);
        expect(acknowledged.size).toBeGreaterThan(0);
        for (const [id, title] of acknowledged) {
          expect(all.has(id)).toBe(false);
          all.set(id, title);
        }
        server = await startChildServer(config, { dir });
        const res = await fetch(`${server.api}/notes?limit=0&pagination=false&depth=0&select[title]=true`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        const stored = new Map(
          ((await res.json()) as { docs: { id: number; title: string }[] }).docs.map((d) => [d.id, d.title]),
        );
        const lost = [...all].filter(([id, title]) => stored.get(id) !== title);
        expect(lost).toEqual([]);
      }
    } finally {
      await server.stop();
    }
  }, 90_000);
});
