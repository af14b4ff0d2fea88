// Runs once (on the SQLite pass): reads the repository's files; no server.
/**
 * The test folders mirror the code (CONTRIBUTING.md, "Where a test goes"): every test file lives in a
 * folder named for a folder of src/ (or a module at its root, test/local/ for src/local.ts), for admin/ or
 * client/, or in repo/ (checks of the whole repository) or security/ (attacks across the layers). A file
 * that runs once says so in its first lines in the one form scripts/test-files.ts reads; the build files
 * and the admin's files all do, so that they never run in two processes at once.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headOf, isBrowserOrBuild, ROOT, runOnceFiles, runOnceReason, testFiles } from '../../scripts/test-files.ts';

/** Folders of test/ that mirror no folder of src/: top-level code of its own, and the cross-cutting ones. */
const OTHER_FOLDERS = ['admin', 'client', 'repo', 'security'];
/** Folders of test/ that hold what the tests share, and no test file. */
const SHARED_FOLDERS = ['support', 'fixtures', 'setup'];

const files = testFiles();

/** The folder of test/ a file mirrors, when it is one a test file may live in. */
function mirrors(folder: string): boolean {
  if (OTHER_FOLDERS.includes(folder)) return true;
  return existsSync(join(ROOT, 'src', folder)) || existsSync(join(ROOT, 'src', `${folder}.ts`));
}

describe('the layout of test/', () => {
  test('every test file is in a folder named for the code it tests', () => {
    expect(files.length).toBeGreaterThan(100);
    const misplaced = files.filter((file) => {
      const parts = file.split('/');
      return parts.length !== 3 || !mirrors(parts[1]);
    });
    expect(misplaced).toEqual([]);
  });

  test('test/ itself holds only the shared folders, the mirrored ones and the harness', () => {
    const entries = readdirSync(join(ROOT, 'test'), { withFileTypes: true });
    const loose = entries.filter((e) => e.isFile() && !['harness.ts', 'browser.ts'].includes(e.name));
    expect(loose.map((e) => e.name)).toEqual([]);
    const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !SHARED_FOLDERS.includes(f) && !mirrors(f))).toEqual([]);
  });

  test('the shared folders hold no test file', () => {
    expect(files.filter((file) => SHARED_FOLDERS.includes(file.split('/')[1]))).toEqual([]);
  });
});

describe('files that run once', () => {
  test('say so in the one form the runner reads, with a reason', () => {
    const misspelt = files.filter((file) => {
      const head = headOf(readFileSync(join(ROOT, file), 'utf8'));
      const mentions = head.some((line) => /runs? once/i.test(line) && line.startsWith('//'));
      return mentions && !runOnceReason(head.join('\n'));
    });
    expect(misspelt).toEqual([]);
  });

  test('include every build file and every admin file, which must not run beside each other', () => {
    const once = new Set(runOnceFiles().map((f) => f.file));
    const apart = files.filter((file) => isBrowserOrBuild(file) && !once.has(file));
    expect(apart).toEqual([]);
  });

  test('the mark counts in the first lines only, not after the code begins', () => {
    const mark = '// Runs once (on the SQLite pass): a reason.';
    expect(runOnceReason(`${mark}\n/** Doc. */\nimport x from 'y';\n`)).toBe('a reason.');
    expect(runOnceReason(`/**\n * Doc,\nwrapped.\n */\n${mark}\nimport x from 'y';\n`)).toBe('a reason.');
    expect(runOnceReason(`/** Doc. */\nimport x from 'y';\n${mark}\n`)).toBeUndefined();
    expect(runOnceReason('// Runs once (on the SQLite pass):\nimport x from "y";\n')).toBeUndefined();
    expect(runOnceReason('// runs once: a reason.\n')).toBeUndefined();
  });
});
