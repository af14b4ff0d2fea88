// Runs once (on the SQLite pass): `cms` processes on folders of their own, which always hold a SQLite file.
/** `cms serve` stops cleanly on SIGTERM and SIGINT: requests in flight finish and are kept, then it exits 0. */
import { describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { tempDir } from '../harness.ts';
import { spawnListening } from '../support/spawn-listening.ts';

const CLI = path.join(import.meta.dir, '../../src/cli/main.ts');

/** `cms serve` on a free port (the one it prints), ready once it answers. */
async function serve(dir: string) {
  const { proc, origin } = await spawnListening([process.execPath, CLI, 'serve', '--port', '0'], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return { proc, base: `${origin}/api/cms` };
}

describe('clean shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal}: a write in flight finishes and is kept; exit code 0`, async () => {
      const dir = tempDir();
      // A slow hook keeps the request in flight while the signal arrives; it marks when it has begun, so the
      // signal never comes before the server has the request (on a busy machine 100 ms was not enough).
      const marker = path.join(dir, 'in-flight');
      fs.writeFileSync(
        path.join(dir, 'cms.config.ts'),
        `export default { collections: [{ slug: 'notes', access: { create: () => true }, hooks: { beforeChange: [async ({ data }) => { await Bun.write(${JSON.stringify(marker)}, ''); await Bun.sleep(300); return data }] }, fields: [{ name: 'text', type: 'text' }] }] }\n`,
      );
      const { proc, base } = await serve(dir);
      const pending = fetch(`${base}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'in flight' }),
      });
      for (const deadline = Date.now() + 10_000; !fs.existsSync(marker); await Bun.sleep(10)) {
        if (Date.now() > deadline) throw new Error('the write never reached its hook');
      }
      proc.kill(signal);
      const res = await pending;
      expect(res.status).toBe(201);
      expect(await proc.exited).toBe(0);
      const db = new Database(path.join(dir, 'data/cms.db'), { readonly: true });
      expect(db.query('SELECT text FROM notes').all()).toEqual([{ text: 'in flight' }]);
      db.close();
      // New connections are refused once it has stopped.
      expect(
        await fetch(`${base}/users/init`).then(
          () => 'answered',
          () => 'refused',
        ),
      ).toBe('refused');
    }, 20_000);
  }
});
