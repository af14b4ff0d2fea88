/**
 * sharp's native files, as embedded in the compiled binary.
 *
 * From source this module says `null`: sharp loads itself from node_modules.
 * `bun run build` (see src/build/plugins.ts, `sharpPlugin`) replaces this
 * module's contents with `import x from '…' with { type: 'file' }` lines for
 * sharp's `.node` addon and the libvips shared library, so the compiled
 * binary carries them and src/uploads/sharp-loader.ts can write them out.
 */
export interface SharpNativeFile {
  /** Path of the embedded copy (`/$bunfs/…`). */
  embedded: string;
  /** Where it goes below the extraction folder, e.g. `@img/sharp-linux-x64/lib/sharp-linux-x64-0.35.5.node`. */
  rel: string;
  /** Size in bytes, to tell a complete earlier extraction from a stale one. */
  size: number;
}

export interface SharpNativeFiles {
  /** Folder name below the extraction root, unique per sharp version and platform. */
  id: string;
  /** Relative path of the addon among `files`. */
  addon: string;
  files: SharpNativeFile[];
}

export const sharpNativeFiles: SharpNativeFiles | null = null;
