/**
 * What a `/realtime` stream listens to: `<collection>`, `<collection>/<id>` or `globals/<slug>`, comma
 * separated, checked against the config (an unknown one is a 400 naming it).
 */
import { badRequest } from '../errors.ts';
import type { SanitizedConfig } from '../config/types.ts';
import type { LoggedChange } from './change-log.ts';

export type Topic = { name: string; kind: 'collection' | 'global'; slug: string; id: number | null };

/** Longer `topics` values are refused before they are split. */
const MAX_TOPICS_LENGTH = 8_192;

export function parseTopics(raw: unknown, config: SanitizedConfig): Topic[] {
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  if (typeof text !== 'string' || text.trim() === '')
    throw badRequest('Name at least one topic: ?topics=<collection>,<collection>/<id>,globals/<slug>.', 'topics');
  if (text.length > MAX_TOPICS_LENGTH)
    throw badRequest(`The topics list is too long (at most ${config.realtime.maxTopics} topics).`, 'topics');
  const names = [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length > config.realtime.maxTopics)
    throw badRequest(`Too many topics: ${names.length} (at most ${config.realtime.maxTopics}).`, 'topics');
  return names.map((name) => topicOf(name, config));
}

function topicOf(name: string, config: SanitizedConfig): Topic {
  const parts = name.split('/');
  const unknown = () =>
    badRequest(
      `Unknown topic "${name.slice(0, 100)}": use <collection>, <collection>/<id> or globals/<slug>.`,
      'topics',
    );
  if (parts[0] === 'globals') {
    if (parts.length !== 2 || !config.globalsBySlug.has(parts[1])) throw unknown();
    return { name, kind: 'global', slug: parts[1], id: null };
  }
  if (parts.length > 2 || !config.collectionsBySlug.has(parts[0])) throw unknown();
  if (parts.length === 1) return { name, kind: 'collection', slug: parts[0], id: null };
  if (!/^[1-9]\d{0,15}$/.test(parts[1])) throw unknown();
  return { name, kind: 'collection', slug: parts[0], id: Number(parts[1]) };
}

/** The most specific of `topics` that `change` belongs to (a document's own topic before its collection's). */
export function topicFor(topics: readonly Topic[], change: LoggedChange): Topic | null {
  let match: Topic | null = null;
  for (const topic of topics) {
    if (topic.kind !== change.kind || topic.slug !== change.slug) continue;
    if (topic.id === change.docId) return topic;
    if (topic.id === null) match = topic;
  }
  return match;
}
