// Runs once (on the SQLite pass): reads the repository's history; no server.
/**
 * Commit subjects keep the form CONTRIBUTING.md ("Commits") asks for: at most 72 characters, no trailing
 * period. Checked from the whole-tree formatting commit on (the first in .git-blame-ignore-revs), where
 * the rule began; older subjects stay as they were written.
 */
import { expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dir, '../..');

test('commit subjects since the rule began are at most 72 characters, without a trailing period', () => {
  const base = fs
    .readFileSync(path.join(root, '.git-blame-ignore-revs'), 'utf8')
    .split('\n')
    .find((line) => /^[0-9a-f]{40}$/.test(line.trim()))!
    .trim();
  // A shallow clone may not hold the base: then the newest commit is what there is to check.
  const hasBase = Bun.spawnSync(['git', 'cat-file', '-e', `${base}^{commit}`], { cwd: root }).exitCode === 0;
  const log = Bun.spawnSync(['git', 'log', '--format=%s', ...(hasBase ? [`${base}..HEAD`] : ['-1'])], { cwd: root });
  if (log.exitCode !== 0) throw new Error(`git log failed: ${log.stderr.toString()}`);
  const subjects = log.stdout.toString().split('\n').filter(Boolean);
  expect(subjects.length).toBeGreaterThan(0);
  expect(subjects.filter((s) => s.length > 72 || s.endsWith('.'))).toEqual([]);
});
