// Runs once (on the SQLite pass): reads SQLite's write-ahead log, which PostgreSQL does not have.
/**
 * What one create writes: every page of the write-ahead log is a write call and part of the commit's
 * cost (docs/benchmarks.md, "Write path"). Each table or index a create touches is at least one page per
 * commit, so the set of them is held here: one more on the write path is a decision, not an accident.
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { getCMS } from '../../src/local.ts';
import { manualClock } from '../../src/clock.ts';
import { quietLog, tempDir } from '../harness.ts';

const dir = tempDir('cms-write-pages-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The b-trees each commit in the log wrote, oldest first, read by another process. */
function commitsInLog(file: string): string[][] {
  const child = Bun.spawnSync([process.execPath, path.join(import.meta.dir, '../fixtures/wal-commits.ts'), file]);
  if (child.exitCode !== 0) throw new Error(child.stderr.toString());
  return JSON.parse(child.stdout.toString());
}

test('a published create writes the document, its indexes, the audit entry, the change log and the counters', async () => {
  const file = path.join(dir, 'cms.db');
  const api = await getCMS({
    config: {
      database: file,
      collections: [
        {
          slug: 'posts',
          indexes: [{ fields: ['status', 'createdAt'] }],
          fields: [
            { name: 'title', type: 'text', required: true },
            { name: 'status', type: 'select', options: ['draft', 'published'] },
          ],
        },
      ],
    },
    rootDir: dir,
    clock: manualClock(Date.parse('2026-01-01T00:00:00Z')),
    log: quietLog,
  });
  try {
    // The first create of a collection also makes its counter's row; the ones after it are the steady state.
    await api.create({ collection: 'posts', data: { title: 'First', status: 'published' } });
    const creates = 5;
    for (let i = 0; i < creates; i++)
      await api.create({ collection: 'posts', data: { title: `Post ${i}`, status: 'published' } });
    const last = commitsInLog(file).slice(-creates);
    expect(last).toHaveLength(creates);
    // The schema page changes only when the file grows; every other b-tree is written by every create.
    const written = new Set(last.flat().filter((name) => name !== 'sqlite_schema'));
    expect([...written].sort()).toEqual(
      [
        'posts',
        'posts_createdAt_idx',
        'posts_status_createdAt_idx',
        '_cms_audit_log',
        '_cms_audit_log_document_idx',
        '_cms_events',
        'sqlite_sequence',
        '_cms_changes',
      ].sort(),
    );
  } finally {
    await api.close();
  }
});
