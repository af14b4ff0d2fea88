/**
 * Lazy, fail-soft access to sharp.
 *
 * From source, sharp loads itself from node_modules. In the compiled binary,
 * sharp's `.node` addon and libvips are embedded (see src/build/plugins.ts);
 * on first use they are written into a folder on disk, in the layout the
 * addon expects (Linux: RPATH `$ORIGIN/../../sharp-libvips-<platform>/lib`;
 * macOS: `@rpath` with `@loader_path/../../sharp-libvips-<platform>/lib`, the
 * `.dylib`; Windows: the DLLs beside the `.node`, found because the addon is
 * loaded by its full path), and loaded with process.dlopen. sharp's own loader module is replaced at build time by one
 * that returns that addon.
 *
 * Extraction folder, first that works:
 *   1. the folder given to setNativeDir() (the server passes its data folder),
 *   2. `<folder of the executable>/.cms-native`,
 *   3. `$XDG_CACHE_HOME/cms-native` or `~/.cache/cms-native`.
 * Never the system temp folder (often mounted noexec). Files are written to a
 * temp name and renamed, and skipped when a complete copy is already there.
 *
 * loadSharp() never throws: when sharp cannot load it logs one line
 * "image sizes are off: <reason>" and resolves to null (and stays null).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { sharpNativeFiles, type SharpNativeFiles } from '../build/sharp-native-files.ts';

/** sharp's default export: the `sharp(input?, options?)` function (with `.versions`, `.cache()`, …). */
export type Sharp = typeof import('sharp').default;

let nativeDir: string | undefined;
let pending: Promise<Sharp | null> | undefined;

/** Where to extract sharp's native files in the compiled binary (tried first). Call before loadSharp(). */
export function setNativeDir(dir: string): void {
  nativeDir = dir;
}

/** sharp's default export, or null when it cannot be loaded here (logged once). Cached. */
export function loadSharp(): Promise<Sharp | null> {
  pending ??= load();
  return pending;
}

async function load(): Promise<Sharp | null> {
  try {
    if (sharpNativeFiles) await prepareEmbedded(sharpNativeFiles);
    const mod: any = await import('sharp');
    const sharp: Sharp = mod.default ?? mod;
    if (typeof sharp !== 'function') throw new Error('sharp did not export a function');
    return sharp;
  } catch (err) {
    console.warn(`image sizes are off: ${reason(err)}`);
    return null;
  }
}

function reason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // sharp's own errors are multi-line help texts; one line is enough here.
  return msg.split('\n').filter(Boolean).slice(0, 2).join(' — ');
}

function candidateDirs(): string[] {
  const dirs: string[] = [];
  if (nativeDir) dirs.push(nativeDir);
  dirs.push(join(dirname(process.execPath), '.cms-native'));
  const cache = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
  if (cache) dirs.push(join(cache, 'cms-native'));
  return [...new Set(dirs)];
}

async function prepareEmbedded(native: SharpNativeFiles): Promise<void> {
  if ((globalThis as any).__cmsSharpAddon) return;
  const problems: string[] = [];
  for (const root of candidateDirs()) {
    const base = join(root, native.id);
    try {
      for (const f of native.files) extract(f.embedded, join(base, f.rel), f.size);
    } catch (err) {
      problems.push(`cannot write to ${root} (${(err as NodeJS.ErrnoException).code ?? reason(err)})`);
      continue;
    }
    try {
      const mod = { exports: {} as any };
      process.dlopen(mod, join(base, native.addon));
      const addon = mod.exports;
      if (native.id.endsWith('linux-x64') && typeof addon._isUsingX64V2 === 'function' && !addon._isUsingX64V2()) {
        throw new Error('prebuilt sharp for Linux x64 needs a CPU with the x86-64-v2 instruction set');
      }
      (globalThis as any).__cmsSharpAddon = addon;
      return;
    } catch (err) {
      // A noexec mount fails here ("failed to map segment from shared object"): try the next folder.
      problems.push(`cannot load from ${root} (${reason(err)})`);
    }
  }
  throw new Error(problems.join('; '));
}

function completeCopy(target: string, size: number): boolean {
  try {
    return statSync(target).size === size;
  } catch {
    return false;
  }
}

function extract(embedded: string, target: string, size: number): void {
  if (completeCopy(target, size)) return;
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, readFileSync(embedded), { mode: 0o755 });
    renameSync(tmp, target);
  } catch (err) {
    try {
      if (existsSync(tmp)) unlinkSync(tmp);
    } catch {}
    // Windows refuses to replace a DLL another process has loaded: when a
    // second server started at the same moment already wrote it, use that one.
    if (completeCopy(target, size)) return;
    throw err;
  }
}
