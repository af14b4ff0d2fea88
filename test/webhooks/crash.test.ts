/**
 * A process killed with SIGKILL while a webhook send hangs: the delivery stays `sending` in the table, and a
 * new instance on the same database takes it over once its 5-minute lease has passed — delivered exactly once more.
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { createCMS } from '../../src/create-cms.ts';
import { manualClock } from '../../src/clock.ts';
import { retryDueWebhooks } from '../../src/webhooks/retry-due.ts';
import type { DeliveryRow } from '../../src/db/deliveries-table.ts';
import { quietLog, sharedTestDatabase, tempDir } from '../harness.ts';
import { answer, hang, startReceiver } from '../support/webhook-receiver.ts';
import { crashConfig } from '../fixtures/webhook-crash-config.ts';

const MINUTE = 60_000;
const dir = tempDir('cms-crash-');
const receiver = startReceiver(hang);
const shared = await sharedTestDatabase(dir);
afterAll(async () => {
  await receiver.stop();
  await shared.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function readFirstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes('\n')) return text.slice(0, text.indexOf('\n'));
  }
  return text;
}

test('kill -9 during a hanging send, restart 5+ minutes later: the event is delivered exactly once more', async () => {
  const child = Bun.spawn(
    [
      process.execPath,
      path.join(import.meta.dir, '../fixtures/webhook-crash-server.ts'),
      dir,
      receiver.url,
      shared.database,
    ],
    { stdout: 'pipe', stderr: 'inherit' },
  );
  try {
    const { url } = JSON.parse(await readFirstLine(child.stdout));
    const started = performance.now();
    const res = await fetch(`${url}/api/cms/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'survives' }),
    });
    expect(res.status).toBe(201);
    expect(performance.now() - started).toBeLessThan(1000); // the write never waits for the send
    await receiver.waitFor(1);
  } finally {
    child.kill('SIGKILL');
    await child.exited;
  }
  expect(child.signalCode).toBe('SIGKILL');
  const killedAt = Date.now();
  const first = receiver.requests[0];
  receiver.respondWith(answer(200));

  const clock = manualClock(killedAt + 4 * MINUTE);
  const cms = await createCMS({
    config: crashConfig(dir, receiver.url, shared.database),
    rootDir: dir,
    clock,
    log: quietLog,
  });
  try {
    const rows = () => cms.store.all<DeliveryRow>('SELECT * FROM "webhook-deliveries"');
    expect(await rows()).toMatchObject([{ id: first.headers['x-cms-delivery'], state: 'sending', attempts: 1 }]);

    // Within the lease the interrupted send is left alone (its process might still be sending).
    expect(await retryDueWebhooks(cms)).toEqual({ sent: 0, failed: 0, pending: 0 });
    expect(receiver.requests).toHaveLength(1);

    clock.set(killedAt + 5 * MINUTE + 5_000);
    expect(await retryDueWebhooks(cms)).toEqual({ sent: 1, failed: 0, pending: 0 });
    expect(receiver.requests).toHaveLength(2);
    const again = receiver.requests[1];
    expect(again.headers['x-cms-delivery']).toBe(first.headers['x-cms-delivery']);
    expect(again.headers['x-cms-signature']).toBe(first.headers['x-cms-signature']);
    expect(again.body).toBe(first.body);
    expect(again.json).toMatchObject({ event: 'create', collection: 'posts', doc: { title: 'survives' } });
    expect(await rows()).toEqual([]);

    clock.advance(24 * 60 * MINUTE);
    expect(await retryDueWebhooks(cms)).toEqual({ sent: 0, failed: 0, pending: 0 });
    expect(receiver.requests).toHaveLength(2);
  } finally {
    await cms.close();
  }
});
