/**
 * Figure for docs/export.md: how long `cms export` takes for --docs documents and --images images (small
 * generated PNGs, each with one image size, so two files per image), a re-export into the same folder,
 * `cms import` of the folder into an empty instance, and its export again (checked byte-identical).
 * Documents are written straight into the table (the fill is not what is measured); images go through the
 * upload operation so that they have real sizes and stored names.
 *
 *   bun scripts/bench-export.ts                          # the full size: 10,000 documents, 1,000 images
 *   bun scripts/bench-export.ts --docs 2000 --images 200 # a small run
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCMS } from '../src/create-cms.ts';
import type { CMS } from '../src/cms.ts';
import { exportContent } from '../src/content-files/export-content.ts';
import { importContent } from '../src/content-files/import-content.ts';
import { localAPI } from '../src/local.ts';
import { fingerprint, png } from '../test/support/media-fixtures.ts';

const { values } = parseArgs({
  options: { docs: { type: 'string', default: '10000' }, images: { type: 'string', default: '1000' } },
});
const DOCS = Number(values.docs);
const IMAGES = Number(values.images);
const quiet = { info() {}, warn() {}, error() {} };
const config = (dir: string) => ({
  database: path.join(dir, 'data/cms.db'),
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  upload: { dir: path.join(dir, 'uploads'), imageSizes: [{ name: 'thumb', width: 32 }] },
  collections: [
    {
      slug: 'posts',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', localized: true },
        { name: 'body', type: 'textarea' },
        { name: 'image', type: 'upload', relationTo: 'media' },
      ],
    },
  ],
});

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-export-'));
const open = (name: string): Promise<CMS> =>
  createCMS({ config: config(path.join(root, name)) as never, rootDir: path.join(root, name), log: quiet });
const time = async (label: string, work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  console.log(`${label.padEnd(44)} ${(ms / 1000).toFixed(2)} s`);
  return ms;
};

const source = await open('source');
const api = localAPI(source);
const imageIds: number[] = [];
await time(`fill: ${IMAGES} image uploads`, async () => {
  for (let i = 0; i < IMAGES; i++) {
    const data = await png(64, 48, `rgb(${i % 256}, ${(i * 7) % 256}, 90)`);
    imageIds.push((await api.upload({ file: { data, name: `image-${i}.png` } })).id as number);
  }
});
await time(`fill: ${DOCS} documents`, async () => {
  const body = 'lorem ipsum dolor sit amet '.repeat(40);
  const now = new Date().toISOString();
  await source.store.transaction(async (tx) => {
    for (let i = 0; i < DOCS; i++) {
      await tx.run(
        'INSERT INTO "posts" ("title", "body", "image", "status", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)',
        [
          tx.dialect.encodeJSON({ en: `Post ${i}`, de: `Beitrag ${i}` }),
          body,
          imageIds.length ? imageIds[i % imageIds.length] : null,
          'published',
          now,
          now,
        ],
      );
    }
  });
});

const first = path.join(root, 'export-1');
const second = path.join(root, 'export-2');
const exportMs = await time(`export (${DOCS} documents, ${IMAGES} images)`, () =>
  exportContent(source, { outDir: first }),
);
await time('re-export into the same folder (unchanged)', () => exportContent(source, { outDir: first }));
const target = await open('target');
await time('import into an empty instance', () => importContent(target, first));
await time('export of the imported instance', () => exportContent(target, { outDir: second }));

const a = fingerprint(first);
const b = fingerprint(second);
console.log(
  `${Object.keys(a).length} files; second export byte-identical: ${Bun.deepEquals(a, b)}; ${(DOCS / (exportMs / 1000)).toFixed(0)} documents/s`,
);
await source.close();
await target.close();
fs.rmSync(root, { recursive: true, force: true });
