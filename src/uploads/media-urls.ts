/**
 * PLACEHOLDER until the media branch lands: present.ts imports `decorateMedia`, which the media branch
 * writes (file URLs and sizes on media documents). This stand-in returns the document unchanged so the
 * suite can run on the drafts branch; on merge, take the media branch's file.
 */
import type { CMS } from '../cms.ts';

export function decorateMedia(_cms: CMS, doc: Record<string, unknown>): Record<string, unknown> {
  return doc;
}
