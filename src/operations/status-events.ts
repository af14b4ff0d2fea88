/** Which events a change sends besides create/update (SPEC "Event kinds"): publish when status became published, unpublish when it left. */
import type { ChangeEventType } from '../events/change-events.ts';

type Doc = Record<string, unknown> | null;

export function statusEvents(before: Doc, after: Doc): ChangeEventType[] {
  const was = before?.status === 'published';
  const is = after?.status === 'published';
  if (is && !was) return ['publish'];
  if (was && !is) return ['unpublish'];
  return [];
}
