/**
 * The admin's one realtime stream (docs/realtime.md): every view on the page says which topics it wants
 * with `useRealtime`, and this module keeps ONE EventSource open for all of them. When the set of topics
 * or the locale changes, the stream is reopened with `?lastEventId=` so nothing between the two is missed;
 * a dropped connection is retried by the browser itself with `Last-Event-ID`.
 *
 * Streams are opened with `draft=true` and `depth=0`: editors read pending drafts and ids, as the forms do.
 */
import { useEffect, useRef } from 'preact/hooks';
import { queryString, runtime, type AdminConfig, type Doc } from './api.ts';

export type RealtimeEvent = {
  type: 'create' | 'update' | 'delete' | 'publish' | 'unpublish';
  topic: string;
  collection?: string;
  global?: string;
  id?: number | string;
  doc: Doc | null;
};

type Listener = { topic: string; locale: string | undefined; handle: (e: RealtimeEvent) => void };

const TYPES = ['create', 'update', 'delete', 'publish', 'unpublish'] as const;
/** The server refuses more topics than `realtime.maxTopics` (50 by default). */
const MAX_TOPICS = 50;

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let openKey = '';
let lastId: string | null = null;
let scheduled = false;

/** Whether `e` belongs to `topic` (a collection's topic hears about every document of it). */
export function matches(topic: string, e: RealtimeEvent): boolean {
  const [head, tail] = topic.split('/');
  if (head === 'globals') return e.global === tail;
  return e.collection === head && (tail === undefined || String(e.id) === tail);
}

function dispatch(raw: MessageEvent<string>) {
  if (raw.lastEventId) lastId = raw.lastEventId;
  let e: RealtimeEvent;
  try {
    e = JSON.parse(raw.data) as RealtimeEvent;
  } catch {
    return;
  }
  for (const l of [...listeners]) if (matches(l.topic, e)) l.handle(e);
}

/** Opens, reopens or closes the stream to fit the listeners now registered (once per tick). */
function refit() {
  scheduled = false;
  const topics = [...new Set([...listeners].map((l) => l.topic))].sort().slice(0, MAX_TOPICS);
  // One locale per page: the one the latest view asked for.
  const locale = [...listeners].reverse().find((l) => l.locale)?.locale;
  const key = topics.length ? JSON.stringify([topics, locale]) : '';
  if (key === openKey && (source === null) === (key === '')) return;
  source?.close();
  source = null;
  openKey = key;
  if (!key || typeof EventSource === 'undefined') return;
  const query = queryString({
    topics: topics.join(','),
    draft: 'true',
    depth: 0,
    locale,
    'fallback-locale': locale ? 'false' : undefined,
    lastEventId: lastId ?? undefined,
  });
  const es = new EventSource(`${runtime.apiPrefix}/realtime${query}`, { withCredentials: true });
  for (const type of TYPES) es.addEventListener(type, dispatch as EventListener);
  source = es;
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(refit);
}

/** Listens to `topic` until the returned function is called. */
export function listen(topic: string, handle: (e: RealtimeEvent) => void, locale?: string): () => void {
  const l: Listener = { topic, locale, handle };
  listeners.add(l);
  schedule();
  return () => {
    listeners.delete(l);
    schedule();
  };
}

/**
 * Calls `onEvent` for each change to any of `topics` while the component is mounted. The latest
 * `onEvent` is used, so it may close over fresh state without reopening anything.
 */
export function useRealtime(topics: string[], onEvent: (e: RealtimeEvent) => void, locale?: string): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = topics.join(',');
  useEffect(() => {
    const stops = topics.map((t) => listen(t, (e) => handler.current(e), locale));
    return () => stops.forEach((stop) => stop());
  }, [key, locale]);
}

/** Like useRealtime, but calls `refresh` once after a burst of changes (lists re-read instead of patching rows). */
export function useRefreshOnChange(topics: string[], refresh: () => void, waitMs = 150, locale?: string): void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useRealtime(
    topics,
    () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(refresh, waitMs);
    },
    locale,
  );
  useEffect(() => () => clearTimeout(timer.current), []);
}

/** Every collection and global (the operations views follow all content: scheduled publishes, deliveries). */
export function contentTopics(config: AdminConfig): string[] {
  return [...config.collections.map((c) => c.slug), ...config.globals.map((g) => `globals/${g.slug}`)];
}
