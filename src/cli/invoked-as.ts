/**
 * How to run this CLI again from another folder, as the user started it: `cms` when that name on PATH
 * is this binary, else the binary's path relative to that folder (`../dist/cms` after `cd my-site`), or
 * `bun <script>` when run from source. `cms init` prints it, so its "next" lines work when pasted.
 */
import { delimiter, isAbsolute, relative, resolve } from 'node:path';

export type Invocation = { execPath: string; script: string | undefined; path: string | undefined; cwd: string };

const current = (): Invocation => ({
  execPath: process.execPath,
  script: process.argv[1],
  path: process.env.PATH,
  cwd: process.cwd(),
});

const fromFolder = (folder: string, file: string) => {
  const rel = relative(folder, file);
  if (isAbsolute(rel)) return rel;
  return rel.startsWith('.') ? rel : `./${rel}`;
};

export function commandFrom(folder: string, how: Invocation = current()): string {
  const script = how.script && /\.(?:[cm]?[jt]s|tsx)$/.test(how.script) ? resolve(how.cwd, how.script) : undefined;
  if (script) return `bun ${fromFolder(folder, script)}`;
  const onPath = (how.path ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((d) => resolve(how.cwd, d, 'cms') === how.execPath || resolve(how.cwd, d, 'cms.exe') === how.execPath);
  if (onPath) return 'cms';
  return fromFolder(folder, how.execPath);
}
