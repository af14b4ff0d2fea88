/**
 * Signed backups (src/backups/archive-signature.ts): an archive whose files were changed and whose
 * checksums were recomputed is refused, signed or not; so is one from an instance with another secret,
 * unless the restore is told the secret that wrote it or `--trust-archive`. The instance's own archive
 * restores as before.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { createBackup } from '../../src/backups/create-backup.ts';
import { MANIFEST_ENTRY, verifyArchive, type Manifest } from '../../src/backups/manifest.ts';
import { restoreBackup } from '../../src/backups/restore-backup.ts';
import { readTarGz } from '../../src/backups/tar-read.ts';
import { writeTarGz } from '../../src/backups/tar-write.ts';
import { loadConfig } from '../../src/config/load.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { sharedTestDatabase, startTestServer, tempDir, type TestServer } from '../harness.ts';
import { filesIn, form, pdf } from '../support/media-fixtures.ts';

const config: UserConfig = { collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] };

/** The archive again, with `change` applied to one entry's bytes and the manifest's checksums recomputed. */
async function rewrite(
  archive: string,
  target: string,
  entryPrefix: string,
  change: (bytes: Buffer) => Buffer,
  keep: (name: string) => boolean = () => true,
): Promise<void> {
  const entries: { name: string; bytes: Buffer }[] = [];
  for await (const entry of readTarGz(archive)) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    entries.push({ name: entry.name, bytes: Buffer.concat(chunks) });
  }
  const manifestEntry = entries.find((e) => e.name === MANIFEST_ENTRY)!;
  const manifest = JSON.parse(manifestEntry.bytes.toString('utf8')) as Manifest;
  const out = writeTarGz(target);
  for (const entry of entries.filter((e) => e.name !== MANIFEST_ENTRY && keep(e.name))) {
    const bytes = entry.name.startsWith(entryPrefix) ? change(entry.bytes) : entry.bytes;
    if (entry.name === 'manifest.sig') {
      const text = Buffer.from(JSON.stringify(manifest, null, 2));
      await out.add(MANIFEST_ENTRY, text.length, [text]);
      await out.add(entry.name, bytes.length, [bytes]);
      continue;
    }
    const sha256 = await out.add(entry.name, bytes.length, [bytes]);
    const listed = manifest.entries.find((e) => e.path === entry.name)!;
    Object.assign(listed, { size: bytes.length, sha256 });
  }
  if (!keep('manifest.sig')) {
    const text = Buffer.from(JSON.stringify(manifest, null, 2));
    await out.add(MANIFEST_ENTRY, text.length, [text]);
  }
  await out.close();
}

describe('signed backups', () => {
  const dir = tempDir('cms-signed-');
  const work = tempDir('cms-signed-work-');
  let t: TestServer;
  let archive = '';
  let secret = '';
  let drop = async () => {};
  beforeAll(async () => {
    const db = await sharedTestDatabase(dir);
    drop = db.drop;
    t = await startTestServer({ database: db.database, ...config }, { dir });
    const token = (await t.user('admin')).token;
    expect((await t.request('POST', '/media', { token, body: form(pdf(500), 'a.pdf') })).status).toBe(201);
    const backup = await createBackup(t.cms, { outDir: work });
    archive = path.join(work, backup.name);
    secret = t.cms.secret;
    await t.server.stop();
  });
  afterAll(async () => {
    await drop();
    for (const d of [dir, work]) fs.rmSync(d, { recursive: true, force: true });
  });
  const configOf = (folder: string, extra: UserConfig = {}) =>
    loadConfig({
      config: {
        database: t.database.startsWith('postgres') ? t.database : path.join(folder, 'data/cms.db'),
        ...config,
        ...extra,
      },
      rootDir: folder,
    });

  test('an archive whose file was changed and checksums recomputed is refused, and changes nothing', async () => {
    const tampered = path.join(work, 'tampered.tar.gz');
    await rewrite(archive, tampered, 'uploads/', (bytes) => Buffer.concat([bytes, Buffer.from('planted')]));
    await verifyArchive(tampered); // every checksum matches: only the signature can tell
    const before = filesIn(dir);
    await expect(restoreBackup(await configOf(dir), tampered, { now: Date.now() })).rejects.toThrow(
      /was not signed by this instance.*--trust-archive; nothing was changed/,
    );
    expect(filesIn(dir)).toEqual(before);
  });

  test('an unsigned archive is refused unless --trust-archive', async () => {
    const unsigned = path.join(work, 'unsigned.tar.gz');
    await rewrite(
      archive,
      unsigned,
      'uploads/',
      (bytes) => bytes,
      (name) => name !== 'manifest.sig',
    );
    await expect(restoreBackup(await configOf(dir), unsigned, { now: Date.now() })).rejects.toThrow(
      /is not signed.*--trust-archive/,
    );
  });

  test('the instance restores its own archive', async () => {
    const result = await restoreBackup(await configOf(dir), archive, { now: Date.now() });
    expect(result.restored).toBeGreaterThan(0);
  });

  test('another instance needs the secret that wrote it, or --trust-archive', async () => {
    const other = tempDir('cms-signed-other-');
    try {
      await expect(
        restoreBackup(await configOf(other, { secret: 'another-instance-secret-of-enough-length' }), archive, {
          now: Date.now(),
        }),
      ).rejects.toThrow(
        /was not signed by this instance.*set `secret` \(or CMS_SECRET\) to the secret of the instance that wrote it/,
      );
      if (!t.database.startsWith('postgres')) {
        await expect(restoreBackup(await configOf(other), archive, { now: Date.now() })).rejects.toThrow(
          /has no secret yet/,
        );
        const result = await restoreBackup(await configOf(other, { secret }), archive, { now: Date.now() });
        expect(result.restored).toBeGreaterThan(0);
        const trusted = tempDir('cms-signed-trusted-');
        try {
          expect(
            (await restoreBackup(await configOf(trusted), archive, { now: Date.now(), trustArchive: true })).restored,
          ).toBeGreaterThan(0);
        } finally {
          fs.rmSync(trusted, { recursive: true, force: true });
        }
      }
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
