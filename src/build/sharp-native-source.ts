/**
 * Where the build finds sharp's native files for a platform (docs/build.md,
 * "Five platforms").
 *
 * The machine's own platform comes from node_modules, as `bun install` put it
 * there. Other platforms' `@img/sharp-<platform>` (and, except on Windows,
 * `@img/sharp-libvips-<platform>`) packages are installed on demand into
 * `.cache/sharp-native/<platform>/` with `bun install --os --cpu`, at the
 * versions sharp itself lists in its optionalDependencies, so every binary
 * carries the same sharp and libvips. The project's own dependencies stay
 * free of four platforms' 20 MB libraries it never loads itself.
 *
 * Layout of `files` (the `rel` paths) is what the addon expects at run time:
 *   Linux, macOS   @img/sharp-<p>/lib/<addon>.node next to
 *                  @img/sharp-libvips-<p>/lib/libvips-cpp.*  (RPATH $ORIGIN/../../…,
 *                  or @rpath with @loader_path/../../… on macOS)
 *   Windows        @img/sharp-win32-x64/lib/<addon>.node with its DLLs beside it
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');

/** `linux-x64`, `linuxmusl-x64`, `darwin-arm64`, … for the running machine, as sharp names its packages. */
export function sharpPlatform(): string {
  let libc = '';
  if (process.platform === 'linux') {
    const report = (process.report?.getReport?.() ?? {}) as { header?: { glibcVersionRuntime?: string } };
    if (!report.header?.glibcVersionRuntime) libc = 'musl';
  }
  return `${process.platform}${libc}-${process.arch}`;
}

export interface SharpNativeSource {
  /** Unique per sharp version and platform: the extraction folder's name. */
  id: string;
  /** `rel` of the addon; always files[0]. */
  addon: string;
  files: { source: string; rel: string; size: number }[];
}

/** sharp's addon and native libraries for `platform` (default: this machine's). */
export function findSharpNative(root = ROOT, platform = sharpPlatform()): SharpNativeSource {
  const sharpPkgFile = Bun.resolveSync('sharp/package.json', root);
  const sharpPkg = require(sharpPkgFile) as { version: string; optionalDependencies?: Record<string, string> };
  // The `@img` folder holding this platform's packages (they sit side by side).
  const packagesDir = dirname(
    packageDir(dirname(sharpPkgFile), `@img/sharp-${platform}`) ?? installPlatform(root, platform, sharpPkg),
  );
  const addonLib = join(packagesDir, `sharp-${platform}`, 'lib');
  const addonName = readdirSync(addonLib).find((f) => f.endsWith('.node'));
  if (!addonName) throw new Error(`no .node file in ${addonLib}`);
  const files = [{ source: join(addonLib, addonName), rel: `@img/sharp-${platform}/lib/${addonName}` }];
  if (platform.startsWith('win32')) {
    // Windows has no separate libvips package: its DLLs ship beside the addon.
    for (const n of readdirSync(addonLib).filter((f) => f.endsWith('.dll'))) {
      files.push({ source: join(addonLib, n), rel: `@img/sharp-${platform}/lib/${n}` });
    }
  } else {
    const vipsLib = join(packagesDir, `sharp-libvips-${platform}`, 'lib');
    for (const n of readdirSync(vipsLib).filter((f) => /^libvips.*\.(so|dylib)/.test(f))) {
      files.push({ source: join(vipsLib, n), rel: `@img/sharp-libvips-${platform}/lib/${n}` });
    }
  }
  if (files.length < 2) throw new Error(`no libvips library for ${platform} beside ${addonLib}`);
  return {
    id: `sharp-${sharpPkg.version}-${platform}`,
    addon: files[0]!.rel,
    files: files.map((f) => ({ ...f, size: statSync(f.source).size })),
  };
}

/** The folder of package `name` as resolved from `from`, or undefined when it is not installed. */
function packageDir(from: string, name: string): string | undefined {
  try {
    return dirname(Bun.resolveSync(`${name}/package.json`, from));
  } catch {
    return undefined;
  }
}

/** Installs one platform's packages into the build cache; returns the path of its addon package. */
function installPlatform(
  root: string,
  platform: string,
  sharpPkg: { optionalDependencies?: Record<string, string> },
): string {
  const [os, cpu] = platform.split('-') as [string, string];
  const names = [`@img/sharp-${platform}`, ...(os === 'win32' ? [] : [`@img/sharp-libvips-${platform}`])];
  const dependencies: Record<string, string> = {};
  for (const name of names) {
    const version = sharpPkg.optionalDependencies?.[name];
    if (!version) throw new Error(`sharp does not list ${name}; it has no build for ${platform}`);
    dependencies[name] = version;
  }
  const dir = join(root, '.cache/sharp-native', platform);
  const addonDir = join(dir, 'node_modules', names[0]!);
  const manifest = JSON.stringify({ name: `cms-sharp-native-${platform}`, private: true, dependencies }, null, 2);
  const manifestFile = join(dir, 'package.json');
  if (existsSync(addonDir) && existsSync(manifestFile) && readFileSync(manifestFile, 'utf8') === manifest)
    return addonDir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(manifestFile, manifest);
  const p = Bun.spawnSync([process.execPath, 'install', `--os=${os}`, `--cpu=${cpu}`, '--no-progress'], {
    cwd: dir,
    env: { ...process.env, BUN_BE_BUN: '1' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (p.exitCode !== 0 || !existsSync(addonDir)) {
    throw new Error(
      `installing ${names.join(', ')} for ${platform} failed: ${p.stderr.toString().trim() || `exit ${p.exitCode}`}`,
    );
  }
  return addonDir;
}
