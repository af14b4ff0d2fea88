/**
 * Bun.build plugins used to compile `dist/cms` (see build.ts and docs/build.md).
 *
 * - `drizzleKitDriversPlugin`: drizzle-kit/api pulls in optional database
 *   drivers that are not installed. Marking them external kills the binary at
 *   start, so they resolve to a stub module that throws only when used.
 * - `sharpPlugin`: replaces sharp's loader module (dist/sharp.mjs / .cjs) by
 *   one that hands over the addon src/uploads/sharp-loader.ts loaded with
 *   process.dlopen, and fills src/build/sharp-native-files.ts with file imports
 *   of the addon and libvips of the target platform (src/build/sharp-native-source.ts)
 *   so they are embedded in the binary.
 * - `adminManifestPlugin`: fills src/build/admin-manifest.ts with file imports
 *   of every file in admin/dist.
 */
import type { BunPlugin } from 'bun';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { findSharpNative } from './sharp-native-source.ts';

const ROOT = resolve(import.meta.dir, '../..');

/** Optional drivers drizzle-kit imports; none is needed to diff SQLite schemas. */
export const DRIZZLE_KIT_OPTIONAL_DRIVERS = [
  '@libsql/client',
  'better-sqlite3',
  'pg',
  'postgres',
  'mysql2/promise',
  'mysql2',
  '@neondatabase/serverless',
  '@planetscale/database',
  '@vercel/postgres',
  '@electric-sql/pglite',
  '@aws-sdk/client-rds-data',
  'tsx/cjs/api',
] as const;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Regex matching exactly this absolute file path. */
function exactPath(file: string): RegExp {
  return new RegExp(`^${escapeRegExp(file)}$`);
}

// CommonJS, so that any named import (`import { Pool } from 'pg'`) links; using
// anything from it throws.
const DRIVER_STUB = `
const fail = (what) => { throw new Error('cms: the optional database driver "' + __NAME__ + '" is not part of this binary (' + what + ')') }
module.exports = new Proxy(function () {}, {
  get: (t, p) => (p === '__esModule' || p === 'then' || typeof p === 'symbol') ? undefined : function () { return fail(String(p)) },
  apply: () => fail('call'),
  construct: () => fail('new'),
})
`;

export function drizzleKitDriversPlugin(): BunPlugin {
  const filter = new RegExp(`^(${DRIZZLE_KIT_OPTIONAL_DRIVERS.map(escapeRegExp).join('|')})$`);
  return {
    name: 'cms-drizzle-kit-drivers',
    setup(build) {
      build.onResolve({ filter }, (args) => {
        // Only for imports made by drizzle-kit and the drizzle-orm driver
        // adapters it pulls in; if the project ever depends on one of these
        // itself, it resolves normally.
        if (!/[\\/]drizzle-(kit|orm)[\\/]/.test(args.importer)) return undefined;
        return { path: args.path, namespace: 'cms-driver-stub' };
      });
      build.onLoad({ filter: /.*/, namespace: 'cms-driver-stub' }, (args) => ({
        contents: DRIVER_STUB.replace('__NAME__', JSON.stringify(args.path)),
        loader: 'js',
      }));
    },
  };
}

const SHARP_ADDON_MODULE_ESM = `
const addon = globalThis.__cmsSharpAddon
if (!addon) throw new Error('sharp native addon was not loaded (use loadSharp() from src/uploads/sharp-loader.ts)')
export default addon
`;
const SHARP_ADDON_MODULE_CJS = `
const addon = globalThis.__cmsSharpAddon
if (!addon) throw new Error('sharp native addon was not loaded (use loadSharp() from src/uploads/sharp-loader.ts)')
module.exports = addon
`;

/** `platform` is sharp's name of the platform the binary is for (default: this machine's). */
export function sharpPlugin(root = ROOT, platform?: string): BunPlugin {
  const manifestFile = join(root, 'src/build/sharp-native-files.ts');
  return {
    name: 'cms-sharp',
    setup(build) {
      build.onLoad({ filter: /[\\/]sharp[\\/]dist[\\/]sharp\.(mjs|cjs|js)$/ }, (args) => ({
        contents: args.path.endsWith('.cjs') ? SHARP_ADDON_MODULE_CJS : SHARP_ADDON_MODULE_ESM,
        loader: 'js',
      }));
      build.onLoad({ filter: exactPath(manifestFile) }, () => {
        const native = findSharpNative(root, platform);
        const imports = native.files.map(
          (f, i) => `import f${i} from ${JSON.stringify(f.source)} with { type: 'file' };`,
        );
        const entries = native.files.map(
          (f, i) => `{ embedded: f${i}, rel: ${JSON.stringify(f.rel)}, size: ${f.size} }`,
        );
        return {
          contents: `${imports.join('\n')}
export const sharpNativeFiles = { id: ${JSON.stringify(native.id)}, addon: ${JSON.stringify(native.addon)}, files: [${entries.join(', ')}] };
`,
          loader: 'ts',
        };
      });
    },
  };
}

/** Every file below dir, as paths relative to it with forward slashes. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

export function adminManifestPlugin(adminDist = join(ROOT, 'admin/dist'), root = ROOT): BunPlugin {
  const manifestFile = join(root, 'src/build/admin-manifest.ts');
  return {
    name: 'cms-admin-manifest',
    setup(build) {
      build.onLoad({ filter: exactPath(manifestFile) }, () => {
        const files = listFiles(adminDist).filter((f) => !f.endsWith('.map'));
        const imports = files.map(
          (f, i) => `import a${i} from ${JSON.stringify(join(adminDist, f))} with { type: 'file' };`,
        );
        const entries = files.map((f, i) => `${JSON.stringify('/' + f)}: a${i}`);
        return {
          contents: `${imports.join('\n')}
export const adminManifest = { ${entries.join(', ')} };
`,
          loader: 'ts',
        };
      });
    },
  };
}

export function cmsBuildPlugins(opts: { root?: string; adminDist?: string; sharpPlatform?: string } = {}): BunPlugin[] {
  const root = opts.root ?? ROOT;
  return [
    drizzleKitDriversPlugin(),
    sharpPlugin(root, opts.sharpPlatform),
    adminManifestPlugin(opts.adminDist ?? join(root, 'admin/dist'), root),
  ];
}
