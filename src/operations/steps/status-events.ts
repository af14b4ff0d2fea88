/**
 * Which events a change sends besides create/update (docs/webhooks.md): publish when status became
 * published, unpublish when it left. Publishing a pending draft over an already published document is
 * a publish too: the draft's status became published.
 */
import type { ChangeEventType } from '../../events/change-events.ts';

type Doc = Record<string, unknown> | null;

export function statusEvents(before: Doc, after: Doc, publishedDraft = false): ChangeEventType[] {
  const was = before?.status === 'published';
  const is = after?.status === 'published';
  if (is && (!was || publishedDraft)) return ['publish'];
  if (was && !is) return ['unpublish'];
  return [];
}
