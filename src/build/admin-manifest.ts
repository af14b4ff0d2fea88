/**
 * The prebuilt admin (admin/dist), as embedded in the compiled binary.
 *
 * From source this module says `null` and src/http/admin-files.ts reads
 * admin/dist from disk. `bun run build` (see src/build/plugins.ts,
 * `adminManifestPlugin`) replaces this module's contents with one
 * `import x from '…' with { type: 'file' }` per file of admin/dist, mapping
 * the file's path below the admin mount (`/index.html`, `/assets/main-AB12.js`)
 * to the embedded copy (`/$bunfs/…`). An empty object means the binary was
 * built without an admin.
 */
export const adminManifest: Record<string, string> | null = null;
