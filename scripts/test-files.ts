/**
 * The suite's files, and which of them run once. A test file that does not depend on the engine under test
 * says so in its first lines (the comments before its first import), with its reason:
 *
 *   // Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
 *
 * `bun run test` (scripts/test-engines.ts) leaves those files out of the PostgreSQL pass;
 * test/repo/test-layout.test.ts keeps the mark well-formed and the folders true to src/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root: paths are given relative to it, as `bun test` prints them. */
export const ROOT = join(import.meta.dir, '..');

const MARK = /^\/\/ Runs once \(on the SQLite pass\): (\S.*)$/;

/** Every test file under test/, relative to the root (`test/query/query.test.ts`), sorted. */
export function testFiles(root = ROOT): string[] {
  return [...new Bun.Glob('test/**/*.test.ts').scanSync({ cwd: root })].sort();
}

/** A file's first lines: the comments and blank lines before its first line of code. */
export function headOf(text: string): string[] {
  const head: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!inBlock && trimmed && !trimmed.startsWith('//') && !trimmed.startsWith('/*')) break;
    if (!inBlock && trimmed.startsWith('/*')) inBlock = true;
    if (inBlock && trimmed.endsWith('*/')) inBlock = false;
    head.push(trimmed);
  }
  return head;
}

/** Why a file runs once, from its first lines; undefined for a file that runs on every engine. */
export function runOnceReason(text: string): string | undefined {
  for (const line of headOf(text)) {
    const reason = MARK.exec(line)?.[1];
    if (reason) return reason;
  }
  return undefined;
}

/** The files that run once (on the SQLite pass), each with its reason. */
export function runOnceFiles(root = ROOT): { file: string; reason: string }[] {
  return testFiles(root).flatMap((file) => {
    const reason = runOnceReason(readFileSync(join(root, file), 'utf8'));
    return reason ? [{ file, reason }] : [];
  });
}

/**
 * The browser files and the builds: each builds the admin bundle the others serve, so they run one after
 * another in one process, never beside each other.
 */
export const isBrowserOrBuild = (file: string): boolean => /^test\/(admin|build)\//.test(file);
