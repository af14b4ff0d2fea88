/**
 * An export of a seeded instance, imported into an empty one with the same config and exported again: the
 * shape of every "content as files" test. `first` and `second` are the two export folders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { exportContent } from '../../src/content-files/export-content.ts';
import { importContent } from '../../src/content-files/import-content.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';

export type RoundTrip = {
  source: TestServer;
  target: TestServer;
  work: string;
  first: string;
  second: string;
  stop(): Promise<void>;
};

export async function exportImportExport(
  config: () => UserConfig,
  seed: (source: TestServer) => Promise<void>,
): Promise<RoundTrip> {
  const work = tempDir('cms-round-trip-');
  const first = path.join(work, 'first');
  const second = path.join(work, 'second');
  const source = await startTestServer(config());
  await seed(source);
  await exportContent(source.cms, { outDir: first });
  const target = await startTestServer(config());
  await importContent(target.cms, first);
  await exportContent(target.cms, { outDir: second });
  return {
    source,
    target,
    work,
    first,
    second,
    async stop() {
      await source.stop();
      await target.stop();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
