/**
 * `cms restore` reads an archive someone hands over: a symbolic or hard link entry is never followed or
 * made, and a manifest naming a path that climbs out with `..` is refused before anything changes.
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { verifyArchive } from '../../src/backups/manifest.ts';
import { tempDir } from '../harness.ts';

const work = tempDir('cms-restore-links-');
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const sha256 = (bytes: string | Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex');

/** A .tar.gz made by the system's tar from `files` (a string body, or `{ link }` for a symbolic link). */
function archive(
  name: string,
  files: Record<string, string | { link: string }>,
  entries: { path: string; size: number; sha256: string }[],
): string {
  const dir = path.join(work, name);
  const all: Record<string, string | { link: string }> = {
    ...files,
    'manifest.json': JSON.stringify({
      format: 'cms-backup',
      formatVersion: 1,
      version: '0',
      createdAt: '',
      engine: 'sqlite',
      database: null,
      counts: { documents: {}, uploads: 0, uploadBytes: 0 },
      entries,
    }),
  };
  for (const [file, body] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    if (typeof body === 'string') fs.writeFileSync(path.join(dir, file), body);
    else fs.symlinkSync(body.link, path.join(dir, file));
  }
  const out = path.join(work, `${name}.tar.gz`);
  const made = Bun.spawnSync(['tar', '-czf', out, '-C', dir, ...Object.keys(files), 'manifest.json']);
  expect(made.exitCode).toBe(0);
  return out;
}

test('a symbolic link entry is not read as the file the manifest names', async () => {
  const target = '/etc/hostname';
  const file = archive('symlink', { 'data/secret': { link: target } }, [
    { path: 'data/secret', size: 0, sha256: sha256('') },
  ]);
  await expect(verifyArchive(file)).rejects.toThrow('data/secret is missing');
});

test('a manifest naming a path with .. is refused', async () => {
  const file = archive('dotdot', { 'migrations/x.sql': 'select 1;' }, [
    { path: 'migrations/../../x.sql', size: 9, sha256: sha256('select 1;') },
  ]);
  await expect(verifyArchive(file)).rejects.toThrow('the manifest names an unexpected entry "migrations/../../x.sql"');
});
