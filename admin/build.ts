/**
 * Builds the admin (Preact) into admin/dist with esbuild:
 *   admin/dist/index.html                 from admin/index.html
 *   admin/dist/assets/main-<hash>.js|.css hashed, immutable
 *
 * index.html keeps two placeholders that src/http/admin-index.ts fills at
 * serve time: `__CMS_ADMIN_BASE__` (the admin mount, e.g. `/admin`) and
 * `<!--cms:runtime-config-->` (a `<script>window.__CMS__={…}</script>`).
 *
 *   bun admin/build.ts            one build
 *   bun admin/build.ts --watch    rebuild on change (development)
 */
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

const ADMIN = resolve(import.meta.dir);

export interface AdminBuildResult {
  outdir: string;
  files: { path: string; bytes: number }[];
  /** What the first visit to /admin loads: the entry script, the chunks it imports statically, the stylesheet. */
  firstLoad: string[];
}

/** The entry script's output. Chunks loaded with import() are entry points too, so match src/main.tsx. */
function mainScript(metafile: esbuild.Metafile): string {
  const file = Object.keys(metafile.outputs).find(
    (f) => f.endsWith('.js') && metafile.outputs[f]!.entryPoint?.endsWith('src/main.tsx'),
  );
  if (!file) throw new Error('admin build produced no entry script');
  return file;
}

/** A metafile output (relative to admin/) as a path below `outdir`, with forward slashes. */
const outputPath = (outdir: string, file: string) => relative(outdir, resolve(ADMIN, file)).split('\\').join('/');

function firstLoadFiles(outdir: string, metafile: esbuild.Metafile): string[] {
  const rel = (file: string) => outputPath(outdir, file);
  const entry = mainScript(metafile);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of metafile.outputs[file]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(entry);
  const css = Object.keys(metafile.outputs).filter((f) => f.endsWith('.css') && basename(f).startsWith('main-'));
  return [...seen, ...css].map(rel);
}

function options(outdir: string, dev: boolean): esbuild.BuildOptions {
  return {
    absWorkingDir: ADMIN,
    entryPoints: { main: join(ADMIN, 'src/main.tsx') },
    outdir,
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    bundle: true,
    format: 'esm',
    // Views only some people open (the version viewer) are separate chunks loaded with import().
    splitting: true,
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox113', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: !dev,
    sourcemap: dev ? 'linked' : false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production') },
  };
}

function writeIndex(outdir: string, metafile: esbuild.Metafile): void {
  const js = outputPath(outdir, mainScript(metafile));
  const cssFile = Object.keys(metafile.outputs).find((f) => f.endsWith('.css') && basename(f).startsWith('main-'));
  const css = cssFile ? outputPath(outdir, cssFile) : '';
  let html = readFileSync(join(ADMIN, 'index.html'), 'utf8').replace('%MAIN_JS%', js);
  html = css ? html.replace('%MAIN_CSS%', css) : html.replace(/^.*%MAIN_CSS%.*\n/m, '');
  writeFileSync(join(outdir, 'index.html'), html);
}

/** Clean build of admin/dist (or `outdir`). */
export async function buildAdmin(opts: { outdir?: string; dev?: boolean } = {}): Promise<AdminBuildResult> {
  const outdir = resolve(opts.outdir ?? join(ADMIN, 'dist'));
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await esbuild.build(options(outdir, opts.dev ?? false));
  writeIndex(outdir, result.metafile!);
  const files = Object.entries(result.metafile!.outputs).map(([path, o]) => ({
    path: relative(outdir, resolve(ADMIN, path)),
    bytes: o.bytes,
  }));
  files.push({ path: 'index.html', bytes: Bun.file(join(outdir, 'index.html')).size });
  return { outdir, files, firstLoad: firstLoadFiles(outdir, result.metafile!) };
}

if (import.meta.main) {
  if (process.argv.includes('--watch')) {
    const outdir = join(ADMIN, 'dist');
    rmSync(outdir, { recursive: true, force: true });
    const ctx = await esbuild.context({
      ...options(outdir, true),
      plugins: [
        {
          name: 'index-html',
          setup(build) {
            build.onEnd((r) => {
              if (r.errors.length) console.error(r.errors.map((e) => e.text).join('\n'));
              else if (r.metafile) {
                writeIndex(outdir, r.metafile);
                console.log(`admin rebuilt ${new Date().toLocaleTimeString()}`);
              }
            });
          },
        },
      ],
    });
    await ctx.watch();
    console.log('watching admin/src …');
  } else {
    const t = performance.now();
    const r = await buildAdmin();
    const total = r.files.reduce((s, f) => s + f.bytes, 0);
    console.log(
      `admin built in ${Math.round(performance.now() - t)} ms: ${r.files.length} files, ${(total / 1024).toFixed(1)} KiB`,
    );
  }
}
