/** Which configured webhook targets want an event (docs/webhooks.md): an absent filter means all, `[]` means none. */
import type { WebhookConfig } from '../config/types.ts';
import type { ChangeEvent } from '../events/change-events.ts';

export type MatchedTarget = { index: number; target: WebhookConfig };

export function targetWants(
  target: WebhookConfig,
  event: Pick<ChangeEvent, 'type' | 'collection' | 'global'>,
): boolean {
  if (target.events && !target.events.includes(event.type)) return false;
  if (event.collection !== undefined) return !target.collections || target.collections.includes(event.collection);
  if (event.global !== undefined) return !target.globals || target.globals.includes(event.global);
  return false;
}

export function matchingTargets(
  targets: WebhookConfig[],
  event: Pick<ChangeEvent, 'type' | 'collection' | 'global'>,
): MatchedTarget[] {
  const out: MatchedTarget[] = [];
  targets.forEach((target, index) => {
    if (targetWants(target, event)) out.push({ index, target });
  });
  return out;
}
