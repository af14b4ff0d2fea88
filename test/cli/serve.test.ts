// Runs once (on the SQLite pass): `cms` processes on folders of their own, which always hold a SQLite file.
/**
 * The command line around serving (docs/operations.md, docs/build.md), each in its own `cms` process from source:
 * `cms init`, the first-register hint on a first start, `--tls-cert/--tls-key` with a self-signed
 * certificate made here by openssl (Secure cookies), and the request log in text and JSON.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../harness.ts';
import { spawnListening } from '../support/spawn-listening.ts';

const MAIN = path.join(import.meta.dir, '../../src/cli/main.ts');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function freshDir(): string {
  const dir = tempDir('cms-serve-cli-');
  dirs.push(dir);
  return dir;
}

function cms(args: string[], cwd: string) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** `cms serve` on a free port; resolves once the listening line is out, with everything it printed so far. */
async function serve(cwd: string, extra: string[] = []) {
  const server = await spawnListening([process.execPath, MAIN, 'serve', '--port', '0', ...extra], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return { origin: server.origin, output: server.output, stop: () => server.stop() };
}

describe('cms init', () => {
  test('writes a commented starter config and .gitignore, prints the next two commands; the config serves', async () => {
    const parent = freshDir();
    const r = cms(['init', 'my-site'], parent);
    expect(r.code).toBe(0);
    const site = path.join(parent, 'my-site');
    const config = fs.readFileSync(path.join(site, 'cms.config.ts'), 'utf8');
    expect(config).toContain('export default {');
    expect(config).toMatch(/^\s*\/\/ /m);
    expect(fs.readFileSync(path.join(site, '.gitignore'), 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['data/', 'uploads/', 'backups/']),
    );
    const next = r.out
      .slice(r.out.indexOf('next:'))
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    expect(next).toHaveLength(2);
    expect(next[0]).toBe('cd my-site');
    // The command as it was started, from the new folder (here from source: bun and the path of main.ts).
    expect(next[1]).toStartWith(`bun ${path.relative(site, MAIN)}`);

    const server = await serve(site);
    try {
      const created = await fetch(`${server.origin}/api/cms/posts`);
      expect(created.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 30_000);

  test('never overwrites a config; adds only missing lines to an existing .gitignore', () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ndata/');
    expect(cms(['init'], dir).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules/\ndata/\nuploads/\nbackups/\n*.before-restore-*\n',
    );
    const again = cms(['init'], dir);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists');
  });
});

describe('first start', () => {
  test('with no users it prints the admin URL for the first-register form; with users it does not', async () => {
    const dir = freshDir();
    const first = await serve(dir);
    // The hint is printed just after the "listening" line that serve() waits for.
    for (const deadline = Date.now() + 5000; !first.output().includes('no users yet') && Date.now() < deadline; )
      await Bun.sleep(10);
    expect(first.output()).toContain(`no users yet: open ${first.origin}/admin to create the first admin`);
    await fetch(`${first.origin}/api/cms/users/first-register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'password123' }),
    });
    await first.stop();
    const second = await serve(dir);
    await Bun.sleep(100);
    expect(second.output()).not.toContain('no users yet');
    await second.stop();
  }, 30_000);
});

describe('--tls-cert / --tls-key', () => {
  test('serves HTTPS with the certificate; session cookies are Secure', async () => {
    const dir = freshDir();
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    const made = Bun.spawnSync(
      [
        'openssl',
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdout: 'pipe', stderr: 'pipe' },
    );
    expect(made.exitCode).toBe(0);
    const server = await serve(dir, ['--tls-cert', cert, '--tls-key', key]);
    try {
      expect(server.origin).toStartWith('https://');
      const tls = { ca: fs.readFileSync(cert, 'utf8') };
      const r = await fetch(`${server.origin}/api/cms/users/first-register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.com', password: 'password123' }),
        tls,
      } as RequestInit);
      expect(r.status).toBe(200);
      const cookies = r.headers.getSetCookie();
      expect(cookies.length).toBe(2);
      for (const c of cookies) expect(c).toContain('; Secure');
      // Without trusting the certificate, a client refuses it: it really is the one given.
      expect(
        await fetch(`${server.origin}/api/cms/health`).then(
          () => 'accepted',
          () => 'refused',
        ),
      ).toBe('refused');
    } finally {
      await server.stop();
    }
  }, 30_000);

  test('one without the other, or a missing file, stops start-up with one line', () => {
    const dir = freshDir();
    const r = cms(['serve', '--tls-cert', path.join(dir, 'cert.pem')], dir);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      '--tls-cert and --tls-key go together (PEM files of the certificate and its private key)',
    );
    const missing = cms(
      ['serve', '--tls-cert', path.join(dir, 'nope.pem'), '--tls-key', path.join(dir, 'nope.key')],
      dir,
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('does not exist');
  });
});

describe('request log', () => {
  test('text: one line per request with method, path without query values, status and ms', async () => {
    const dir = freshDir();
    const server = await serve(dir);
    await fetch(`${server.origin}/api/cms/users?where[email][equals]=secret@example.com&limit=5`);
    const out = await server.stop();
    expect(out).toMatch(/^GET \/api\/cms\/users\?where\[email\]\[equals\]&limit 401 \d+(\.\d)?ms$/m);
    expect(out).not.toContain('secret@example.com');
  }, 30_000);

  test('--log-format json: JSON lines', async () => {
    const dir = freshDir();
    const server = await serve(dir, ['--log-format', 'json']);
    await fetch(`${server.origin}/api/cms/health?probe=1`);
    const out = await server.stop();
    const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('/health'))!;
    const entry = JSON.parse(line);
    expect(entry).toMatchObject({ method: 'GET', path: '/api/cms/health?probe', status: 200 });
    expect(typeof entry.ms).toBe('number');
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
    expect(cms(['serve', '--log-format', 'xml'], dir).err.trim()).toBe('--log-format xml: expected text or json');
  }, 30_000);
});
