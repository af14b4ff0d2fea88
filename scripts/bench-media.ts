/**
 * Figures for the media note: upload throughput for a 5 MB file to local disk and to S3 on loopback
 * (s3rver), the time to make three sizes of a 12-megapixel JPEG, and the server's RSS during a 100 MB
 * upload. Servers run as separate `cms serve` processes; the client is this process.
 *
 *   bun scripts/bench-media.ts [--runs N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startChildServer, peakRSS, type ChildServer } from '../test/support/child-server.ts';
import { startS3Server } from '../test/support/s3-server.ts';
import { pdf, streamedUpload } from '../test/support/media-fixtures.ts';
import { makeImageSizes } from '../src/uploads/image-sizes.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 10;
const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function uploadOnce(server: ChildServer, body: Uint8Array, name: string): Promise<number> {
  const form = new FormData();
  form.append('file', new File([body as Uint8Array<ArrayBuffer>], name));
  const started = performance.now();
  const res = await fetch(`${server.api}/media`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${server.token}` },
  });
  const elapsed = performance.now() - started;
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return elapsed;
}

async function throughput(label: string, server: ChildServer): Promise<string> {
  const file = new Uint8Array(pdf(5 * MB - pdf().length));
  await uploadOnce(server, file, 'warm.pdf');
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await uploadOnce(server, file, `bench-${i}.pdf`));
  const ms = median(times);
  return `| Upload 5 MB, ${label} | ${(5 / (ms / 1000)).toFixed(0)} MB/s (median ${ms.toFixed(1)} ms of ${runs}) |`;
}

async function sizesOf12MP(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-sizes-'));
  const file = path.join(dir, 'photo.jpg');
  await sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#7a5',
      noise: { type: 'gaussian', mean: 120, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toFile(file);
  const sizes = [
    { name: 'thumb', width: 400 },
    { name: 'card', width: 768, height: 512 },
    { name: 'hero', width: 1920 },
  ];
  const times: number[] = [];
  for (let i = 0; i < Math.max(3, Math.min(runs, 7)); i++) {
    const started = performance.now();
    const made = await makeImageSizes(sharp, file, 'image/jpeg', sizes, dir);
    times.push(performance.now() - started);
    for (const m of made) fs.rmSync(m.path);
  }
  const size = (fs.statSync(file).size / MB).toFixed(1);
  fs.rmSync(dir, { recursive: true, force: true });
  return `| Three sizes (400w, 768×512, 1920w) of a 12 MP JPEG (${size} MB) | ${median(times).toFixed(0)} ms median of ${times.length} |`;
}

async function rssDuring100MB(server: ChildServer): Promise<string> {
  const send = async (size: number) => {
    const upload = streamedUpload(size);
    const res = await fetch(`${server.api}/media`, {
      method: 'POST',
      body: upload.body,
      duplex: 'half',
      headers: { 'content-type': upload.contentType, authorization: `Bearer ${server.token}` },
    } as RequestInit);
    if (res.status !== 201) throw new Error(`upload failed: ${res.status}`);
  };
  await send(50 * MB);
  const before = server.rssMB();
  const { peak } = await peakRSS(server, () => send(100 * MB));
  return `| Server RSS during a 100 MB streamed upload | ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB peak (+${(peak - before).toFixed(1)} MB) |`;
}

const s3 = await startS3Server('bench');
const local = await startChildServer({ upload: { maxFileSize: 200 * MB } });
const remote = await startChildServer({
  upload: {
    maxFileSize: 200 * MB,
    storage: { type: 's3', bucket: s3.bucket, endpoint: s3.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  },
});
try {
  const lines = [
    `Bun ${Bun.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), loopback; sharp ${(sharp as any).versions?.sharp ?? ''}`,
    '',
    '| Figure | Value |',
    '|---|---|',
    await throughput('local disk', local),
    await throughput('S3 (s3rver on loopback)', remote),
    await sizesOf12MP(),
    await rssDuring100MB(local),
  ];
  console.log(lines.join('\n'));
} finally {
  await Promise.all([local.stop(), remote.stop()]);
  await s3.stop();
}
