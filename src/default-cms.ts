/** The instance the server-side helpers (http/user-helpers.ts) read when none is passed: the last one started in this process. */
import type { CMS } from './cms.ts';

let current: CMS | null = null;

export function setDefaultCMS(cms: CMS | null): void {
  current = cms;
}

export function defaultCMS(): CMS | null {
  return current;
}
