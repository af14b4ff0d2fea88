/**
 * The HTTP client as a package of its own: `bun run build` writes dist/cms-client-<version>.tgz, the npm
 * tarball layout (`package/…`) that `npm install ./cms-client-<version>.tgz` takes, so a static site on
 * Node (Astro, Next.js, Eleventy) gets `cms/client` without cloning this repository (docs/typescript.md).
 * It holds the client's two files, a package.json exporting them as `cms/client`, and a short README.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const README = `# cms/client

The typed HTTP client of the CMS, for code that runs where the Local API cannot (Node, Deno, browsers,
workers): \`import { createClient } from 'cms/client'\`. Generate your instance's types with
\`cms generate:types\` and pass them: \`createClient<CMSTypes>({ url, key })\`.
`;

export async function writeClientPackage(root: string, outDir: string): Promise<{ file: string; bytes: number }> {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const manifest = {
    name: 'cms',
    version,
    description: 'The typed HTTP client of the CMS: import { createClient } from "cms/client".',
    type: 'module',
    exports: {
      './client': { types: './client/index.d.ts', default: './client/index.js' },
      './package.json': './package.json',
    },
    files: ['client', 'README.md'],
  };
  const archive = new Bun.Archive(
    {
      'package/package.json': `${JSON.stringify(manifest, null, 2)}\n`,
      'package/README.md': README,
      'package/client/index.js': readFileSync(join(root, 'client/index.js')),
      'package/client/index.d.ts': readFileSync(join(root, 'client/index.d.ts')),
    },
    { compress: 'gzip', level: 9 },
  );
  const file = join(outDir, `cms-client-${version}.tgz`);
  const bytes = await Bun.write(file, await archive.bytes());
  return { file, bytes };
}
