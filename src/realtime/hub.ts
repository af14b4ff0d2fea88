/**
 * The realtime hub of one instance: its open streams, and one follower of the change log that tells each
 * of them what it may know. The follower wakes when the store says the log moved (this process's commits
 * at once; other processes through the commit watcher on SQLite, LISTEN/NOTIFY on PostgreSQL, with a
 * catch-up read after a reconnect) and reads the log by id, so events reach every stream in commit order,
 * once each. A stream opened with `Last-Event-ID` first gets what it missed (within the replay window).
 */
import type { CMS } from '../cms.ts';
import { APIError } from '../errors.ts';
import { changesAfter, lastChangeId, REPLAY_WINDOW_MS, type LoggedChange } from './change-log.ts';
import { openEventStream, type SSEStream } from './event-stream.ts';
import { topicFor, type Topic } from './topics.ts';
import { HIDDEN, seesDrafts, viewOf, type View, type Viewer } from './subscriber-view.ts';

type Subscriber = Viewer & {
  topics: Topic[];
  stream: SSEStream;
  /** The last log entry this stream has been considered for. */
  cursor: number;
  /** Set while it waits for its replay. */
  replayFrom: number | null;
};

export type Hub = {
  subscribe(viewer: Viewer, topics: Topic[], lastEventId: number | null): Promise<Response>;
  readonly size: number;
  close(): Promise<void>;
};

const hubs = new WeakMap<CMS, Hub>();

export function hubOf(cms: CMS): Hub {
  let hub = hubs.get(cms);
  if (!hub) {
    hubs.set(cms, (hub = createHub(cms)));
    cms.closers.push(() => hub!.close());
  }
  return hub;
}

/** Ends every stream with a `retry:` hint (graceful shutdown), if a hub was ever started. */
export function closeRealtime(cms: CMS): Promise<void> {
  return hubs.get(cms)?.close() ?? Promise.resolve();
}

function createHub(cms: CMS): Hub {
  const subscribers = new Set<Subscriber>();
  let cursor: number | null = null;
  let stopWatching: (() => void) | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const start = async () => {
    cursor ??= await lastChangeId(cms.store);
    stopWatching ??= cms.store.watchChanges((name) => {
      if (name === null || name === '_cms_events') wake();
      if (name === null || name === '_cms_sessions') void dropEndedSessions();
    });
  };

  const wake = () => {
    if (pumping) return void (again = true);
    pumping = pump()
      .catch((error) => cms.log.error('realtime: following the change log failed:', error))
      .finally(() => {
        pumping = null;
        if (again && !closed) wake();
      });
  };

  async function pump() {
    do {
      again = false;
      for (const subscriber of subscribers) if (subscriber.replayFrom !== null) await replay(subscriber);
      for (;;) {
        const batch = await changesAfter(cms.store, cursor!);
        for (const change of batch) {
          await deliver(change, [...subscribers]);
          cursor = change.id;
        }
        if (batch.length === 0) break;
      }
    } while (again && !closed);
  }

  /** Closes the streams whose session ended (logout, a session removed, the user deactivated), on any instance. */
  async function dropEndedSessions() {
    await Promise.all(
      [...subscribers].map(async (subscriber) => {
        if (subscriber.sessionAlive && !(await subscriber.sessionAlive().catch(() => true)))
          subscriber.stream.close(false);
      }),
    );
  }

  /** The entries after the client's last one, still in the window and no later than what others got. */
  async function replay(subscriber: Subscriber) {
    let from = subscriber.replayFrom!;
    const since = cms.clock.now() - REPLAY_WINDOW_MS;
    while (subscriber.stream.open) {
      const batch = (await changesAfter(cms.store, from)).filter((c) => c.id <= cursor!);
      for (const change of batch) if (change.at >= since) await deliver(change, [subscriber], true);
      if (batch.length === 0) break;
      from = batch[batch.length - 1].id;
    }
    subscriber.cursor = Math.max(subscriber.cursor, cursor!);
    subscriber.replayFrom = null;
  }

  async function deliver(change: LoggedChange, to: Subscriber[], replaying = false) {
    const reads = new Map<string, Promise<View>>();
    const sends: Promise<void>[] = [];
    for (const subscriber of to) {
      if (change.id <= subscriber.cursor || (subscriber.replayFrom !== null && !replaying)) continue;
      subscriber.cursor = change.id;
      const topic = topicFor(subscriber.topics, change);
      if (!topic || (change.draft && !seesDrafts(subscriber))) continue;
      let view = reads.get(subscriber.key);
      if (!view) reads.set(subscriber.key, (view = viewOf(subscriber, change, cms.log)));
      sends.push(
        view.then((doc) => {
          if (doc === HIDDEN) return;
          const subject =
            change.kind === 'global' ? { global: change.slug } : { collection: change.slug, id: change.docId };
          subscriber.stream.send({
            id: change.id,
            type: change.type,
            data: { type: change.type, topic: topic.name, ...subject, doc },
          });
        }),
      );
    }
    await Promise.all(sends);
  }

  return {
    get size() {
      return subscribers.size;
    },
    async subscribe(viewer, topics, lastEventId) {
      const { maxConnections, maxBufferBytes, heartbeatInterval } = cms.config.realtime;
      if (closed) throw new APIError(503, 'The server is shutting down.');
      if (subscribers.size >= maxConnections)
        throw new APIError(
          429,
          `Too many realtime connections: this server holds at most ${maxConnections}.`,
          undefined,
          { headers: { 'retry-after': '5' } },
        );
      await start();
      // A new stream starts after the last change committed, not after the last one delivered: a change
      // made just before it opened, still on its way to the other streams, is not news to it.
      const subscriber: Subscriber = {
        ...viewer,
        topics,
        cursor: lastEventId ?? Math.max(cursor!, await lastChangeId(cms.store)),
        replayFrom: lastEventId,
        stream: openEventStream({ maxBufferBytes, heartbeatInterval, onClose: () => subscribers.delete(subscriber) }),
      };
      subscribers.add(subscriber);
      if (lastEventId !== null) wake();
      return subscriber.stream.response;
    },
    async close() {
      closed = true;
      stopWatching?.();
      stopWatching = null;
      for (const subscriber of [...subscribers]) subscriber.stream.close(true);
      await pumping;
    },
  };
}
