/**
 * `bun run build`: produces the single executable dist/cms for this machine.
 * `bun run build --all`: dist/cms-<platform> for the five targets of
 * src/build/targets.ts, and dist/SHA256SUMS.
 *
 *   1. admin      esbuild → admin/dist (hashed assets)          admin/build.ts
 *   2. embedded   migrations/ → src/db/system-migrations.generated.ts
 *   3. compile    Bun.build(compile, bytecode, esm, minify) of src/cli/main.ts,
 *                 with the plugins in src/build/plugins.ts (drizzle-kit driver
 *                 stubs, sharp's native files, the admin's files)
 *   4. check      runs `dist/cms --version` once (the binary for this machine)
 *   5. client     dist/cms-client-<version>.tgz, the HTTP client as an npm package
 *                 (src/build/client-package.ts)
 *
 * Flags: --all, --target NAME (one of the five, written to dist/cms-NAME),
 *        --outfile FILE (default dist/cms), --entry FILE (default src/cli/main.ts),
 *        --skip-admin (reuse admin/dist), --no-bytecode, --no-minify, --no-check.
 * Decisions (autoload of .env/bunfig/package.json, minify, sourcemap) are
 * explained in docs/build.md.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { buildAdmin } from './admin/build.ts';
import { generateEmbedded } from './scripts/generate-embedded.ts';
import { writeClientPackage } from './src/build/client-package.ts';
import { cmsBuildPlugins } from './src/build/plugins.ts';
import { BUILD_TARGETS, hostTarget, type BuildTarget } from './src/build/targets.ts';

const ROOT = import.meta.dir;

const NODE_ENV_BANNER =
  "if (process.env.NODE_ENV === undefined) process.env.NODE_ENV = process.argv.includes('--dev') ? 'development' : 'production';";

export interface CompileOptions {
  entry: string;
  outfile: string;
  bytecode?: boolean;
  minify?: boolean;
  /** Cross-compile for this platform; default: this machine. */
  target?: BuildTarget;
}

/**
 * The compile step alone, with the options dist/cms is built with (the tests
 * compile a probe entry through this too). Writes to a temp name and renames,
 * so a failed build never leaves half a binary.
 */
export async function compileBinary(opts: CompileOptions): Promise<{ outfile: string; bytes: number; ms: number }> {
  const t = performance.now();
  const outfile = resolve(opts.outfile);
  mkdirSync(dirname(outfile), { recursive: true });
  // The temp name keeps the outfile's ending: Bun appends `.exe` to a Windows
  // binary's name that lacks it, and the rename would then miss the file.
  const tmp = join(dirname(outfile), `.tmp-${process.pid}-${basename(outfile)}`);
  const bytecode = opts.bytecode ?? true;
  const minify = opts.minify ?? true;
  const result = await Bun.build({
    entrypoints: [resolve(opts.entry)],
    target: 'bun',
    // ESM because bytecode with top-level await (the CLI uses it) needs it.
    format: 'esm',
    bytecode,
    // Modules reached only through import() become separate chunks inside the
    // binary, loaded when first imported: drizzle-kit/api (~20 ms of start-up
    // when in the main chunk), sharp and whatever else the CLI loads lazily
    // cost nothing for commands that do not use them.
    splitting: true,
    // Identifiers renamed, but function and class names kept: error messages,
    // logs and `instanceof`-free checks on `constructor.name` stay readable.
    minify: minify ? { whitespace: true, syntax: true, identifiers: true, keepNames: true } : false,
    // Embedded (zstd) so stack traces point at src/… lines in production logs.
    sourcemap: 'linked',
    // Bun.build inlines process.env.NODE_ENV as "development" unless told
    // otherwise; the binary must read it at run time (CONTRACT §1).
    define: { 'process.env.NODE_ENV': 'process.env.NODE_ENV' },
    // Runs before any bundled module: production unless NODE_ENV is set or
    // --dev is given, so libraries that read NODE_ENV while loading (Elysia's
    // error module does) see the same mode as the CLI.
    banner: NODE_ENV_BANNER,
    plugins: cmsBuildPlugins({ root: ROOT, sharpPlatform: opts.target?.sharpPlatform }),
    compile: {
      outfile: tmp,
      ...(opts.target ? { target: opts.target.bunTarget as Bun.Build.CompileTarget } : {}),
      // Configuration comes from the environment, flags and cms.config.* only:
      // a stray .env or bunfig.toml (which can preload code) in the working
      // folder must not change what the server does.
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      // A cms.config.ts beside the binary may import npm packages from a
      // node_modules next to it; resolving those needs package.json loading.
      autoloadPackageJson: true,
    },
  });
  if (!result.success) {
    rmSync(tmp, { force: true });
    throw new AggregateError(result.logs, `compile failed:\n${result.logs.map(String).join('\n')}`);
  }
  for (const log of result.logs) console.warn(String(log));
  // The maps are embedded in the executable; the copies Bun also writes beside it are not needed.
  for (const output of result.outputs) if (output.path.endsWith('.map')) rmSync(output.path, { force: true });
  renameSync(tmp, outfile);
  return { outfile, bytes: statSync(outfile).size, ms: performance.now() - t };
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function build(argv: string[] = []): Promise<void> {
  const flag = (name: string) => argv.includes(name);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const outfile = resolve(ROOT, value('--outfile') ?? 'dist/cms');
  const entry = resolve(ROOT, value('--entry') ?? 'src/cli/main.ts');
  const t0 = performance.now();

  // 1. admin
  let t = performance.now();
  if (flag('--skip-admin') && existsSync(join(ROOT, 'admin/dist/index.html'))) {
    console.log('admin      reused admin/dist (--skip-admin)');
  } else {
    const admin = await buildAdmin();
    const kb = admin.files.reduce((s, f) => s + f.bytes, 0) / 1024;
    console.log(
      `admin      ${admin.files.length} files, ${kb.toFixed(1)} KiB  (${Math.round(performance.now() - t)} ms)`,
    );
  }

  // 2. embedded files
  t = performance.now();
  const gen = generateEmbedded(ROOT);
  console.log(
    `embedded   ${gen.migrations} system migration${gen.migrations === 1 ? '' : 's'}, ${relative(ROOT, gen.file)} ${gen.changed ? 'written' : 'unchanged'}  (${Math.round(performance.now() - t)} ms)`,
  );

  // 3. compile: this machine's dist/cms, one named target, or all five.
  if (!existsSync(entry)) throw new Error(`entry ${relative(ROOT, entry)} does not exist`);
  const named = value('--target');
  const targets: (BuildTarget | undefined)[] = flag('--all')
    ? [...BUILD_TARGETS]
    : named
      ? [BUILD_TARGETS.find((x) => x.name === named) ?? failUnknownTarget(named)]
      : [undefined];
  const outputs: { outfile: string; bytes: number; target?: BuildTarget }[] = [];
  for (const target of targets) {
    const out = await compileBinary({
      entry,
      outfile: target ? resolve(ROOT, 'dist', target.file) : outfile,
      bytecode: !flag('--no-bytecode'),
      minify: !flag('--no-minify'),
      target,
    });
    console.log(`compile    ${relative(ROOT, out.outfile)} ${mb(out.bytes)}  (${secs(out.ms)})`);
    outputs.push({ ...out, target });
  }
  if (flag('--all')) {
    const sums = join(ROOT, 'dist/SHA256SUMS');
    const lines = await Promise.all(
      outputs.map(async (o) => `${await sha256File(o.outfile)}  ${basename(o.outfile)}\n`),
    );
    writeFileSync(sums, lines.join(''));
    console.log(`checksums  ${relative(ROOT, sums)}`);
  }

  // 4. smoke check: the binary for this machine starts, without Bun or node_modules around it.
  const host = hostTarget();
  const runnable = outputs.find((o) => !o.target || o.target === host);
  if (!flag('--no-check') && runnable) {
    t = performance.now();
    const proc = Bun.spawnSync([runnable.outfile, '--version'], {
      cwd: dirname(runnable.outfile),
      env: { HOME: process.env.HOME ?? '/tmp' },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const text = (proc.stdout.toString() + proc.stderr.toString()).trim();
    if (proc.exitCode !== 0)
      throw new Error(`${relative(ROOT, runnable.outfile)} --version failed (exit ${proc.exitCode}): ${text}`);
    console.log(`check      --version → ${text.split('\n')[0]}  (${Math.round(performance.now() - t)} ms)`);
  }

  // 5. the HTTP client as a package of its own, for sites that install it with npm.
  const client = await writeClientPackage(ROOT, join(ROOT, 'dist'));
  console.log(`client     ${relative(ROOT, client.file)} ${(client.bytes / 1024).toFixed(1)} KiB`);

  const total = outputs.reduce((s, o) => s + o.bytes, 0);
  const names = outputs.map((o) => relative(ROOT, o.outfile)).join(', ');
  console.log(`done       ${names}, ${mb(total)}, in ${secs(performance.now() - t0)}`);
}

function failUnknownTarget(name: string): never {
  throw new Error(`unknown --target ${name}; one of ${BUILD_TARGETS.map((x) => x.name).join(', ')}`);
}

/** Hex sha256 of a file, streamed (the binaries are 100+ MB each). */
async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

if (import.meta.main) {
  try {
    await build(process.argv.slice(2));
  } catch (err) {
    console.error(`build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
