/**
 * Starting and watching the servers a benchmark compares: a free loopback port, the CMS's start command,
 * starting a server and waiting for its first answer, killing them all when the run ends or fails,
 * resident memory, and cold start (spawn to first answered request) as a median of fresh starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { median } from './rounds.ts';

export const freePort = () => 20000 + Math.floor(Math.random() * 30000);

/** Milliseconds until `url` first answers (any status), polling every 2 ms. */
export async function waitFor(url: string, ms = 10000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < ms) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return performance.now() - start;
    } catch {
      await Bun.sleep(2);
    }
  }
  throw new Error(`no answer from ${url}`);
}

export function rssKB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** RSS of a process and all its descendants: a server that forks workers is measured whole. */
export function treeRssKB(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 2nd field after the parenthesised name, which may itself hold spaces.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      total += rssKB(p);
    } catch {
      continue;
    }
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

/** How to start one server, and the URL that answers once it is up (within `wait` ms, default 10 s). */
export type Start = {
  command: string[];
  cwd?: string;
  env: Record<string, string | undefined>;
  url: string;
  wait?: number;
};
/** Registers a process for the exit handler of `guard`. */
export type Track = (p: { kill(): void }) => void;

/** The environment a benchmarked server runs in. */
export const production = () => ({ ...process.env, NODE_ENV: 'production' });

const root = path.join(import.meta.dir, '../..');
/** This checkout's built binary (`bun run build`). */
export const cmsBinary = path.join(root, 'dist/cms');

/** `cms serve` of this checkout in `cwd` (dist/cms with `binary`, else from source), optionally with another config file. */
export function cmsStart(port: number, o: { cwd: string; binary: boolean; config?: string }): Start {
  return {
    command: [
      ...(o.binary ? [cmsBinary] : [process.execPath, path.join(root, 'src/cli/main.ts')]),
      'serve',
      '--port',
      String(port),
      ...(o.config ? ['--config', o.config] : []),
    ],
    cwd: o.cwd,
    env: production(),
    url: `http://127.0.0.1:${port}/api/cms/users/init`,
  };
}

/** A bare server of scripts/bench/ (`script`) answering from the SQLite file `database`; up once `urlPath` answers. */
export function bareStart(script: string, database: string, port: number, urlPath: string): Start {
  return {
    command: [process.execPath, path.join(import.meta.dir, script), database, String(port)],
    env: production(),
    url: `http://127.0.0.1:${port}${urlPath}`,
  };
}

/**
 * The servers die with this process, and a failed or interrupted run still removes `dir` (and runs `onFail`,
 * e.g. dropping a database) before exiting 1. Returns the `track` every started process goes through.
 */
export function guard(dir: string, onFail?: () => Promise<unknown>): Track {
  const children: { kill(): void }[] = [];
  process.on('exit', () => children.forEach((c) => c.kill()));
  const fail = (error: unknown) => {
    if (error) console.error(error);
    fs.rmSync(dir, { recursive: true, force: true });
    void Promise.resolve(onFail?.()).finally(() => process.exit(1));
  };
  process.on('uncaughtException', fail);
  process.on('SIGINT', () => fail(null));
  process.on('SIGTERM', () => fail(null));
  return (p) => children.push(p);
}

function spawn<E extends 'inherit' | 'pipe' | 'ignore'>(s: Start, track: Track, stderr: E) {
  const p = Bun.spawn(s.command, { cwd: s.cwd, env: s.env, stdout: 'ignore', stderr });
  track(p);
  return p;
}

/** Starts a server (its errors shown) and returns it once `s.url` answers. */
export async function launch(s: Start, track: Track) {
  const p = spawn(s, track, 'inherit');
  await waitFor(s.url, s.wait);
  return p;
}

/**
 * Cold start to first answered request: the median of `count` fresh starts, each on its own port.
 * `track` receives every process so the caller's exit handler can kill one left behind.
 */
export async function coldStart(start: (port: number) => Start, count: number, track: Track): Promise<number> {
  const times: number[] = [];
  let failed = 0;
  while (times.length < count) {
    const port = freePort();
    const s = start(port);
    const began = performance.now();
    const p = spawn(s, track, 'pipe');
    try {
      await waitFor(s.url, s.wait);
      times.push(performance.now() - began);
      p.kill();
      await p.exited;
    } catch (error) {
      // One start in ten once got no answer in 10 s on the shared machine (cause unseen then: stderr was
      // ignored); say why, and try another port.
      p.kill();
      await p.exited;
      console.error(
        `cold start on port ${port} failed (exit ${p.exitCode}): ${(await new Response(p.stderr).text()).trim().slice(-500)}`,
      );
      if (++failed === 3) throw error;
    }
  }
  return median(times);
}

/** CPU time (user and system, all threads) a running process has used so far, in ms. */
export function cpuMs(pid: number): number {
  let ns = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

export type StartFigures = { name: string; wall: number; fastest: number; cpu: number; rssMB: number };

/**
 * Cold starts of several servers taking turns, `count` each: per server the median wall time to the first
 * answer (and the fastest), the median CPU time the process had used by then (steadier than wall time on a
 * busy machine) and the median RSS one second after the answer.
 */
export async function coldStarts(
  servers: { name: string; start: (port: number) => Start }[],
  count: number,
  track: Track,
): Promise<StartFigures[]> {
  const runs = servers.map(() => ({ wall: [] as number[], cpu: [] as number[], rss: [] as number[] }));
  let failed = 0;
  for (let i = 0; i < count; i++) {
    for (const [n, server] of servers.entries()) {
      const s = server.start(freePort());
      const began = performance.now();
      const p = spawn(s, track, 'ignore');
      try {
        await waitFor(s.url, s.wait);
      } catch (error) {
        // A random port can be one a client socket of another process holds: the server cannot bind it.
        p.kill();
        await p.exited;
        if (++failed === 3) throw error;
        continue;
      }
      runs[n].wall.push(performance.now() - began);
      runs[n].cpu.push(cpuMs(p.pid));
      await Bun.sleep(1000);
      runs[n].rss.push(rssKB(p.pid) / 1024);
      p.kill();
      await p.exited;
    }
  }
  return servers.map((server, n) => ({
    name: server.name,
    wall: median(runs[n].wall),
    fastest: Math.min(...runs[n].wall),
    cpu: median(runs[n].cpu),
    rssMB: median(runs[n].rss),
  }));
}
