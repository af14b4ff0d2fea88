/**
 * Requests per CPU-second of each server, from /proc (user + system time of all its threads), loaded in
 * turns: on a machine other work shares, a server's CPU time per request moves far less than its
 * throughput, so comparisons of a request path's cost read it here.
 */
import fs from 'node:fs';
import { load, median, type Target } from './rounds.ts';

/** CPU seconds a process has used (user + system), from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export type Served = { name: string; pid: number; target: Target };

/** Each server's median µs of CPU per request over `rounds` turns of `seconds` (who goes first rotates). */
export async function cpuPerRequest(
  servers: Served[],
  o: { seconds: number; rounds: number; connections: number },
): Promise<Map<string, { cpuMicros: number; rps: number; rounds: number[] }>> {
  const seen = new Map(servers.map((s) => [s.name, [] as { cpuMicros: number; rps: number }[]]));
  for (const s of servers) await load(s.target, 1, o.connections);
  for (let r = 0; r < o.rounds; r++) {
    for (let i = 0; i < servers.length; i++) {
      const s = servers[(i + r) % servers.length]!;
      const before = cpuSeconds(s.pid);
      const { rps } = await load(s.target, o.seconds, o.connections);
      const used = cpuSeconds(s.pid) - before;
      seen.get(s.name)!.push({ cpuMicros: (used * 1e6) / Math.max(1, rps * o.seconds), rps });
    }
  }
  return new Map(
    [...seen].map(([name, xs]) => [
      name,
      {
        cpuMicros: median(xs.map((x) => x.cpuMicros)),
        rps: median(xs.map((x) => x.rps)),
        rounds: xs.map((x) => x.cpuMicros),
      },
    ]),
  );
}
