// Runs once (on the SQLite pass): reads the admin's catalogues and code; no server.
/**
 * The admin's language catalogues (admin/src/i18n/, docs/admin.md "Languages"), without a browser: every
 * key the admin's code asks for is in every catalogue, no catalogue holds a key nobody asks for, keys are
 * only ever given as literals (so this check sees them all), a translation keeps its `{placeholders}`, and
 * every word a file of the first load asks for is in the first part (the pages' part comes later).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import enFirst from '../../admin/src/i18n/en.ts';
import deFirst from '../../admin/src/i18n/de.ts';
import frFirst from '../../admin/src/i18n/fr.ts';
import esFirst from '../../admin/src/i18n/es.ts';
import enPages from '../../admin/src/i18n/en-pages.ts';
import dePages from '../../admin/src/i18n/de-pages.ts';
import frPages from '../../admin/src/i18n/fr-pages.ts';
import esPages from '../../admin/src/i18n/es-pages.ts';

const SRC = join(import.meta.dir, '../../admin/src');
const sources = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('i18n/'))
  .map((f) => ({ file: f, text: readFileSync(join(SRC, f), 'utf8') }));

/** Keys asked for: `t('a.b')`, and `tn('a.b', n)` which reads `a.b.one` and `a.b.other`. */
const used = new Set<string>();
const usedBy = new Map<string, string[]>();
const dynamic: string[] = [];
for (const { file, text } of sources) {
  const keys: string[] = [];
  for (const m of text.matchAll(/\b(t|tn)\(\s*(['"`]?)([^'"`,)]*)/g)) {
    if (!/import .*\bt\b.*i18n/.test(text)) continue;
    if (m[2] !== "'" || !/^[a-zA-Z]+(\.[a-zA-Z0-9]+)+$/.test(m[3]!)) dynamic.push(`${file}: ${m[0]}`);
    else if (m[1] === 'tn') keys.push(`${m[3]}.one`, `${m[3]}.other`);
    else keys.push(m[3]!);
  }
  for (const k of keys) used.add(k);
  usedBy.set(file, keys);
}

/**
 * The files of the first load: main.tsx and what it imports statically, on and on (`import()` starts a chunk
 * of its own and is not followed; `import type` brings no code). Their words must not wait for the pages' part.
 */
function firstLoadFiles(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\b)[^;]*?\bfrom\s+'(\.[^']+)'/gms)) {
      const target = resolve(dirname(file), m[1]!);
      if (existsSync(target)) visit(target);
    }
  };
  visit(join(SRC, 'main.tsx'));
  return [...seen].map((f) => relative(SRC, f).split('\\').join('/'));
}

// Each language is two parts, the first paint's and the lazily loaded pages'; together they are its catalogue.
const parts = {
  en: [enFirst, enPages],
  de: [deFirst, dePages],
  fr: [frFirst, frPages],
  es: [esFirst, esPages],
} as Record<string, [Record<string, string>, Record<string, string>]>;
const catalogues = Object.fromEntries(
  Object.entries(parts).map(([code, [first, pages]]) => [code, { ...first, ...pages }]),
);
const en = catalogues.en!;
// `{labelLower}` is `{label}` in lower case, for languages that write nouns mid-sentence so (English, French);
// German keeps `{label}` as written. Either counts as the same placeholder.
const placeholders = (s: string) =>
  [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!.replace(/Lower$/, '')))].sort();

describe('admin language catalogues', () => {
  test('keys are literal strings, so every use is seen', () => {
    expect(dynamic).toEqual([]);
    expect(used.size).toBeGreaterThan(20);
  });

  test('every word the first load asks for is in the first part', () => {
    const files = firstLoadFiles();
    // The shell, the dashboard and the lists are there; the edit view comes with the pages' part.
    expect(files).toContain('views/list-view.tsx');
    expect(files).not.toContain('views/edit/edit-view.tsx');
    const missing = files.flatMap((f) => (usedBy.get(f) ?? []).filter((k) => !(k in enFirst)).map((k) => `${f}: ${k}`));
    expect(missing).toEqual([]);
  });

  for (const [code, catalogue] of Object.entries(catalogues)) {
    test(`${code}: every key used is there, no key is unused, no text is empty`, () => {
      expect([...used].filter((k) => !(k in catalogue)).sort()).toEqual([]);
      expect(
        Object.keys(catalogue)
          .filter((k) => !used.has(k))
          .sort(),
      ).toEqual([]);
      expect(
        Object.entries(catalogue)
          .filter(([, v]) => !v.trim())
          .map(([k]) => k),
      ).toEqual([]);
    });
    test(`${code}: each key is in the same part as in English, and in one part only`, () => {
      const [first, pages] = parts[code]!;
      expect(Object.keys(first).filter((k) => k in pages)).toEqual([]);
      expect(
        Object.keys(first)
          .filter((k) => !(k in parts.en![0]))
          .sort(),
      ).toEqual([]);
      expect(
        Object.keys(pages)
          .filter((k) => !(k in parts.en![1]))
          .sort(),
      ).toEqual([]);
    });
    test(`${code}: each text has the English text's placeholders`, () => {
      const wrong = Object.keys(en).filter(
        (k) => k in catalogue && placeholders(catalogue[k]!).join() !== placeholders(en[k]!).join(),
      );
      expect(wrong).toEqual([]);
    });
  }
});
