/**
 * The start-up floors a cold start is stated against: the same first request answered by `Bun.serve` alone,
 * by Elysia with one route, and by Elysia with one SQLite query and `node:crypto`, each compiled into a
 * binary with the flags dist/cms is built with (build.ts), so runtime start and page faults are alike.
 */
import path from 'node:path';
import { compileBinary } from '../../build.ts';
import { production, type Start } from './processes.ts';

export const FLOORS = [
  { name: 'Bun.serve alone', entry: 'serve.ts' },
  { name: '+ Elysia, one route', entry: 'elysia.ts' },
  { name: '+ bun:sqlite query, node:crypto', entry: 'sqlite.ts' },
];

/** Compiles the floors into `dir`; answers how to start each in the project folder `cwd`. */
export async function compileFloors(
  dir: string,
  cwd: string,
): Promise<{ name: string; start: (port: number) => Start }[]> {
  const floors = [];
  for (const floor of FLOORS) {
    const outfile = path.join(dir, `floor-${path.basename(floor.entry, '.ts')}`);
    await compileBinary({ entry: path.join(import.meta.dir, 'floors', floor.entry), outfile });
    floors.push({
      name: floor.name,
      start: (port: number): Start => ({
        command: [outfile, 'serve', '--port', String(port)],
        cwd,
        env: production(),
        url: `http://127.0.0.1:${port}/api/cms/users/init`,
      }),
    });
  }
  return floors;
}
