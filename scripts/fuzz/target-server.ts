/**
 * The server the fuzzer attacks: `cms serve` in its own process (so a crash is seen, not suffered), over a
 * temp folder, with a config that uses every field type, drafts, localization, uploads, field rules and a
 * hidden field, and a few documents to aim at.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type TargetServer = {
  origin: string;
  token: string;
  exited(): string | null;
  log(): string;
  stop(): Promise<void>;
};

const CONFIG = `export default {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  upload: { maxFileSize: 2_000_000 },
  collections: [{
    slug: 'posts',
    drafts: true,
    access: { read: ({ user }) => (user ? true : { status: { equals: 'published' } }), create: () => true, update: ({ user }) => Boolean(user) },
    fields: [
      { name: 'title', type: 'text', localized: true },
      { name: 'body', type: 'markdown' },
      { name: 'views', type: 'number' },
      { name: 'featured', type: 'checkbox' },
      { name: 'published', type: 'date' },
      { name: 'email', type: 'email' },
      { name: 'tags', type: 'select', hasMany: true, options: ['a', 'b', 'c'] },
      { name: 'author', type: 'relationship', relationTo: 'users' },
      { name: 'related', type: 'relationship', relationTo: 'posts', hasMany: true },
      { name: 'cover', type: 'upload', relationTo: 'media' },
      { name: 'meta', type: 'json' },
      { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text' }, { name: 'token', type: 'text', hidden: true }] },
      { name: 'items', type: 'array', fields: [{ name: 'label', type: 'text', required: true }, { name: 'cost', type: 'number', access: { read: ({ user }) => user?.role === 'admin' } }] },
      { name: 'secret', type: 'text', access: { read: ({ doc }) => doc.title === 'open' } },
    ],
  }],
  globals: [{ slug: 'settings', drafts: true, access: { read: () => true }, fields: [{ name: 'siteName', type: 'text', localized: true }, { name: 'limits', type: 'group', fields: [{ name: 'max', type: 'number' }] }] }],
};
`;

export async function startTargetServer(): Promise<TargetServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-fuzz-'));
  fs.writeFileSync(path.join(dir, 'cms.config.ts'), CONFIG);
  const main = path.join(import.meta.dir, '../../src/cli/main.ts');
  const child: ChildProcess = spawn(
    process.execPath,
    [main, 'serve', '--config', path.join(dir, 'cms.config.ts'), '--port', '0'],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  let output = '';
  let exit: string | null = null;
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  child.on('exit', (code, signal) => (exit = `exited with ${signal ?? code}`));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${output}`)), 30_000);
    const look = () => {
      const match = /listening on (http:\/\/[^/\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      } else if (exit) {
        clearTimeout(timer);
        reject(new Error(`the server ${exit}: ${output}`));
      }
    };
    child.stdout!.on('data', look);
    child.on('exit', look);
  });
  const token = await seed(`${origin}/api/cms`);
  return {
    origin,
    token,
    exited: () => exit,
    log: () => output,
    async stop() {
      if (!exit) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A first admin and a few documents, so ids, versions and relationships exist to aim at. */
async function seed(api: string): Promise<string> {
  const post = (pathname: string, body: unknown, token?: string) =>
    fetch(`${api}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const registered = await post('/users/first-register', { email: 'admin@example.com', password: 'password123' });
  const { token } = (await registered.json()) as { token: string };
  for (let i = 1; i <= 3; i++) {
    await post(
      '/posts',
      {
        title: `post ${i}`,
        status: 'published',
        views: i,
        tags: ['a'],
        seo: { title: 's', token: 't' },
        items: [{ label: 'l', cost: i }],
        related: i > 1 ? [1] : [],
      },
      token,
    );
  }
  await post('/globals/settings', { siteName: 'site' }, token);
  return token;
}
