/**
 * A server process started with `--port 0` (from source or the built binary), ready once it prints its
 * "listening on" line. The system picks the port, so two servers never race for one a test guessed.
 */
import type { Subprocess } from 'bun';

export type Listening = {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  /** `http://127.0.0.1:PORT`, as the server printed it. */
  origin: string;
  /** Everything it printed so far, standard output then standard error. */
  output(): string;
  /** Sends `signal` (SIGTERM), waits for the exit and the last output; answers everything it printed. */
  stop(signal?: NodeJS.Signals): Promise<string>;
};

const LISTENING = /listening on (https?:\/\/[^/\s]+)/;

export async function spawnListening(
  cmd: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<Listening> {
  const proc = Bun.spawn(cmd, { cwd: options.cwd, env: options.env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  let out = '';
  let err = '';
  // Both pipes are read to the end: a pipe nobody reads stalls the server once it fills.
  const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const drained = Promise.all([pump(proc.stdout, (t) => (out += t)), pump(proc.stderr, (t) => (err += t))]);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const line = out.split('\n').find((l, i, all) => i < all.length - 1 && LISTENING.test(l));
    if (line) {
      const output = () => out + err;
      const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
        proc.kill(signal);
        await Promise.all([proc.exited, drained]);
        return output();
      };
      return { proc, origin: LISTENING.exec(line)![1]!, output, stop };
    }
    if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > deadline) {
      if (proc.exitCode === null) proc.kill();
      throw new Error(`server did not start (${proc.exitCode ?? proc.signalCode ?? 'timed out'}): ${out}${err}`);
    }
    await Bun.sleep(20);
  }
}
