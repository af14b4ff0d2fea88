/**
 * Lazy, fail-soft access to sharp. This simple version imports sharp from node_modules; the build
 * branch replaces this file with one that also makes sharp work inside the compiled binary.
 *
 * loadSharp() never throws: when sharp cannot load it logs one line "image sizes are off: <reason>"
 * and resolves to null (and stays null).
 */

/** sharp's default export: the `sharp(input?, options?)` function. (sharp 0.35 is an ES module; its namespace is not callable.) */
export type Sharp = typeof import('sharp').default;

let pending: Promise<Sharp | null> | undefined;

/** Where the compiled binary extracts sharp's native files. Nothing to extract from source. */
export function setNativeDir(_dir: string): void {}

/** sharp's default export (the `sharp(input, options)` function), or null when it cannot load here. Cached. */
export function loadSharp(): Promise<Sharp | null> {
  pending ??= load();
  return pending;
}

async function load(): Promise<Sharp | null> {
  try {
    const mod: any = await import('sharp');
    const sharp = mod.default ?? mod;
    if (typeof sharp !== 'function') throw new Error('sharp did not export a function');
    return sharp;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // sharp's own errors are multi-line help texts; one line is enough here.
    console.warn(`image sizes are off: ${message.split('\n').filter(Boolean)[0] ?? 'unknown error'}`);
    return null;
  }
}
