// Runs once (on the SQLite pass): a process of its own, on a SQLite file, without sharp.
/** Where sharp cannot load, uploads still work (no dimensions, no sizes) and one line says image sizes are off. */
import { expect, test } from 'bun:test';
import path from 'node:path';
import { png } from '../support/media-fixtures.ts';

test('without sharp: uploads work without sizes, and "image sizes are off" is logged once', async () => {
  const image = (await png(20, 10)).toString('base64');
  const child = Bun.spawn([process.execPath, path.join(import.meta.dir, '../support/upload-without-sharp.ts'), image], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err] = [await new Response(child.stdout).text(), await new Response(child.stderr).text()];
  expect(await child.exited).toBe(0);
  const { first, second, warnings } = JSON.parse(out || err);
  expect(first).toMatchObject({ mimeType: 'image/png', sizes: {}, width: null, height: null });
  expect(second.sizes).toEqual({});
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toStartWith('image sizes are off: Could not load the sharp module using the linux-x64 runtime');
  expect(warnings[0]).not.toContain('\n');
});
