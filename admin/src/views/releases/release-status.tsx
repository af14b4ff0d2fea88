/** A release's status and action in words, and the time that matters for it. */
import type { Release, ReleaseAction, ReleaseStatus } from './release-api.ts';
import { t } from '../../i18n/i18n.ts';

export function releaseStatusText(status: ReleaseStatus): string {
  if (status === 'scheduled') return t('releases.scheduled');
  if (status === 'published') return t('releases.published');
  if (status === 'failed') return t('releases.failed');
  return t('releases.open');
}

const BADGE: Record<ReleaseStatus, string> = { open: '', scheduled: 'scheduled', published: 'ok', failed: 'draft' };

export function ReleaseStatusBadge(props: { status: ReleaseStatus }) {
  return <span class={`badge ${BADGE[props.status]}`}>{releaseStatusText(props.status)}</span>;
}

export const actionText = (action: ReleaseAction) =>
  action === 'unpublish' ? t('releases.unpublish') : t('releases.publish');

/** When it went live, else when it is due. */
export const releaseTime = (r: Release): string | null => r.publishedAt ?? r.publishAt ?? null;
