// Runs once (on the SQLite pass): a consumer project on a SQLite file of its own, compiled by tsc.
/**
 * Types (docs/typescript.md): a consumer project compiled with tsc against the types `cms generate:types` wrote.
 * Correct uses compile; a misspelt slug, a wrong field name and a wrong select value are compile errors.
 */
import { describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { cli, consumerProject, ROOT, run } from '../support/consumer-project.ts';
import { spawnListening } from '../support/spawn-listening.ts';

/** tsc's errors, one list per file of the consumer. */
function compile(dir: string): Map<string, string[]> {
  const { out } = run([path.join(ROOT, 'node_modules/.bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], dir);
  const errors = new Map<string, string[]>();
  let file = '';
  for (const line of out.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (match) errors.set((file = match[1]), [...(errors.get(match[1]) ?? []), match[2]]);
    else if (file && line.startsWith(' ')) errors.get(file)!.push(line.trim());
  }
  return errors;
}

describe('cms generate:types', () => {
  test('writes cms-types.ts beside the config, and a consumer compiles only correct uses', () => {
    const dir = consumerProject();
    const generated = cli(['generate:types', '--config', path.join(dir, 'cms.config.ts')], dir);
    expect(generated).toMatchObject({ code: 0 });
    expect(generated.out).toContain(`wrote ${path.join(dir, 'cms-types.ts')}`);
    expect(cli(['generate:types', '--config', path.join(dir, 'cms.config.ts')], dir).out).toContain('is up to date');

    const errors = compile(dir);
    expect([...errors.keys()].sort()).toEqual([
      'bad-block.ts',
      'bad-client.ts',
      'bad-field.ts',
      'bad-relation.ts',
      'bad-select.ts',
      'bad-slug.ts',
    ]);
    expect(errors.get('bad-relation.ts')!.join('\n')).toContain(`'"media"' is not assignable`);
    expect(errors.get('bad-block.ts')!.join('\n')).toContain(`'"ctaa"' is not assignable`);
    expect(errors.get('bad-client.ts')!.join('\n')).toContain(`Type '"postz"' is not assignable`);
    expect(errors.get('bad-client.ts')!.join('\n')).toContain(
      `Type '"newz"' is not assignable to type '"blog" | "news"`,
    );
    expect(errors.get('bad-client.ts')!.join('\n')).toContain(`'categry.name'`);
    expect(errors.get('bad-client.ts')!.join('\n')).toContain(`'"pdf"' is not assignable`);
    expect(errors.get('bad-slug.ts')!.join('\n')).toContain(`Type '"postz"' is not assignable`);
    expect(errors.get('bad-field.ts')!.join('\n')).toContain(`'titel' does not exist in type 'PostData'`);
    expect(errors.get('bad-field.ts')!.join('\n')).toContain(`Property 'banner' does not exist`);
    expect(errors.get('bad-select.ts')!.join('\n')).toContain(
      `Type '"newz"' is not assignable to type '"blog" | "news"`,
    );
  });

  test('cms serve --dev writes the types at start', async () => {
    const dir = consumerProject();
    const server = await spawnListening(
      [
        process.execPath,
        path.join(ROOT, 'src/cli/main.ts'),
        'serve',
        '--dev',
        '--port',
        '0',
        '--config',
        path.join(dir, 'cms.config.ts'),
      ],
      { cwd: dir },
    );
    const output = await server.stop();
    expect(output).toContain(`types written to ${path.join(dir, 'cms-types.ts')}`);
    expect(fs.readFileSync(path.join(dir, 'cms-types.ts'), 'utf8')).toContain('export type CMSTypes = {');
  });

  test('--out writes elsewhere; interfaces follow the config (selects, relationships, localized, arrays, drafts)', () => {
    const dir = consumerProject();
    const out = path.join(dir, 'types/generated.ts');
    expect(cli(['generate:types', '--config', path.join(dir, 'cms.config.ts'), '--out', out], dir)).toMatchObject({
      code: 0,
    });
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toContain('export type Locale = "en" | "de";');
    expect(text).toContain('kind: "news" | "blog";');
    expect(text).toContain('category?: number | Category | null;');
    expect(text).toContain('cover?: number | Media | null;');
    expect(text).toContain('sizes?: { thumb?: MediaSize; hero_wide?: MediaSize; } | null;');
    expect(text).toContain('title: LocaleValues<string>;');
    expect(text).toContain('_status: "draft" | "published";');
    expect(text).toMatch(/links\?: \{\n\s+id: string;\n\s+url: string;\n\s+\}\[\] \| null;/);
    expect(text).toContain('"site-settings": { doc: SiteSettings;');
    expect(fs.existsSync(path.join(dir, 'cms-types.ts'))).toBe(false);
  });
});
