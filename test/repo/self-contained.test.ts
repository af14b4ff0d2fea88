// Runs once (on the SQLite pass): reads the repository's files; no server.
/**
 * Every comment, test name and doc explains itself or points at a page in docs/: nothing cites a document
 * outside this repository (the old interface notes) or a numbered issue, which a newcomer cannot open.
 * Engine-free: it reads files only.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dir, '../..');
// Written in pieces so that this file does not match itself.
const forbidden = new RegExp(
  [
    'CON' + 'TRACT',
    'SP' + 'EC\\b',
    'STACK' + '-FACTS',
    '[Ii]ss' + 'ue [0-9]+',
    '\u00a7',
    // Words that point at a task description a reader does not have.
    '[Tt]he bri' + 'ef\\b',
    '[Tt]he iss' + "ue(?:'s|\\b)",
  ].join('|'),
);
const roots = ['src', 'test', 'admin', 'scripts', 'docs', 'README.md', 'CONTRIBUTING.md'];
const skipped = new Set(['node_modules', 'dist', 'test-artifacts']);
const textFile = /\.(ts|tsx|js|mjs|md|css|html|json|sh)$/;

function filesUnder(path: string): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return textFile.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (skipped.has(name) ? [] : filesUnder(join(path, name))));
}

describe('the repository is self-contained', () => {
  test('no comment, test name or doc cites an outside document or an issue number', () => {
    const files = roots.flatMap((name) => filesUnder(join(root, name)));
    expect(files.length).toBeGreaterThan(100);
    const hits: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (forbidden.test(line)) hits.push(`${relative(root, file)}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
