/** The Local API (CONTRACT §6): the same operations in-process; access skipped unless asked for. */
import { describe, expect, test } from 'bun:test';
import path from 'node:path';
import fs from 'node:fs';
import { getCMS } from '../src/local.ts';
import { quietLog, tempDir } from './harness.ts';

describe('Local API', () => {
  test('create, find, findByID, update, delete, globals; access only with overrideAccess: false', async () => {
    const dir = tempDir();
    const cms = await getCMS({
      config: {
        database: path.join(dir, 'cms.db'),
        collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text', required: true }, { name: 'secret', type: 'text', hidden: true }] }],
        globals: [{ slug: 'site', fields: [{ name: 'name', type: 'text' }] }],
      },
      rootDir: dir,
      log: quietLog,
    });
    const created = await cms.create({ collection: 'notes', data: { text: 'hello', secret: 's' } });
    expect(created).toMatchObject({ id: 1, text: 'hello' });
    expect(created.secret).toBeUndefined();
    expect((await cms.findByID({ collection: 'notes', id: 1, showHiddenFields: true })).secret).toBe('s');
    expect((await cms.find({ collection: 'notes', where: { text: { equals: 'hello' } } })).totalDocs).toBe(1);
    await expect(cms.find({ collection: 'notes', overrideAccess: false })).rejects.toMatchObject({ status: 401 });
    expect((await cms.update({ collection: 'notes', id: 1, data: { text: 'changed' } })).text).toBe('changed');
    await expect(cms.create({ collection: 'notes', data: {} })).rejects.toMatchObject({ status: 400, field: 'text' });
    await cms.updateGlobal({ slug: 'site', data: { name: 'Site' } });
    expect((await cms.findGlobal({ slug: 'site' })).name).toBe('Site');
    await cms.delete({ collection: 'notes', id: 1 });
    expect((await cms.find({ collection: 'notes' })).totalDocs).toBe(0);
    await cms.close();
  });

  test('getCMS takes a config file path', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'cms.config.ts'), `export default { collections: [{ slug: 'things', fields: [{ name: 'n', type: 'number' }] }] }\n`);
    const cms = await getCMS({ config: path.join(dir, 'cms.config.ts'), log: quietLog });
    expect((await cms.create({ collection: 'things', data: { n: 2 } })).n).toBe(2);
    expect(fs.existsSync(path.join(dir, 'data/cms.db'))).toBe(true);
    await cms.close();
  });
});
