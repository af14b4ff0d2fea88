/**
 * A real S3-compatible server for tests: s3rver (npm, dev dependency) run under node on 127.0.0.1,
 * on a free port, storing into a temp folder. It does not check signatures (Bun's S3 client is what is under test, not signing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type S3TestServer = {
  endpoint: string;
  bucket: string;
  dir: string;
  stop(): Promise<void>;
  /** Stops the server but keeps its files, as an outage would; `resume` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
};

const LAUNCHER = `
const S3rver = require(process.argv[1]);
const [directory, bucket, parent, port] = process.argv.slice(2);
// Go away with the test process, even when it dies without stopping this server.
setInterval(() => { try { process.kill(Number(parent), 0); } catch { process.exit(0); } }, 500).unref();
new S3rver({ port: Number(port), address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] })
  .run().then((a) => process.stdout.write(JSON.stringify({ port: a.port }) + '\\n'), (e) => { console.error(e); process.exit(1); });
`;

function launch(dir: string, bucket: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  const s3rverPath = path.join(import.meta.dir, '../../node_modules/s3rver');
  const child: ChildProcess = spawn(
    'node',
    ['--openssl-legacy-provider', '-e', LAUNCHER, s3rverPath, dir, bucket, String(process.pid), String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, port: JSON.parse(line).port });
    });
    child.on('exit', (code) => reject(new Error(`s3rver exited with ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`s3rver did not start: ${stderr}`)), 15_000);
  });
}

async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function startS3Server(bucket = 'media-test'): Promise<S3TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  let { child, port } = await launch(dir, bucket, 0);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    dir,
    async stop() {
      await end(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    async pause() {
      await end(child);
    },
    async resume() {
      ({ child } = await launch(dir, bucket, port));
    },
  };
}
