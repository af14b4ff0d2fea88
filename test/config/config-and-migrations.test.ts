// Runs once (on the SQLite pass): `cms` processes on folders of their own, which always hold a SQLite file.
/** Config checks (one clear line, exit 1) and the migration path (docs/config.md) through the real command line. */
import { describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../harness.ts';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import { ConfigError } from '../../src/errors.ts';
import type { UserConfig } from '../../src/config/types.ts';

const CLI = path.join(import.meta.dir, '../../src/cli/main.ts');

function cms(dir: string, ...args: string[]) {
  const p = Bun.spawnSync([process.execPath, CLI, ...args], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', CMS_CONFIG: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

function writeConfig(dir: string, body: string) {
  fs.writeFileSync(path.join(dir, 'cms.config.ts'), `export default ${body}\n`);
}

describe('config checks', () => {
  const cases: [string, UserConfig, string][] = [
    [
      'unknown field type',
      { collections: [{ slug: 'a', fields: [{ name: 'x', type: 'txt' as never }] }] },
      'collections[0].fields[0].type',
    ],
    [
      'relationship to an unknown collection',
      { collections: [{ slug: 'a', fields: [{ name: 'x', type: 'relationship', relationTo: 'ghosts' }] }] },
      'relationTo',
    ],
    [
      'duplicate slug',
      {
        collections: [
          { slug: 'a', fields: [] },
          { slug: 'a', fields: [] },
        ],
      },
      'collections[1].slug',
    ],
    [
      'duplicate field name',
      {
        collections: [
          {
            slug: 'a',
            fields: [
              { name: 'x', type: 'text' },
              { name: 'x', type: 'text' },
            ],
          },
        ],
      },
      'collections[0].fields[1].name',
    ],
    [
      'reserved field name',
      { collections: [{ slug: 'a', fields: [{ name: 'createdAt', type: 'text' }] }] },
      'collections[0].fields[0].name',
    ],
    ['reserved slug', { collections: [{ slug: 'globals', fields: [] }] }, 'collections[0].slug'],
    ['bad slug', { collections: [{ slug: 'Has Space', fields: [] }] }, 'collections[0].slug'],
    ['roles without admin', { auth: { roles: ['editor'] } }, 'auth.roles'],
    [
      'select without options',
      { collections: [{ slug: 'a', fields: [{ name: 's', type: 'select' }] }] },
      'collections[0].fields[0].options',
    ],
    [
      'localized without localization',
      { collections: [{ slug: 'a', fields: [{ name: 's', type: 'text', localized: true }] }] },
      'localized',
    ],
    [
      'index on an unknown field',
      { collections: [{ slug: 'a', fields: [], indexes: [{ fields: ['nope'] }] }] },
      'indexes[0].fields',
    ],
    ['webhook with a bad url', { webhooks: [{ url: 'ftp://x' }] }, 'webhooks[0].url'],
  ];
  for (const [name, config, key] of cases) {
    test(name, () => {
      let error: unknown;
      try {
        sanitizeConfig(config, { configPath: '/srv/cms.config.ts', rootDir: '/srv' });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain(key);
      expect(message).toContain('/srv/cms.config.ts');
      expect(message.split('\n')).toHaveLength(1);
    });
  }

  test('the command line prints one line and exits 1', () => {
    const dir = tempDir();
    writeConfig(
      dir,
      `{ collections: [{ slug: 'a', fields: [{ name: 'x', type: 'relationship', relationTo: 'ghosts' }] }] }`,
    );
    const r = cms(dir, 'serve', '--port', '0');
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('ghosts');
    expect(r.err).not.toContain('    at ');
  });
});

describe('migrations', () => {
  test('serve applies additive changes itself, writing their file first', async () => {
    const dir = tempDir();
    writeConfig(dir, `{ collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] }`);
    expect(cms(dir, 'create-admin', '--email', 'a@example.com', '--password', 'password123').code).toBe(0);
    writeConfig(
      dir,
      `{ collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }, { name: 'views', type: 'number', index: true }] }, { slug: 'tags', fields: [{ name: 'name', type: 'text' }] }] }`,
    );
    const status = cms(dir, 'migrate:status');
    expect(status.out).toContain('applied  0000_init');
    expect(status.out).toContain('has changes');
    const r = cms(dir, 'create-admin', '--email', 'b@example.com', '--password', 'password123');
    expect(r.code).toBe(0);
    const files = fs
      .readdirSync(path.join(dir, 'migrations', 'sqlite'))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(files).toEqual(['0000_init.sql', '0001_config_change.sql']);
    const sql = fs.readFileSync(path.join(dir, 'migrations/sqlite/0001_config_change.sql'), 'utf8');
    expect(sql).toContain('ALTER TABLE `posts` ADD `views` real');
    expect(sql).toContain('CREATE TABLE `tags`');
    expect(sql).toContain('CREATE INDEX `posts_views_idx`');
    expect(cms(dir, 'migrate:status').out).toContain('in step');
  });

  test('a destructive change stops start-up, loses nothing, and migrate:create + migrate apply it', () => {
    const dir = tempDir();
    writeConfig(
      dir,
      `{ collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }, { name: 'old', type: 'text' }] }] }`,
    );
    expect(cms(dir, 'create-admin', '--email', 'a@example.com', '--password', 'password123').code).toBe(0);
    writeConfig(dir, `{ collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] }`);
    const refused = cms(dir, 'serve', '--port', '0');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('"posts"."old"');
    expect(refused.err).toContain('cms migrate:create');
    expect(fs.readdirSync(path.join(dir, 'migrations', 'sqlite')).filter((f) => f.endsWith('.sql'))).toEqual([
      '0000_init.sql',
    ]);
    const created = cms(dir, 'migrate:create', 'drop_old');
    expect(created.code).toBe(0);
    const file = path.join(dir, 'migrations/sqlite/0001_drop_old.sql');
    expect(fs.readFileSync(file, 'utf8')).toContain('REVIEW');
    expect(fs.readFileSync(file, 'utf8')).toContain('DROP COLUMN `old`');
    const status = cms(dir, 'migrate:status');
    expect(status.out).toContain('pending  0001_drop_old');
    const applied = cms(dir, 'migrate');
    expect(applied.code).toBe(0);
    expect(applied.out).toContain('[1/1] applying 0001_drop_old');
    expect(cms(dir, 'create-admin', '--email', 'b@example.com', '--password', 'password123').code).toBe(0);
  });

  test('an install made before there were two engines keeps its flat migrations/ folder and continues it', () => {
    const dir = tempDir();
    writeConfig(dir, `{ collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] }`);
    expect(cms(dir, 'create-admin', '--email', 'a@example.com', '--password', 'password123').code).toBe(0);
    // What the earlier release left beside its config: NNNN_*.sql and meta/ directly under migrations/.
    fs.renameSync(path.join(dir, 'migrations', 'sqlite'), path.join(dir, 'legacy'));
    fs.rmSync(path.join(dir, 'migrations'), { recursive: true, force: true });
    fs.renameSync(path.join(dir, 'legacy'), path.join(dir, 'migrations'));
    expect(cms(dir, 'migrate:status').out).toContain('applied  0000_init');
    writeConfig(
      dir,
      `{ collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }, { name: 'views', type: 'number' }] }] }`,
    );
    expect(cms(dir, 'create-admin', '--email', 'b@example.com', '--password', 'password123').code).toBe(0);
    expect(
      fs
        .readdirSync(path.join(dir, 'migrations'))
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    ).toEqual(['0000_init.sql', '0001_config_change.sql']);
    expect(fs.existsSync(path.join(dir, 'migrations', 'sqlite'))).toBe(false);
    expect(cms(dir, 'migrate:status').out).toContain('in step');
  });

  test('migrate:create with nothing to do says so', () => {
    const dir = tempDir();
    writeConfig(dir, `{ collections: [] }`);
    cms(dir, 'create-admin', '--email', 'a@example.com', '--password', 'password123');
    const r = cms(dir, 'migrate:create');
    expect(r.code).toBe(0);
    expect(r.out).toContain('nothing to write');
  });
});

describe('command line', () => {
  test('--version and --help', () => {
    const dir = tempDir();
    expect(cms(dir, '--version').out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(cms(dir, '--help').out).toContain('create-admin');
  });
  test('an unknown command or flag is one line and exit 1', () => {
    const dir = tempDir();
    const a = cms(dir, 'frobnicate');
    expect(a.code).toBe(1);
    expect(a.err.trim().split('\n')).toHaveLength(1);
    const b = cms(dir, '--nope');
    expect(b.code).toBe(1);
  });
  test('create-admin without flags and without a terminal says what is missing', () => {
    const r = cms(tempDir(), 'create-admin');
    expect(r.code).toBe(1);
    expect(r.err).toContain('--email');
  });
});
