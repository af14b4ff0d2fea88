/**
 * Run as its own process (test/uploads/no-sharp.test.ts): makes `import('sharp')` fail, as it would where
 * sharp's native parts are missing, then uploads through the Local API and prints what happened.
 */
import fs from 'node:fs';
import path from 'node:path';

Bun.plugin({
  name: 'no-sharp',
  setup(build) {
    build.module('sharp', () => ({
      contents: 'throw new Error("Could not load the sharp module using the linux-x64 runtime\\nmore help text");',
      loader: 'js',
    }));
  },
});

const warnings: string[] = [];
console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
const { getCMS } = await import('../../src/local.ts');
const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'cms-no-sharp-'));
const quiet = { info() {}, warn() {}, error() {} };
const cms = await getCMS({
  config: {
    database: path.join(dir, 'cms.db'),
    upload: { dir: path.join(dir, 'files'), imageSizes: [{ name: 'thumb', width: 10 }] },
  },
  rootDir: dir,
  log: quiet,
});
const png = Buffer.from(process.argv[2], 'base64');
const first = await cms.upload({ file: { data: png, name: 'a.png' } });
const second = await cms.upload({ file: { data: png, name: 'b.png' } });
await cms.close();
fs.rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ first, second, warnings }));
