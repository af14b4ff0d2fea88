// Runs once (on the SQLite pass): builds the binaries and the admin bundle the browser files serve.
/**
 * `bun run build --all` (docs/build.md, "Five platforms"): built once, then
 *
 * - every file is an executable of its platform (`file`), listed in SHA256SUMS
 *   with its real hash, and carries its own platform's sharp addon and
 *   libvips (bytes of each found inside it) and no other platform's;
 * - the macOS binaries carry a code signature (Apple Silicon runs no unsigned code);
 * - the Linux arm64 binary runs under qemu-user-static (with Debian's arm64
 *   cross libc as its root): --version, serve, create a document, upload a PNG
 *   and get its image sizes made by the arm64 libvips.
 *
 * - the Windows binary runs under Wine (Debian's wine and gcc-mingw-w64-x86-64-win32, which .ci/run
 *   installs) with a stand-in bcryptprimitives.dll built here (Wine 8 lacks it): --version, serve,
 *   create a document, upload an image and get its sizes, then back up and export.
 *
 * macOS binaries are not run here (no emulator on the CI machine); README "Download" says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { findSharpNative } from '../../src/build/sharp-native-source.ts';
import { BUILD_TARGETS } from '../../src/build/targets.ts';
import { spawnListening } from '../support/spawn-listening.ts';

const ROOT = resolve(import.meta.dir, '../..');
const DIST = join(ROOT, 'dist');
const QEMU = Bun.which('qemu-aarch64-static');
const ARM64_ROOT = '/usr/aarch64-linux-gnu';

const work = mkdtempSync(join(tmpdir(), 'cms-targets-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let buildOutput = '';
beforeAll(() => {
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'build.ts'), '--all'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  buildOutput = p.stdout.toString() + p.stderr.toString();
  if (p.exitCode !== 0) throw new Error(`bun run build --all failed:\n${buildOutput}`);
}, 300_000);

const FORMAT: Record<string, RegExp> = {
  'linux-x64': /ELF 64-bit LSB executable, x86-64/,
  'linux-arm64': /ELF 64-bit LSB executable, ARM aarch64/,
  'darwin-x64': /Mach-O 64-bit x86_64 executable/,
  'darwin-arm64': /Mach-O 64-bit arm64 executable/,
  'windows-x64': /PE32\+ executable \(console\) x86-64, for MS Windows/,
};

describe('bun run build --all', () => {
  test('writes the five files and SHA256SUMS with their real hashes', () => {
    expect(buildOutput).toMatch(/^checksums {2}dist\/SHA256SUMS$/m);
    const lines = readFileSync(join(DIST, 'SHA256SUMS'), 'utf8').trim().split('\n');
    expect(lines.map((l) => l.split('  ')[1])).toEqual([
      'cms-linux-x64',
      'cms-linux-arm64',
      'cms-darwin-x64',
      'cms-darwin-arm64',
      'cms-windows-x64.exe',
    ]);
    for (const line of lines) {
      const [sum, name] = line.split('  ') as [string, string];
      expect(
        createHash('sha256')
          .update(readFileSync(join(DIST, name)))
          .digest('hex'),
      ).toBe(sum);
    }
  });

  for (const target of BUILD_TARGETS) {
    test(`${target.file}: format, and its own platform's sharp addon and libvips inside`, () => {
      const file = join(DIST, target.file);
      const described = Bun.spawnSync(['file', '-b', file]).stdout.toString();
      expect(described).toMatch(FORMAT[target.name]!);
      const binary = readFileSync(file);
      const native = findSharpNative(ROOT, target.sharpPlatform);
      expect(native.files.length).toBeGreaterThanOrEqual(2);
      for (const f of native.files) {
        const bytes = readFileSync(f.source);
        // A slice from the middle of the file: present only when the library itself is embedded.
        const probe = bytes.subarray(bytes.length >> 1, (bytes.length >> 1) + 4096);
        expect({ file: f.rel, embedded: binary.indexOf(probe) >= 0 }).toEqual({ file: f.rel, embedded: true });
      }
      expect(binary.includes(native.id)).toBe(true);
      for (const other of BUILD_TARGETS) {
        if (other !== target)
          expect({ other: other.name, found: binary.includes(`sharp-${other.sharpPlatform}-`) }).toEqual({
            other: other.name,
            found: false,
          });
      }
      if (target.os === 'darwin') expect(hasCodeSignature(binary)).toBe(true);
    }, 30_000);
  }
});

/** True when the Mach-O header lists LC_CODE_SIGNATURE (0x1d). */
function hasCodeSignature(binary: Buffer): boolean {
  const ncmds = binary.readUInt32LE(16);
  let offset = 32;
  for (let i = 0; i < ncmds; i++) {
    if (binary.readUInt32LE(offset) === 0x1d) return true;
    offset += binary.readUInt32LE(offset + 4);
  }
  return false;
}

describe('dist/cms-linux-arm64 under qemu-user-static', () => {
  if (!QEMU || !Bun.file(join(ARM64_ROOT, 'lib/ld-linux-aarch64.so.1')).size) {
    test.skip('needs qemu-user-static and libc6-arm64-cross, libstdc++6-arm64-cross (Debian; .ci/run installs them)', () => {});
    return;
  }
  const arm64 = (args: string[]) => [QEMU, '-L', ARM64_ROOT, join(DIST, 'cms-linux-arm64'), ...args];
  const home = join(work, 'home');

  test('--version', () => {
    const p = Bun.spawnSync(arm64(['--version']), { env: { HOME: home }, stdout: 'pipe', stderr: 'pipe' });
    expect(p.stderr.toString()).toBe('');
    expect(p.exitCode).toBe(0);
    expect(p.stdout.toString()).toMatch(/\d+\.\d+\.\d+/);
  }, 30_000);

  test('serves: creates a document, uploads a PNG and gets its image sizes', async () => {
    const site = join(work, 'site');
    mkdirSync(site, { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(site, 'cms.config.ts'),
      `export default {
      upload: { imageSizes: [{ name: 'thumb', width: 40 }] },
      collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text', required: true }] }],
    }\n`,
    );
    const server = await spawnListening(arm64(['serve', '--port', '0']), {
      cwd: site,
      env: { HOME: home },
      timeoutMs: 90_000,
    });
    try {
      const base = `${server.origin}/api/cms`;
      const first = await fetch(`${base}/users/first-register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'root@example.com', password: 'password123' }),
      });
      expect(first.status).toBe(200);
      const auth = { authorization: `Bearer ${(await first.json()).token}` };
      const created = await fetch(`${base}/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ title: 'from arm64' }),
      });
      expect(created.status).toBe(201);
      const sharp = (await import('sharp')).default;
      const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#36c' } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('file', new File([png], 'blue.png', { type: 'image/png' }));
      const uploaded = await fetch(`${base}/media`, { method: 'POST', headers: auth, body: form });
      expect(uploaded.status).toBe(201);
      const media = (await uploaded.json()).doc;
      expect(media).toMatchObject({ mimeType: 'image/png', width: 400, height: 300 });
      expect(media.sizes.thumb).toMatchObject({ width: 40, height: 30 });
      const thumb = await fetch(`${server.origin}${media.sizes.thumb.url}`);
      const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([40, 30]);
    } finally {
      server.proc.kill('SIGTERM');
      const code = await server.proc.exited;
      if (code !== 0) console.error(`cms-linux-arm64 exited ${code}: ${server.output()}`);
      expect(code).toBe(0);
    }
  }, 120_000);
});

/**
 * Wine 8 (Debian 12) has no bcryptprimitives.dll, which Bun's Windows build imports `ProcessPrng` from:
 * without it the binary exits at once (c0000135). The stand-in exports ProcessPrng through RtlGenRandom
 * (SystemFunction036), the same system random source; Windows 10 and later have the real DLL.
 */
const STAND_IN_DLL = `#include <windows.h>
#include <ntsecapi.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) {
  while (size > 0) {
    ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
    if (!RtlGenRandom(data, n)) return FALSE;
    data += n;
    size -= n;
  }
  return TRUE;
}
`;

describe('dist/cms-windows-x64.exe under Wine', () => {
  const WINE = Bun.which('wine');
  const MINGW = Bun.which('x86_64-w64-mingw32-gcc');
  if (!WINE || !MINGW) {
    test.skip('needs wine and gcc-mingw-w64-x86-64-win32 (Debian; .ci/run installs them)', () => {});
    return;
  }
  const win = join(work, 'windows');
  // One prefix per user, kept between runs: making a new one takes Wine about 20 s.
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    WINEPREFIX: join(tmpdir(), `cms-test-wine-${userInfo().uid}`),
    WINEDEBUG: '-all',
  };
  const exe = join(win, 'cms-windows-x64.exe');
  const stderrs: string[] = [];
  const cms = async (args: string[], cwd: string) => {
    const p = Bun.spawn([WINE, exe, ...args], { cwd, env, stdout: 'pipe', stderr: 'pipe' });
    const [out, err, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    stderrs.push(err);
    return { out, err, code };
  };
  afterAll(() => {
    // Wine keeps a wineserver per prefix for a few seconds after the last program; stop it now.
    Bun.spawnSync(['wineserver', '-k'], { env });
  });

  test('the stand-in bcryptprimitives.dll builds beside the binary, and --version runs', async () => {
    mkdirSync(win, { recursive: true });
    writeFileSync(join(win, 'bcryptprimitives.c'), STAND_IN_DLL);
    const built = Bun.spawnSync(
      [MINGW, '-shared', '-O2', '-o', join(win, 'bcryptprimitives.dll'), join(win, 'bcryptprimitives.c'), '-ladvapi32'],
      { stderr: 'pipe' },
    );
    expect(built.stderr.toString()).toBe('');
    writeFileSync(exe, readFileSync(join(DIST, 'cms-windows-x64.exe')));
    const version = await cms(['--version'], win);
    expect(version.code).toBe(0);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+/);
  }, 120_000);

  test('serves: creates a document, uploads a PNG and gets its sizes; then backs up and exports', async () => {
    const site = join(win, 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(
      join(site, 'cms.config.ts'),
      `export default {
      upload: { imageSizes: [{ name: 'thumb', width: 40 }] },
      collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text', required: true }] }],
    }\n`,
    );
    // Its output goes to files: pipes nobody reads while it serves stalled it under Wine.
    const [outFile, errFile] = [join(win, 'serve.out'), join(win, 'serve.err')];
    const proc = Bun.spawn([WINE, exe, 'serve', '--port', '0'], {
      cwd: site,
      env,
      stdout: Bun.file(outFile),
      stderr: Bun.file(errFile),
    });
    let media: any;
    try {
      // Port 0: the system picks a free one and the server prints it.
      let origin: string | undefined;
      for (let i = 0; i < 600 && !origin && proc.exitCode === null; i++) {
        origin = /listening on (https?:\/\/[^/\s]+)/.exec(readFileSync(outFile, 'utf8'))?.[1];
        if (!origin) await Bun.sleep(100);
      }
      if (!origin)
        throw new Error(`the server did not start: ${readFileSync(outFile, 'utf8')}${readFileSync(errFile, 'utf8')}`);
      const base = `${origin}/api/cms`;
      const first = await fetch(`${base}/users/first-register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'root@example.com', password: 'password123' }),
      });
      expect(first.status).toBe(200);
      const auth = { authorization: `Bearer ${(await first.json()).token}` };
      const created = await fetch(`${base}/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ title: 'from Windows' }),
      });
      expect(created.status).toBe(201);
      const sharp = (await import('sharp')).default;
      const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#36c' } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('file', new File([png], 'blue.png', { type: 'image/png' }));
      const uploaded = await fetch(`${base}/media`, { method: 'POST', headers: auth, body: form });
      expect(uploaded.status).toBe(201);
      media = (await uploaded.json()).doc;
      expect(media).toMatchObject({ mimeType: 'image/png', width: 400, height: 300 });
      expect(media.sizes.thumb).toMatchObject({ width: 40, height: 30 });
      const thumb = await fetch(`${origin}${media.sizes.thumb.url}`);
      const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([40, 30]);
    } finally {
      // Windows has no SIGTERM: Wine ends the process; the commands below need the database free.
      proc.kill();
      await proc.exited;
      stderrs.push(readFileSync(errFile, 'utf8'));
    }

    const backup = await cms(['backup'], site);
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/wrote .*cms-backup-.*\.tar\.gz .*: \d+ documents, 2 uploads/);
    const exported = await cms(['export'], site);
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('exported 2 documents, 0 globals and 2 media files');
    expect(JSON.parse(readFileSync(join(site, 'export', 'posts', '1.json'), 'utf8')).title).toBe('from Windows');
    expect(
      readFileSync(join(site, 'export', 'media', media.filename)).equals(
        readFileSync(join(site, 'uploads', media.filename)),
      ),
    ).toBe(true);
    // No command printed Bun's resolver warning (docs/build.md, "Windows under Wine").
    expect(stderrs.filter((e) => e.includes('Internal error'))).toEqual([]);
  }, 240_000);
});
