/**
 * `cms init [DIR] [--template website]`: a commented starter cms.config.ts (or a whole website with a
 * seed file and a small frontend the server serves, docs/templates.md) and a .gitignore for what the
 * server writes, then the next two commands. Never overwrites a config or another file it would write;
 * adds only missing lines to an existing .gitignore.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ConfigError } from '../errors.ts';
import type { CLIArgs } from './args.ts';
import { commandFrom } from './invoked-as.ts';

const TEMPLATES = ['blank', 'website'];

const STARTER_CONFIG = `// cms.config.ts: the whole shape is in the project's docs/config.md.
// A plain object: no imports needed. Relative paths resolve against this file's folder.
export default {
  // serverURL: 'https://cms.example.com',     // makes media URLs absolute; cookies get Secure on https
  // database: 'data/cms.db',                   // SQLite file (default), or a postgres:// URL
  // cors: ['https://site.example'],            // origins whose browser code may call the API
  // upload: { imageSizes: [{ name: 'thumb', width: 300 }] },   // sizes made for every uploaded image
  // jobs: { secret: process.env.CMS_CRON_SECRET },             // for /jobs/run and /metrics from cron or Prometheus

  collections: [
    {
      slug: 'posts',
      drafts: true, // drafts, versions, scheduled publishing
      // Anyone may read published posts; logged-in users see drafts too.
      access: { read: ({ user }) => (user ? true : { status: { equals: 'published' } }) },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'body', type: 'markdown' },
        { name: 'cover', type: 'upload', relationTo: 'media' },
      ],
      admin: { useAsTitle: 'title' },
    },
  ],

  globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text' }] }],
};
`;

/** What the server writes beside its config: database and secret, uploaded files, backups, and the
 * folders a restore sets aside (`uploads.before-restore-<time>/`). */
const IGNORED = ['data/', 'uploads/', 'backups/', '*.before-restore-*'];

export async function initCommand(args: CLIArgs): Promise<void> {
  const dir = resolve(args.rest[0] ?? '.');
  const existing = ['cms.config.ts', 'cms.config.js', 'cms.config.json'].find((f) => existsSync(join(dir, f)));
  if (existing) throw new ConfigError(`${join(dir, existing)} already exists; cms init leaves it alone`);
  const template = (args.flags.template as string | undefined) ?? 'blank';
  if (!TEMPLATES.includes(template))
    throw new ConfigError(`--template ${template}: expected one of ${TEMPLATES.join(', ')}`);
  const files =
    template === 'website'
      ? (await import('./templates/website.ts')).WEBSITE_TEMPLATE
      : { 'cms.config.ts': STARTER_CONFIG };
  // Nothing of the project's is overwritten: a site of its own in site/, an edited seed.
  const taken = Object.keys(files).find((name) => existsSync(join(dir, name)));
  if (taken) throw new ConfigError(`${join(dir, taken)} already exists; cms init leaves it alone`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const gitignore = join(dir, '.gitignore');
  const had = existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '';
  const present = new Set(had.split(/\r?\n/).map((l) => l.trim()));
  const missing = IGNORED.filter((l) => !present.has(l) && !present.has(`/${l}`));
  if (missing.length)
    writeFileSync(gitignore, `${had}${had && !had.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);

  const where = relative(process.cwd(), dir);
  console.log(
    `wrote ${Object.keys(files)
      .map((name) => join(dir, name))
      .join(', ')}${missing.length ? ` and ${gitignore}` : ''}`,
  );
  if (files['cms.seed.ts'])
    console.log('the first start fills the empty database with sample content from cms.seed.ts');
  console.log('next:');
  // The command as this binary was started, seen from the new folder: `cms` is on PATH only after an install.
  const cms = commandFrom(dir);
  console.log(
    where
      ? `  cd ${where.includes(' ') ? JSON.stringify(where) : where}`
      : `  ${cms} create-admin     # or create the first admin in the browser`,
  );
  console.log(
    files['site/index.html']
      ? `  ${cms}                  # serves the site at http://127.0.0.1:3000/ and the admin at http://127.0.0.1:3000/admin`
      : `  ${cms}                  # serves http://127.0.0.1:3000; open /admin`,
  );
}
