/**
 * Backups that restore whole (docs/operations.md "Backups"): on PostgreSQL `cms backup` says to dump the
 * database first, and `--with-database` puts a pg_dump in the archive that `cms restore` restores; an S3
 * bucket of more than 1,000 files is listed page by page; a database whose migration files are missing
 * says which; `cms restore` without a terminal prints one progress line, not one per file.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createBackup } from '../../src/backups/create-backup.ts';
import { createCMS } from '../../src/create-cms.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { DEFAULT_TEST_ENGINE, quietLog, sharedTestDatabase, startTestServer, tempDir } from '../harness.ts';
import { form, pdf } from '../support/media-fixtures.ts';
import { startS3Server, type S3TestServer } from '../support/s3-server.ts';
import { readTarGz } from '../../src/backups/tar-read.ts';

const config: UserConfig = {
  collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }], access: { read: () => true } }],
};
const main = path.join(import.meta.dir, '../../src/cli/main.ts');

function cli(configPath: string, ...args: string[]) {
  return spawnSync(process.execPath, [main, ...args, '--config', configPath], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** A project folder with its config file, a server on it, and a folder for the archives; `remove` cleans up. */
async function project(name: string) {
  const dir = tempDir(`cms-${name}-`);
  const out = tempDir(`cms-${name}-out-`);
  const db = await sharedTestDatabase(dir);
  const configPath = path.join(dir, 'cms.config.json');
  fs.writeFileSync(configPath, JSON.stringify({ database: db.database, ...config }));
  const t = await startTestServer({ database: db.database, ...config }, { dir });
  const token = (await t.user('admin')).token;
  const remove = async () => {
    await db.drop();
    for (const d of [dir, out]) fs.rmSync(d, { recursive: true, force: true });
  };
  return { dir, out, db, configPath, t, token, remove };
}

describe.skipIf(DEFAULT_TEST_ENGINE !== 'postgres')('PostgreSQL: the database dump and the archive', () => {
  test('cms backup says to dump first; --with-database puts a pg_dump in the archive, and cms restore brings it back', async () => {
    const { dir, out, db, configPath, t, token, remove } = await project('pg-backup');
    try {
      for (const title of ['one', 'two'])
        expect((await t.request('POST', '/posts', { token, body: { title } })).status).toBe(201);
      expect((await t.request('POST', '/media', { token, body: form(pdf(100), 'a.pdf') })).status).toBe(201);

      const plain = cli(configPath, 'backup', '--out', out);
      expect(plain.status).toBe(0);
      expect(plain.stdout).toContain('take its dump (pg_dump) BEFORE running cms backup');

      const whole = cli(configPath, 'backup', '--out', out, '--with-database');
      expect({ status: whole.status, stderr: whole.stderr }).toEqual({ status: 0, stderr: '' });
      expect(whole.stdout).not.toContain('BEFORE');
      const archive = path.join(
        out,
        fs
          .readdirSync(out)
          .filter((n) => n.endsWith('.tar.gz'))
          .sort()
          .at(-1)!,
      );

      // Written after the backup: gone once it is restored.
      expect((await t.request('POST', '/posts', { token, body: { title: 'three' } })).status).toBe(201);
      const refused = cli(configPath, 'restore', archive);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('stop it, then run cms restore again; nothing was changed');
      await t.server.stop();

      const restore = cli(configPath, 'restore', archive);
      expect({ status: restore.status, stderr: restore.stderr }).toEqual({ status: 0, stderr: '' });
      expect(restore.stdout).toMatch(/postgres\.dump\.before-restore-/);
      const again = await startTestServer({ database: db.database, ...config }, { dir });
      try {
        const titles = (await again.request('GET', '/posts?sort=title')).body.docs.map(
          (d: { title: string }) => d.title,
        );
        expect(titles).toEqual(['one', 'two']);
        expect((await again.request('GET', '/media')).body.totalDocs).toBe(1);
      } finally {
        await again.server.stop();
      }
    } finally {
      await remove();
    }
  }, 90_000);
});

describe.skipIf(DEFAULT_TEST_ENGINE !== 'postgres')('PostgreSQL: the manifest of a dump', () => {
  test('with writes running during the backup, the counts are the rows in the dump', async () => {
    const { out, t, token, remove } = await project('pg-counts');
    try {
      for (let i = 0; i < 50; i++) await t.request('POST', '/posts', { token, body: { title: `before ${i}` } });
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          expect((await t.request('POST', '/posts', { token, body: { title: 'during' } })).status).toBe(201);
          written++;
        }
      })();
      let result: Awaited<ReturnType<typeof createBackup>>;
      try {
        result = await createBackup(t.cms, { outDir: out, withDatabase: true });
      } finally {
        writing = false;
        await writer;
      }
      expect(written).toBeGreaterThan(0);

      const dump = path.join(out, 'postgres.dump');
      for await (const entry of readTarGz(path.join(out, `${result.name}`))) {
        if (entry.name !== 'database/postgres.dump') {
          for await (const _ of entry.body);
          continue;
        }
        const chunks: Uint8Array[] = [];
        for await (const chunk of entry.body) chunks.push(chunk);
        fs.writeFileSync(dump, Buffer.concat(chunks));
      }
      // pg_restore writes the table's rows as one COPY block, a line each.
      const data = spawnSync('pg_restore', ['--data-only', '--table=posts', '--file=-', dump], { encoding: 'utf8' });
      expect(data.status).toBe(0);
      const block = data.stdout.split(/^COPY .*FROM stdin;$/m)[1]!.split(/^\\\.$/m)[0]!;
      const inDump = block.split('\n').filter((line) => line !== '').length;
      expect(inDump).toBeGreaterThanOrEqual(50);
      expect(result.manifest.counts.documents.posts).toBe(inDump);
    } finally {
      await t.stop();
      await remove();
    }
  }, 90_000);
});

describe('S3 listings past one page', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server('many-files');
  });
  afterAll(async () => {
    await s3?.stop();
  });

  test('a bucket of 1,050 files (two pages of the listing) is backed up whole', async () => {
    const storage = {
      type: 's3' as const,
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      prefix: 'site',
    };
    const client = new Bun.S3Client({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    const names = Array.from({ length: 1050 }, (_, i) => `f${String(i).padStart(5, '0')}.txt`);
    for (let i = 0; i < names.length; i += 50)
      await Promise.all(names.slice(i, i + 50).map((name) => client.write(`site/${name}`, name)));
    const dir = tempDir('cms-many-files-');
    const db = await sharedTestDatabase(dir);
    const cms = await createCMS({
      config: { database: db.database, ...config, upload: { storage } },
      rootDir: dir,
      log: quietLog,
    });
    try {
      const backup = await createBackup(cms, { outDir: path.join(dir, 'out') });
      expect(backup.manifest.counts.uploads).toBe(1050);
      expect(backup.manifest.entries.filter((e) => e.path.startsWith('uploads/')).map((e) => e.path)).toEqual(
        names.map((n) => `uploads/${n}`),
      );
    } finally {
      await cms.close();
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('restoring', () => {
  test('without a terminal, cms restore prints a few progress lines, not one per file', async () => {
    const { out, configPath, t, token, remove } = await project('restore-line');
    try {
      for (let i = 0; i < 30; i++)
        expect((await t.request('POST', '/media', { token, body: form(pdf(i), `f${i}.pdf`) })).status).toBe(201);
      expect(cli(configPath, 'backup', '--out', out, '--with-database').status).toBe(0);
      await t.server.stop();
      const archive = path.join(out, fs.readdirSync(out).find((n) => n.endsWith('.tar.gz'))!);
      const restore = cli(configPath, 'restore', archive);
      expect({ status: restore.status, stderr: restore.stderr }).toEqual({ status: 0, stderr: '' });
      const lines = restore.stdout.trim().split('\n');
      // Off a terminal the progress is a whole line at the start and at each further tenth (docs/operations.md):
      // at most 11 for the 30 files and the rest of the archive, never one per entry.
      const progress = lines.filter((line) => line.startsWith('restore: restoring'));
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress.length).toBeLessThanOrEqual(11);
      expect(lines.length).toBeLessThan(20);
    } finally {
      await remove();
    }
  }, 90_000);

  test('a database whose migration files are missing says which, and changes nothing', async () => {
    const dir = tempDir('cms-missing-migrations-');
    const db = await sharedTestDatabase(dir);
    const first = await createCMS({ config: { database: db.database, ...config }, rootDir: dir, log: quietLog });
    const folder = first.config.migrationsDir;
    await first.close();
    const written = fs.readdirSync(folder).filter((f) => f.endsWith('.sql'));
    expect(written.length).toBeGreaterThan(0);
    fs.renameSync(path.join(dir, 'migrations'), path.join(dir, 'migrations-elsewhere'));
    try {
      const started = createCMS({ config: { database: db.database, ...config }, rootDir: dir, log: quietLog });
      await expect(started).rejects.toThrow(
        new RegExp(`not in .*migrations/[a-z]+: ${written[0].replace('.sql', '')}.*nothing was changed`),
      );
      expect(fs.existsSync(path.join(dir, 'migrations'))).toBe(false);
    } finally {
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
