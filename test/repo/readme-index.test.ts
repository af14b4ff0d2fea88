// Runs once (on the SQLite pass): reads the repository's files; no server.
/**
 * The README is the way in: it names every field type the config accepts and links every page of docs/,
 * so a page or a type added later is not left for readers to stumble on. Engine-free: it reads files only.
 */
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIELD_TYPES, LAYOUT_FIELD_TYPES } from '../../src/config/types.ts';

const root = join(import.meta.dir, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

test('README links every page of docs/', () => {
  const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
  expect(pages.length).toBeGreaterThan(20);
  expect(pages.filter((page) => !readme.includes(`](docs/${page})`))).toEqual([]);
});

test('README and docs/config.md name every field type', () => {
  const config = readFileSync(join(root, 'docs/config.md'), 'utf8');
  const types = [...new Set([...FIELD_TYPES, ...LAYOUT_FIELD_TYPES])];
  expect(types.filter((type) => !readme.includes(`\`${type}\``))).toEqual([]);
  expect(types.filter((type) => !config.includes(`\`${type}\``))).toEqual([]);
});
