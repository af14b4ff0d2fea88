/**
 * The realtime hub of one instance: its open streams, and one follower of the change log that tells each
 * of them what it may know. The follower wakes when the store says the log moved (this process's commits
 * at once; other processes through polls of `PRAGMA data_version` on SQLite, LISTEN/NOTIFY on PostgreSQL,
 * with a catch-up read after a reconnect) and reads the log by id, so events reach every stream in commit order,
 * once each. A stream opened with `Last-Event-ID` first gets what it missed (within the replay window).
 *
 * A stream acts with the rights of its credentials as they are now, not as they were when it opened:
 * when users, sessions or API keys change (on any instance: the same change counters tell) and when its
 * credentials expire, they are looked up again; a stream whose credentials no longer hold ends, one
 * whose user changed (a new role) reads every later event with the new rights.
 */
import type { CMS } from '../cms.ts';
import { APIError } from '../errors.ts';
import { changesAfter, lastChangeId, lastChangeIdGiven, REPLAY_WINDOW_MS, type LoggedChange } from './change-log.ts';
import { encodeEvent, openEventStream, RETRY_MS, type SSEStream } from './event-stream.ts';
import { endedEventId } from './last-event-id.ts';
import { streamCounts } from './stream-limits.ts';
import { topicFor, type Topic } from './topics.ts';
import { HIDDEN, seesDrafts, viewOf, type SharedLookUp, type Viewer } from './subscriber-view.ts';

/** The tables whose changes may change what a stream's credentials give (the change counters name them). */
const CREDENTIAL_TABLES = new Set(['_cms_sessions', 'users', 'api-keys', '_cms_totp']);
/** How often (ms, real time) streams are checked for expired credentials and writes waiting too long. */
const SWEEP_MS = 1_000;

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

/** Streams open now on this instance (0 when no hub was ever started), for `GET /metrics`. */
export function openStreams(cms: CMS): number {
  return hubs.get(cms)?.size ?? 0;
}

/** Ends every stream with a `retry:` hint (graceful shutdown), if a hub was ever started. */
export function closeRealtime(cms: CMS): Promise<void> {
  return hubs.get(cms)?.close() ?? Promise.resolve();
}

/**
 * Tells a stream that the data was restored to an earlier moment, or loaded in bulk (docs/realtime.md
 * "After a restore"): what it was told before may have been undone, or much changed unannounced, so it
 * reads afresh what it shows.
 */
const resetEvent = (id: number, kind: LoggedChange['kind'] = 'restore') =>
  encodeEvent(id, 'reset', {
    type: 'reset',
    reason:
      kind === 'import'
        ? 'Documents were loaded in bulk: read again what you show.'
        : 'The data was restored to an earlier moment: read again what you show.',
  });

function createHub(cms: CMS): Hub {
  const subscribers = new Set<Subscriber>();
  const counts = streamCounts(() => cms.config.realtime);
  let cursor: number | null = null;
  let stopWatching: (() => void) | null = null;
  let sweeper: ReturnType<typeof setInterval> | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let checking: Promise<void> | null = null;
  let checkAgain = false;
  let sweeping: Promise<void> | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const start = async () => {
    cursor ??= await lastChangeId(cms.store);
    stopWatching ??= cms.store.watchChanges((name) => {
      if (name === null || name === '_cms_events') wake();
      if (name === null || CREDENTIAL_TABLES.has(name)) recheckAll();
    });
    sweeper ??= setInterval(sweep, SWEEP_MS);
    sweeper.unref?.();
    // One timer for every stream's comment line, rather than one per stream.
    heartbeat ??= setInterval(() => {
      for (const subscriber of subscribers) subscriber.stream.ping();
    }, cms.config.realtime.heartbeatInterval);
    heartbeat.unref?.();
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
        // Credentials changed before these entries were read are looked up again before they are told.
        await checking;
        for (const change of batch) {
          await deliver(change, subscribers);
          cursor = change.id;
        }
        if (batch.length === 0) break;
      }
    } while (again && !closed);
  }

  /** Every stream with credentials, looked up again; one check at a time, and one more if asked meanwhile. */
  function recheckAll() {
    if (checking) return void (checkAgain = true);
    checking = recheck([...subscribers].filter((s) => s.recheck))
      .catch((error) => cms.log.error('realtime: checking credentials failed:', error))
      .finally(() => {
        checking = null;
        if (checkAgain && !closed) {
          checkAgain = false;
          recheckAll();
        }
      });
  }

  async function recheck(list: Subscriber[]) {
    const lookUps = new Map<string, Promise<unknown>>();
    const shared: SharedLookUp = <T>(id: string, lookUp: () => Promise<T>) => {
      let found = lookUps.get(id);
      if (!found) lookUps.set(id, (found = lookUp()));
      return found as Promise<T>;
    };
    await Promise.all(
      list.map(async (subscriber) => {
        let now: Viewer | null;
        try {
          now = await subscriber.recheck!(shared);
        } catch (error) {
          // The database did not answer: the stream keeps its rights until the next check.
          cms.log.error("realtime: checking a stream's credentials failed:", error);
          return;
        }
        if (!subscriber.stream.open) return;
        if (now === null) return endForCredentials(subscriber);
        subscriber.ctx = now.ctx;
        subscriber.key = now.key;
        subscriber.expiresAt = now.expiresAt;
        subscriber.recheck = now.recheck;
      }),
    );
  }

  /** Ends the stream with an event whose id tells a reconnect that the credentials ended (./last-event-id.ts). */
  function endForCredentials(subscriber: Subscriber) {
    const data = JSON.stringify({ type: 'end', reason: 'The credentials this stream was opened with no longer hold.' });
    subscriber.stream.close(`id: ${endedEventId(subscriber.cursor)}\nevent: end\ndata: ${data}\n\n`);
  }

  /** Writes waiting too long are cut; credentials past their end are looked up again. */
  function sweep() {
    const now = cms.clock.now();
    const expired: Subscriber[] = [];
    for (const subscriber of subscribers) {
      subscriber.stream.checkWriteTimeout();
      if (subscriber.stream.open && subscriber.expiresAt !== null && subscriber.expiresAt <= now)
        expired.push(subscriber);
    }
    if (expired.length && !sweeping)
      sweeping = recheck(expired)
        .catch((error) => cms.log.error('realtime: checking credentials failed:', error))
        .finally(() => {
          sweeping = null;
        });
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

  /**
   * Tells `change` to the streams of `to` it concerns. Streams that read alike (the same key) form one
   * group: one read for the group, and one encoded block per topic name, the same bytes written to each
   * of its streams; what a stream costs here is a topic check and a write.
   */
  async function deliver(change: LoggedChange, to: Iterable<Subscriber>, replaying = false) {
    const groups = new Map<string, { streams: Subscriber[]; topics: Topic[] }>();
    let reset: Uint8Array | null = null;
    for (const subscriber of to) {
      if (change.id <= subscriber.cursor || (subscriber.replayFrom !== null && !replaying)) continue;
      subscriber.cursor = change.id;
      if (change.type === 'reset') {
        subscriber.stream.send((reset ??= resetEvent(change.id, change.kind)));
        continue;
      }
      const topic = topicFor(subscriber.topics, change);
      if (!topic || (change.draft && !seesDrafts(subscriber))) continue;
      let group = groups.get(subscriber.key);
      if (!group) groups.set(subscriber.key, (group = { streams: [], topics: [] }));
      group.streams.push(subscriber);
      group.topics.push(topic);
    }
    if (groups.size === 0) return;
    const subject = change.kind === 'global' ? { global: change.slug } : { collection: change.slug, id: change.docId };
    const sends: Promise<void>[] = [];
    for (const { streams, topics } of groups.values())
      sends.push(
        viewOf(streams[0], change, cms.log).then((doc) => {
          if (doc === HIDDEN) return;
          const blocks = new Map<string, Uint8Array>();
          for (let i = 0; i < streams.length; i++) {
            const topic = topics[i].name;
            let block = blocks.get(topic);
            if (!block) {
              block = encodeEvent(change.id, change.type, { type: change.type, topic, ...subject, doc });
              blocks.set(topic, block);
            }
            streams[i].stream.send(block);
          }
        }),
      );
    await Promise.all(sends);
  }

  return {
    get size() {
      return subscribers.size;
    },
    async subscribe(viewer, topics, lastEventId) {
      const { maxBufferBytes, writeTimeout } = cms.config.realtime;
      if (closed) throw new APIError(503, 'The server is shutting down.');
      // The place is taken before anything is awaited, so that streams opened at once count each other.
      counts.admit(viewer.owner);
      counts.add(viewer.owner);
      let from: number;
      let startOver = false;
      try {
        await start();
        // A new stream starts after the last change committed, not after the last one delivered: a change
        // made just before it opened, still on its way to the other streams, is not news to it.
        from = lastEventId ?? Math.max(cursor!, await lastChangeId(cms.store));
        // An id this database never gave: the client saw data a restore replaced. It starts over from here.
        if (lastEventId !== null && lastEventId > (await lastChangeIdGiven(cms.store))) {
          from = Math.max(cursor!, await lastChangeId(cms.store));
          startOver = true;
        }
      } catch (error) {
        counts.remove(viewer.owner);
        throw error;
      }
      const subscriber: Subscriber = {
        ...viewer,
        topics,
        cursor: from,
        replayFrom: startOver ? null : lastEventId,
        stream: openEventStream({
          maxBufferBytes,
          writeTimeout,
          now: () => cms.clock.now(),
          onClose: () => {
            if (subscribers.delete(subscriber)) counts.remove(subscriber.owner);
          },
        }),
      };
      subscribers.add(subscriber);
      if (startOver) subscriber.stream.send(resetEvent(from));
      else if (lastEventId !== null) wake();
      return subscriber.stream.response;
    },
    async close() {
      closed = true;
      stopWatching?.();
      stopWatching = null;
      if (sweeper) clearInterval(sweeper);
      if (heartbeat) clearInterval(heartbeat);
      for (const subscriber of [...subscribers])
        subscriber.stream.close(`retry: ${RETRY_MS}\n: closing, reconnect\n\n`);
      await Promise.all([pumping, checking, sweeping]);
    },
  };
}
