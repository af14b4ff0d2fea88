/**
 * The index of a collection whose drafts are turned off holds no rows of the drafts it had: such an index
 * holds live rows only, and a search counts its matches without testing each for it (docs/search.md,
 * "Why the index tables are built at start, not migrated"). Runs on the engine of the suite's pass.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sharedTestDatabase, startTestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'cms-drafts-off-'));
const shared = await sharedTestDatabase(dir);
afterAll(async () => {
  await shared.drop();
  rmSync(dir, { recursive: true, force: true });
});

const notes = (drafts: boolean) => ({
  collections: [
    {
      slug: 'notes',
      access: { read: () => true },
      ...(drafts ? { drafts: true } : {}),
      search: { fields: ['text'] },
      // Without drafts the status column stays, as a field: dropping it would need a migration.
      fields: [
        { name: 'text', type: 'text' },
        ...(drafts ? [] : [{ name: 'status', type: 'select', options: ['draft', 'published'] }]),
      ],
    },
  ],
  database: shared.database,
});

test('turning drafts off leaves no draft text to find', async () => {
  const first = await startTestServer(notes(true) as never, { dir });
  const cms: any = localAPI(first.cms);
  const doc = await cms.create({ collection: 'notes', data: { text: 'pine', _status: 'published' } });
  await cms.update({ collection: 'notes', id: doc.id, data: { text: 'cedar' }, draft: true });
  expect((await cms.find({ collection: 'notes', search: 'cedar' })).totalDocs).toBe(0);
  expect((await cms.find({ collection: 'notes', search: 'pine' })).totalDocs).toBe(1);
  // Not stop(): it removes the folder the database is in.
  await first.server.stop();
  await first.cms.close();

  const second = await startTestServer(notes(false) as never, { dir });
  const again: any = localAPI(second.cms);
  const found = await again.find({ collection: 'notes', search: 'cedar' });
  expect(found.totalDocs).toBe(found.docs.length);
  expect(found.totalDocs).toBe(0);
  expect((await again.find({ collection: 'notes', search: 'pine' })).totalDocs).toBe(1);
  await second.stop();
});
