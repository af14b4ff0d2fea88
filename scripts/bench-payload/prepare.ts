/**
 * Makes the Payload app of scripts/bench-payload.ts runnable in a cache folder outside the repository:
 * copies ./app there with the posts collection of scripts/bench/posts.ts (with its author), installs its pinned packages
 * with npm (`npm ci` from its lockfile) and runs `next build`. Each step is redone only when its inputs
 * changed since the last run, so a second run starts at once. Payload stays out of this project's dependencies.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { filesIn } from '../../test/support/media-fixtures.ts';
import { postsWithAuthorCollection } from '../bench/posts.ts';

const source = path.join(import.meta.dir, 'app');

const digest = (dir: string, names: string[]) => {
  const hash = createHash('sha256');
  for (const name of names)
    hash
      .update(name)
      .update('\0')
      .update(fs.readFileSync(path.join(dir, name)))
      .update('\0');
  return hash.digest('hex');
};

async function run(
  command: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  what: string,
): Promise<void> {
  const started = performance.now();
  const p = Bun.spawn(command, { cwd, env, stdout: 'pipe', stderr: 'pipe' });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  if ((await p.exited) !== 0)
    throw new Error(`${what} failed (exit ${p.exitCode}) in ${cwd}:\n${(out + err).trim().slice(-3000)}`);
  console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Node.js runs Payload (Next.js); Payload 3 wants ^18.20.2 or >= 20.9. */
export function nodeVersion(): string {
  const p = Bun.spawnSync(['node', '--version']);
  if (!p.success) throw new Error('node is not on PATH: Payload runs on Node.js (^18.20.2 or >= 20.9)');
  return p.stdout.toString().trim();
}

/** The pinned versions, from ./app/package.json. */
export const pinned = (): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')).dependencies;

/** The app folder under `cacheRoot`, installed and built. */
export async function preparePayload(cacheRoot: string): Promise<string> {
  const dir = path.join(cacheRoot, pinned().payload);
  fs.mkdirSync(dir, { recursive: true });
  const names = filesIn(source);
  for (const name of names) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.copyFileSync(path.join(source, name), path.join(dir, name));
  }
  const collection = `import type { CollectionConfig } from 'payload';\n\nexport default ${postsWithAuthorCollection} satisfies CollectionConfig;\n`;
  fs.writeFileSync(path.join(dir, 'posts-collection.ts'), collection);
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    PAYLOAD_SECRET: 'build-only',
    BENCH_PAYLOAD_DB: path.join(dir, 'build.db'),
  };
  const installed = digest(source, ['package.json', 'package-lock.json']);
  const installStamp = path.join(dir, '.bench-installed');
  if (!fs.existsSync(installStamp) || fs.readFileSync(installStamp, 'utf8') !== installed) {
    await run(['npm', 'ci', '--no-audit', '--no-fund', '--loglevel=error'], dir, env, `npm ci in ${dir}`);
    fs.writeFileSync(installStamp, installed);
  }
  const built = createHash('sha256').update(digest(source, names)).update(collection).digest('hex');
  const buildStamp = path.join(dir, '.bench-built');
  if (!fs.existsSync(buildStamp) || fs.readFileSync(buildStamp, 'utf8') !== built) {
    await run(['node', 'node_modules/next/dist/bin/next', 'build'], dir, env, 'next build');
    fs.writeFileSync(buildStamp, built);
  }
  return dir;
}
