/**
 * Writes that are not saves keep full-text search as a save does (docs/search.md): `cms import` indexes what
 * it loads, `cms restore` rebuilds the indexes, and `cms reindex` beside a running server moves the change
 * counters, so the server's kept answers to searches are not served stale.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { exportContent } from '../../src/content-files/export-content.ts';
import { importContent } from '../../src/content-files/import-content.ts';
import { createCMS } from '../../src/create-cms.ts';
import { localAPI } from '../../src/local.ts';
import { searchableNotes } from '../fixtures/searchable-notes.ts';

const CLI = path.join(import.meta.dir, '../../src/cli/main.ts');
const FIXTURE = path.join(import.meta.dir, '../fixtures/searchable-notes.ts');
const config = { collections: [searchableNotes] };

/** Runs the command line in another process, without blocking this one's event loop (its server answers meanwhile). */
const cli = async (cwd: string, ...args: string[]) => {
  const run = Bun.spawn([process.execPath, CLI, ...args, '--config', path.join(cwd, 'cms.config.ts')], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  return { code, out, err };
};
/** A config file for the command line on the database `database`. */
const writeConfig = (dir: string, database: string) =>
  fs.writeFileSync(
    path.join(dir, 'cms.config.ts'),
    `import { searchableNotes } from ${JSON.stringify(FIXTURE)};\nexport default { database: ${JSON.stringify(database)}, collections: [searchableNotes] };\n`,
  );
/** What an anonymous reader's search finds, through the response cache as any read. */
const found = async (t: TestServer, terms: string) =>
  (await t.request('GET', `/notes?search=${encodeURIComponent(terms)}&sort=id`)).body.docs.map(
    (d: { text: string }) => d.text,
  );

const servers: TestServer[] = [];
afterAll(async () => {
  for (const t of servers) await t.stop();
});

describe('search after writes that are not saves', () => {
  test('an import indexes what it loads, and a kept answer from before is not served', async () => {
    const source = await startTestServer(config, { socket: false });
    const target = await startTestServer(config, { socket: false });
    servers.push(source, target);
    const admin = await source.session('admin');
    for (const text of ['hello world', 'hello there', 'goodbye'])
      expect((await source.request('POST', '/notes', { token: admin.token, body: { text } })).status).toBe(201);
    const folder = path.join(source.dir, 'export');
    await exportContent(source.cms, { outDir: folder });

    expect(await found(target, 'hello')).toEqual([]);
    await importContent(target.cms, folder);
    expect(await found(target, 'hello')).toEqual(['hello world', 'hello there']);
    // Importing again over the same ids leaves one row per document.
    await importContent(target.cms, folder);
    expect(await found(target, 'goodbye')).toEqual(['goodbye']);
  });

  test('cms reindex beside a running server: its next search sees the rebuilt index', async () => {
    const t = await startTestServer(config, { socket: false });
    servers.push(t);
    const dir = tempDir('cms-reindex-');
    writeConfig(dir, t.database);
    // A row written past the operations (as a hand-written SQL fix would be) is in no index yet.
    await t.cms.store.run('INSERT INTO "notes" ("text", "createdAt", "updatedAt") VALUES (?, ?, ?)', [
      'written by hand',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
    expect(await found(t, 'hand')).toEqual([]);
    expect(await found(t, 'hand')).toEqual([]);

    const run = await cli(dir, 'reindex');
    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
    expect(run.out).toContain('reindexed notes: 1 documents');
    expect(await found(t, 'hand')).toEqual(['written by hand']);
  });
});

describe('cms restore', () => {
  test('rebuilds the search indexes from the restored documents, with a progress line', async () => {
    const dir = tempDir('cms-restore-search-');
    writeConfig(dir, path.join(dir, 'data/cms.db'));
    const quiet = { info() {}, warn() {}, error() {} };
    const cms = await createCMS({ configPath: path.join(dir, 'cms.config.ts'), log: quiet });
    await localAPI(cms).create({ collection: 'notes', data: { text: 'kept through a restore' } });
    await cms.close();
    expect((await cli(dir, 'backup', '--out', path.join(dir, 'backups'))).code).toBe(0);
    const [archive] = fs.readdirSync(path.join(dir, 'backups'));

    const restored = await cli(dir, 'restore', path.join(dir, 'backups', archive!));
    expect({ code: restored.code, err: restored.err }).toEqual({ code: 0, err: '' });
    expect(restored.out).toContain('reindexed notes: 1 documents');
    const after = await createCMS({ configPath: path.join(dir, 'cms.config.ts'), log: quiet });
    try {
      const hits = await localAPI(after).find({ collection: 'notes', search: 'restore' } as never);
      expect(hits.docs.map((d) => d.text)).toEqual(['kept through a restore']);
    } finally {
      await after.close();
    }
  });
});
