// Runs once (on the SQLite pass): builds the binaries and the admin bundle the browser files serve.
/**
 * The build pipeline (docs/build.md).
 *
 * - From source: loadSharp() resizes a PNG; the embedded system migrations
 *   match migrations/; the admin is served from admin/dist.
 * - A probe binary (src/build/probe.ts) compiled with exactly dist/cms's
 *   options and plugins, run from a temp folder with only HOME in its
 *   environment (no PATH, so no Bun, and no node_modules): sharp resizes,
 *   drizzle-kit/api diffs, the admin and migrations are embedded, .env and
 *   bunfig.toml are ignored, a cms.config.ts with npm imports loads.
 * - `bun run build` really builds dist/cms, which then runs `--version` from
 *   a temp folder outside the repo.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { type Listening, spawnListening } from '../support/spawn-listening.ts';

const ROOT = resolve(import.meta.dir, '../..');
const BUILD_TIMEOUT = 240_000;

const work = mkdtempSync(join(tmpdir(), 'cms-build-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A real PNG (RGB gradient), written by hand so sharp has to decode something it did not make. */
function makePng(width: number, height: number): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / width;
      raw[row + 2 + x * 3] = (y * 255) / height;
      raw[row + 3 + x * 3] = 128;
    }
  }
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array(4 + data.length);
    body.set(new TextEncoder().encode(type), 0);
    body.set(data, 4);
    const out = new Uint8Array(12 + data.length);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, data.length);
    out.set(body, 4);
    dv.setUint32(8 + data.length, Bun.hash.crc32(body));
    return out;
  };
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', new Uint8Array(deflateSync(raw))),
    chunk('IEND', new Uint8Array(0)),
  ];
  return new Uint8Array(Buffer.concat(parts));
}

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: dv.getUint32(16), height: dv.getUint32(20) };
}

/** Runs a binary with nothing in its environment but HOME (and what `env` adds). */
function run(bin: string, args: string[], opts: { cwd: string; env?: Record<string, string> }) {
  const t = performance.now();
  const p = Bun.spawnSync([bin, ...args], {
    cwd: opts.cwd,
    env: { HOME: join(work, 'home'), ...opts.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString(), ms: performance.now() - t };
}

/** SIGTERM to a `dist/cms serve`, which must then exit 0 (its stderr is shown when it does not). */
async function expectCleanStop(server: Listening): Promise<void> {
  server.proc.kill('SIGTERM');
  const code = await server.proc.exited;
  if (code !== 0) console.error(`dist/cms exited ${code}: ${server.output()}`);
  expect(code).toBe(0);
}

function runJson(bin: string, args: string[], cwd: string, env?: Record<string, string>): any {
  const r = run(bin, args, { cwd, env });
  if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.out}${r.err}`);
  return JSON.parse(r.out.trim().split('\n').pop()!);
}

function journalTags(): string[] {
  const file = join(ROOT, 'migrations/system/meta/_journal.json');
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')).entries as { tag: string; idx: number }[])
    .sort((a, b) => a.idx - b.idx)
    .map((e) => e.tag);
}

mkdirSync(join(work, 'home'), { recursive: true });

// ---------------------------------------------------------------- from source

describe('from source', () => {
  test('loadSharp() resizes a PNG', async () => {
    const { loadSharp } = await import('../../src/uploads/sharp-loader.ts');
    const p = loadSharp();
    expect(loadSharp()).toBe(p); // cached
    const sharp = await p;
    expect(sharp).not.toBeNull();
    const input = makePng(120, 80);
    const out = await sharp!(input).resize({ width: 30 }).png().toBuffer({ resolveWithObject: true });
    expect(out.info).toMatchObject({ width: 30, height: 20, format: 'png' });
    expect(pngSize(out.data)).toEqual({ width: 30, height: 20 });
  });

  test('system migrations match migrations/ and drizzle’s own reader', async () => {
    const { renderSystemMigrationsModule, GENERATED_MIGRATIONS_FILE } = await import(
      '../../scripts/generate-embedded.ts'
    );
    const generated = readFileSync(join(ROOT, GENERATED_MIGRATIONS_FILE), 'utf8');
    // Out of date means: run `bun scripts/generate-embedded.ts` (or bun run build).
    expect(generated).toBe(renderSystemMigrationsModule(ROOT));

    const { systemMigrations, toDrizzleMigrations } = await import('../../src/db/system-migrations.ts');
    expect(systemMigrations.map((m) => m.tag)).toEqual(journalTags());
    if (journalTags().length) {
      const { readMigrationFiles } = await import('drizzle-orm/migrator');
      expect(toDrizzleMigrations(systemMigrations)).toEqual(
        readMigrationFiles({ migrationsFolder: join(ROOT, 'migrations/system') }),
      );
    }
    const sample = toDrizzleMigrations([
      { tag: '0000_x', sql: 'CREATE TABLE a (x);\n--> statement-breakpoint\nCREATE TABLE b (y);', when: 5 },
    ]);
    expect(sample).toEqual([
      {
        sql: ['CREATE TABLE a (x);\n', '\nCREATE TABLE b (y);'],
        bps: true,
        folderMillis: 5,
        hash: new Bun.CryptoHasher('sha256')
          .update('CREATE TABLE a (x);\n--> statement-breakpoint\nCREATE TABLE b (y);')
          .digest('hex'),
      },
    ]);
  });

  describe('admin assets', () => {
    let assets: typeof import('../../src/http/admin-assets.ts');
    let jsPath = '';
    const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
      assets.serveAdminAsset(path, new Request(`http://localhost/admin${path}`, { method, headers }))!;

    beforeAll(async () => {
      const { buildAdmin } = await import('../../admin/build.ts');
      await buildAdmin();
      assets = await import('../../src/http/admin-assets.ts');
      assets.setAdminRuntimeConfig({
        apiPrefix: '/api/cms/',
        adminPrefix: '/admin',
        note: '</script><script>alert(1)</script>',
      });
    });

    test('index.html with prefix and runtime config filled in', async () => {
      expect(assets.adminAssetsSource()).toBe('disk');
      const res = get('/');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      expect(html).not.toContain('__CMS_ADMIN_BASE__');
      expect(html).not.toContain('<!--cms:runtime-config-->');
      const cfg = html.match(/<script>window\.__CMS__=(.*?)<\/script>/)![1]!;
      expect(JSON.parse(cfg)).toEqual({
        apiPrefix: '/api/cms',
        adminPrefix: '/admin',
        note: '</script><script>alert(1)</script>',
      });
      // The config, the theme chosen before the first paint, and the module: nothing injected.
      expect(html.match(/<script/g)!.length).toBe(3);
      expect(html).toContain('<script>/* theme before first paint');
      jsPath = html.match(/src="\/admin(\/assets\/main-[A-Z0-9]+\.js)"/)![1]!;
    });

    test('hashed assets: type, immutable, ETag, 304, gzip, HEAD', async () => {
      const res = get(jsPath);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect((await res.text()).length).toBeGreaterThan(1000);
      expect(get(jsPath, { 'if-none-match': etag }).status).toBe(304);
      const gz = get(jsPath, { 'accept-encoding': 'gzip, deflate, br' });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      // The gzipped bytes are the entry module itself (it mounts the app on #app).
      expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toContain(
        'getElementById("app")',
      );
      expect(get(jsPath, { 'if-none-match': gz.headers.get('etag')! }).status).toBe(304);
      const head = get(jsPath, {}, 'HEAD');
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(get(jsPath, {}, 'POST').status).toBe(405);
    });

    test('SPA fallback, 404 for missing files, nothing outside admin/dist', async () => {
      const spa = get('/collections/posts');
      expect(spa.status).toBe(200);
      expect(await spa.text()).toContain('window.__CMS__');
      expect(get('/assets/missing-ABCDEFGH.js').status).toBe(404);
      expect(get('/favicon.ico').status).toBe(404);
      for (const p of [
        '/../package.json',
        '/assets/../../package.json',
        '/%2e%2e/%2e%2e/package.json',
        '/..%2f..%2fpackage.json',
        '/./index.html',
      ]) {
        const res = get(p);
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain('"name"');
      }
    });
  });
});

// ---------------------------------------------------------------- compiled probe

describe('compiled probe binary (same options and plugins as dist/cms)', () => {
  const dir = join(work, 'probe-dir');
  const bin = join(dir, 'probe');
  const png = join(work, 'in.png');

  beforeAll(async () => {
    const { buildAdmin } = await import('../../admin/build.ts');
    await buildAdmin();
    const { compileBinary } = await import('../../build.ts');
    mkdirSync(dir, { recursive: true });
    await compileBinary({ entry: join(ROOT, 'src/build/probe.ts'), outfile: join(work, 'probe-build/probe') });
    copyFileSync(join(work, 'probe-build/probe'), bin);
    chmodSync(bin, 0o755);
    writeFileSync(png, makePng(200, 100));
  }, BUILD_TIMEOUT);

  test('runs with only HOME in the environment (no Bun on PATH, no node_modules)', () => {
    const r = runJson(bin, ['version'], dir);
    expect(r.execPath).toBe(bin);
    expect(r.main).toStartWith('/$bunfs/');
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });

  test('sharp resizes inside the binary; native files extracted beside it, once', () => {
    const native = join(dir, '.cms-native');
    rmSync(native, { recursive: true, force: true });
    const first = runJson(bin, ['sharp', png, join(work, 'out1.png')], dir);
    expect(first).toMatchObject({ ok: true, width: 50, height: 25 });
    expect(pngSize(readFileSync(join(work, 'out1.png')))).toEqual({ width: 50, height: 25 });
    const { Glob } = Bun;
    const files = [...new Glob('*/@img/*/lib/*').scanSync({ cwd: native })];
    expect(files.some((f) => f.endsWith('.node'))).toBe(true);
    expect(files.some((f) => /libvips-cpp\.so/.test(f))).toBe(true);
    const addon = files.find((f) => f.endsWith('.node'))!;
    const mtime = statSync(join(native, addon)).mtimeMs;
    const second = runJson(bin, ['sharp', png, join(work, 'out2.png')], dir);
    expect(second.ok).toBe(true);
    expect(statSync(join(native, addon)).mtimeMs).toBe(mtime); // not written again
  });

  test('setNativeDir() points extraction elsewhere', () => {
    const target = join(work, 'data-native');
    const r = runJson(bin, ['sharp', png, join(work, 'out3.png'), target], dir);
    expect(r.ok).toBe(true);
    expect([...new Bun.Glob('*/@img/*/lib/*.node').scanSync({ cwd: target })].length).toBe(1);
  });

  test('when no folder can take the native files: one warning line, null, exit 0', () => {
    const d = join(work, 'no-native');
    mkdirSync(d, { recursive: true });
    copyFileSync(bin, join(d, 'probe'));
    chmodSync(join(d, 'probe'), 0o755);
    const blocker = join(d, 'blocker');
    writeFileSync(blocker, '');
    writeFileSync(join(d, '.cms-native'), ''); // a file where the folder beside the binary would go
    const r = run(join(d, 'probe'), ['sharp', png, join(work, 'never.png'), join(blocker, 'native')], {
      cwd: d,
      env: { XDG_CACHE_HOME: join(blocker, 'cache') },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ ok: false });
    const lines = r.err.trim().split('\n');
    expect(lines.length).toBe(1);
    expect(lines[0]).toStartWith('image sizes are off: ');
  });

  test('drizzle-kit/api generates SQLite migrations inside the binary', () => {
    const r = runJson(bin, ['drizzle-kit'], dir);
    expect(r.create.join('\n')).toContain('CREATE TABLE `posts`');
    expect(r.alter).toEqual(['ALTER TABLE `posts` ADD `views` integer;']);
    expect(r.columns).toEqual(['id', 'title', 'views']);
  });

  test('the admin is embedded and served', () => {
    const index = runJson(bin, ['admin', '/'], dir);
    expect(index).toMatchObject({ source: 'embedded', status: 200, cache: 'no-cache' });
    expect(index.body).toContain('window.__CMS__={"apiPrefix":"/api/probe","adminPrefix":"/adm"}');
    const js = index.body.match(/src="\/adm(\/assets\/[^"]+\.js)"/)[1];
    expect(runJson(bin, ['admin', js], dir)).toMatchObject({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      cache: 'public, max-age=31536000, immutable',
    });
    expect(runJson(bin, ['admin', '/collections/posts'], dir)).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
    });
    expect(runJson(bin, ['admin', '/../../package.json'], dir).status).toBe(404);
  });

  test('system migrations are embedded and apply (twice, idempotent)', () => {
    const r = runJson(bin, ['migrations', join(work, 'probe.db')], dir);
    expect(r.tags).toEqual(journalTags());
    expect(r.tables).toContain('__drizzle_migrations');
  });

  test('NODE_ENV is read at run time, production by default; .env and bunfig.toml in the cwd are ignored', () => {
    const cwd = join(work, 'envdir');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, '.env'), 'CMS_PROBE=from-dotenv\nNODE_ENV=development\n');
    writeFileSync(join(cwd, 'bunfig.toml'), 'preload = ["./preload.ts"]\n');
    writeFileSync(join(cwd, 'preload.ts'), 'console.log("PRELOADED")\n');
    const out = run(bin, ['env'], { cwd });
    expect(out.out).not.toContain('PRELOADED');
    expect(JSON.parse(out.out)).toEqual({ NODE_ENV: 'production', CMS_PROBE: null });
    expect(runJson(bin, ['env', '--dev'], cwd)).toEqual({ NODE_ENV: 'development', CMS_PROBE: null });
    expect(runJson(bin, ['env'], cwd, { NODE_ENV: 'test', CMS_PROBE: 'real-env' })).toEqual({
      NODE_ENV: 'test',
      CMS_PROBE: 'real-env',
    });
  });

  test('a cms.config.ts beside the binary loads: arrow functions, TLA, relative and npm imports', () => {
    const site = join(work, 'site');
    mkdirSync(join(site, 'lib'), { recursive: true });
    mkdirSync(join(site, 'node_modules/cjs-helper'), { recursive: true });
    mkdirSync(join(site, 'node_modules/esm-helper'), { recursive: true });
    // A CommonJS package with only "main": resolving it needs the package.json autoload.
    writeFileSync(
      join(site, 'node_modules/cjs-helper/package.json'),
      '{"name":"cjs-helper","version":"1.0.0","main":"lib.js"}',
    );
    writeFileSync(join(site, 'node_modules/cjs-helper/lib.js'), 'module.exports = { twice: (n) => n * 2 }');
    writeFileSync(
      join(site, 'node_modules/esm-helper/package.json'),
      '{"name":"esm-helper","version":"1.0.0","type":"module","exports":"./index.js"}',
    );
    writeFileSync(
      join(site, 'node_modules/esm-helper/index.js'),
      'export const slug = (s) => s.toLowerCase().replace(/\\s+/g, "-")',
    );
    writeFileSync(join(site, 'lib/upper.ts'), 'export const upper = (s: string): string => s.toUpperCase()\n');
    writeFileSync(
      join(site, 'cms.config.ts'),
      `import { twice } from 'cjs-helper'
import { slug } from 'esm-helper'
import { upper } from './lib/upper.ts'
const n: number = await Promise.resolve(21)
export default {
  collections: [{ slug: 'posts', fields: [], hooks: { beforeChange: [async ({ data }: { data: { title: string } }) => ({ ...data, slug: slug(data.title), up: upper(data.title), n: twice(n) })] } }],
}
`,
    );
    const r = runJson(bin, ['config', join(site, 'cms.config.ts')], site);
    expect(r).toEqual({
      slugs: ['posts'],
      hook: { title: 'Hello World', slug: 'hello-world', up: 'HELLO WORLD', n: 42 },
    });
  });
});

// ---------------------------------------------------------------- dist/cms

describe('bun run build → dist/cms', () => {
  const dir = join(work, 'cms-dir');
  const bin = join(dir, 'cms');
  let buildOutput = '';

  beforeAll(() => {
    const p = Bun.spawnSync([process.execPath, join(ROOT, 'build.ts')], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    buildOutput = p.stdout.toString() + p.stderr.toString();
    if (p.exitCode !== 0) throw new Error(`bun run build failed:\n${buildOutput}`);
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(ROOT, 'dist/cms'), bin);
    chmodSync(bin, 0o755);
  }, BUILD_TIMEOUT);

  test('build prints one line per step and the size', () => {
    for (const step of ['admin', 'embedded', 'compile', 'check', 'client', 'done'])
      expect(buildOutput).toMatch(new RegExp(`^${step} `, 'm'));
    expect(buildOutput).toMatch(/^client +dist\/cms-client-\d+\.\d+\.\d+\.tgz /m);
    expect(buildOutput).toMatch(/dist\/cms, \d+(\.\d+)? MB/);
  });

  test('dist/cms --version runs from a folder outside the repo with only HOME set', () => {
    const r = run(bin, ['--version'], { cwd: dir });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\d+\.\d+\.\d+/);
  });

  test('--help lists the commands', () => {
    const r = run(bin, ['--help'], { cwd: dir });
    expect(r.code).toBe(0);
    for (const c of ['serve', 'create-admin', 'migrate', 'migrate:status', 'migrate:create'])
      expect(r.out).toContain(c);
  });

  test('create-admin, then serve a cms.config.ts with arrow-function rules and hooks; data stays beside the config', async () => {
    const site = join(work, 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(
      join(site, 'cms.config.ts'),
      `export default {
      upload: { imageSizes: [{ name: 'thumb', width: 40 }, { name: 'card', width: 120, height: 80 }] },
      collections: [{
        slug: 'posts',
        access: { read: () => true, create: ({ user }) => Boolean(user) },
        hooks: { beforeChange: [({ data }) => ({ ...data, title: String(data.title ?? '').trim() })] },
        fields: [{ name: 'title', type: 'text', required: true }],
      }],
    }\n`,
    );
    const made = run(bin, ['create-admin', '--email', 'Root@Example.com', '--password', 'password123'], { cwd: site });
    expect(made.code).toBe(0);
    expect(made.out).toContain('root@example.com');
    const taken = run(bin, ['create-admin', '--email', 'root@example.com', '--password', 'password123'], { cwd: site });
    expect(taken.code).toBe(1);
    expect(taken.err.trim().split('\n')).toHaveLength(1);
    const weak = run(bin, ['create-admin', '--email', 'x@example.com', '--password', 'short'], { cwd: site });
    expect(weak.code).toBe(1);

    mkdirSync(join(work, 'home'), { recursive: true });
    const server = await spawnListening([bin, 'serve', '--port', '0'], {
      cwd: join(work, 'home'),
      env: { HOME: join(work, 'home'), CMS_CONFIG: join(site, 'cms.config.ts') },
    });
    try {
      const base = `${server.origin}/api/cms`;
      const login = await (
        await fetch(`${base}/users/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'root@example.com', password: 'password123' }),
        })
      ).json();
      const created = await fetch(`${base}/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
        body: JSON.stringify({ title: '  trimmed  ' }),
      });
      expect(created.status).toBe(201);
      expect((await created.json()).doc.title).toBe('trimmed');
      expect(
        (await fetch(`${base}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
          .status,
      ).toBe(401);
      // Image sizes inside the single file: sharp's native parts ship in the binary.
      const png = await (await import('sharp'))
        .default({ create: { width: 400, height: 300, channels: 3, background: '#c33' } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('file', new File([png], 'red.png', { type: 'image/png' }));
      form.append('alt', 'Red');
      const uploaded = await fetch(`${base}/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${login.token}` },
        body: form,
      });
      expect(uploaded.status).toBe(201);
      const media = (await uploaded.json()).doc;
      expect(media).toMatchObject({ mimeType: 'image/png', width: 400, height: 300, alt: 'Red' });
      expect(media.sizes.thumb).toMatchObject({ width: 40, height: 30 });
      expect(media.sizes.card).toMatchObject({ width: 120, height: 80 });
      const card = await fetch(`${server.origin}${media.sizes.card.url}`);
      expect(card.headers.get('content-type')).toBe('image/png');
      const meta = await (await import('sharp')).default(Buffer.from(await card.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([120, 80]);
      const admin = await fetch(`${server.origin}/admin/`);
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain('<html');
      expect(existsSync(join(site, 'data/cms.db'))).toBe(true);
      expect(existsSync(join(site, 'migrations/sqlite/0000_init.sql'))).toBe(true);
    } finally {
      await expectCleanStop(server);
    }
  }, 30_000);

  test('mail leaves the single file through SMTP: a forgot-password link arrives and resets the password', async () => {
    const { startSmtpSink, linkIn, tokenOf } = await import('../support/smtp-sink.ts');
    const sink = await startSmtpSink();
    const site = join(work, 'mail-site');
    mkdirSync(site, { recursive: true });
    expect(
      run(bin, ['create-admin', '--email', 'mail@example.com', '--password', 'password123'], { cwd: site }).code,
    ).toBe(0);
    const server = await spawnListening([bin, 'serve', '--port', '0'], {
      cwd: site,
      env: { HOME: join(work, 'home'), CMS_SMTP_URL: sink.url, CMS_EMAIL_FROM: 'Site <cms@site.test>' },
    });
    try {
      const base = `${server.origin}/api/cms`;
      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await post('/users/forgot-password', { email: 'mail@example.com' })).status).toBe(200);
      const mail = await sink.next('mail@example.com', 10_000);
      expect(mail.from).toContain('cms@site.test');
      const link = linkIn(mail);
      expect(link.startsWith(`${server.origin}/admin/reset-password?token=`)).toBe(true);
      const reset = await post('/users/reset-password', { token: tokenOf(link), password: 'new-password-1' });
      expect(reset.status).toBe(200);
      expect((await post('/users/login', { email: 'mail@example.com', password: 'new-password-1' })).status).toBe(200);
    } finally {
      await expectCleanStop(server);
      await sink.stop();
    }
  }, 30_000);

  test('what loads on first use works inside the single file: backups (write, list, download), the OpenAPI document', async () => {
    const site = join(work, 'lazy-site');
    mkdirSync(site, { recursive: true });
    writeFileSync(
      join(site, 'cms.config.ts'),
      `export default { collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] }\n`,
    );
    expect(
      run(bin, ['create-admin', '--email', 'lazy@example.com', '--password', 'password123'], { cwd: site }).code,
    ).toBe(0);
    const server = await spawnListening([bin, 'serve', '--port', '0'], {
      cwd: site,
      env: { HOME: join(work, 'home') },
    });
    try {
      const base = `${server.origin}/api/cms`;
      const login = await (
        await fetch(`${base}/users/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'lazy@example.com', password: 'password123' }),
        })
      ).json();
      const auth = { authorization: `Bearer ${login.token}` };
      const made = await fetch(`${base}/backups`, { method: 'POST', headers: auth });
      expect(made.status).toBe(201);
      const { doc } = await made.json();
      const list = await (await fetch(`${base}/backups`, { headers: auth })).json();
      expect(list.docs.map((d: { name: string }) => d.name)).toContain(doc.name);
      const download = await fetch(`${base}/backups/${doc.name}`, { headers: auth });
      expect(download.status).toBe(200);
      const bytes = new Uint8Array(await download.arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]); // gzip
      const openapi = await fetch(`${server.origin}/api/cms/openapi.json`);
      expect(openapi.status).toBe(200);
      const document = await openapi.json();
      expect(document.openapi).toMatch(/^3\.1\./);
      expect(Object.keys(document.paths)).toContain('/posts');
    } finally {
      await expectCleanStop(server);
    }
  }, 30_000);

  test('a bad config stops start-up with one line naming the key and the file, exit 1', () => {
    const bad = join(work, 'bad');
    mkdirSync(bad, { recursive: true });
    writeFileSync(
      join(bad, 'cms.config.ts'),
      `export default { collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'txt' }] }] }\n`,
    );
    const r = run(bin, ['serve', '--port', '0'], { cwd: bad });
    expect(r.code).toBe(1);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('collections[0].fields[0].type');
    expect(lines[0]).toContain(join(bad, 'cms.config.ts'));
    expect(r.err).not.toContain('    at ');
  });
});
