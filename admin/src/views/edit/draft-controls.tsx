import { drafts, type Doc, type VersionOwner } from '../../api.ts';
import { message } from '../../format.ts';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toasts.tsx';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';

/** The status of what is live (the form shows the pending draft), read again whenever `doc` changes. */
export function useLiveStatus(enabled: boolean, doc: Doc | null, readLive: () => Promise<Doc>): string | null {
  const shown = enabled && doc !== null;
  const live = useLoad(() => (shown ? readLive().catch(() => null) : undefined), [doc]).data;
  const status = shown && typeof live?.status === 'string' ? live.status : null;
  return status;
}

export type SaveMode = 'save' | 'draft' | 'publish';

export function DraftButtons(props: {
  owner: VersionOwner | null;
  live: string | null;
  draft: string | null;
  busy: boolean;
  dirty: boolean;
  /** Someone else holds the lock: every action is off. */
  readOnly?: boolean;
  save: (mode: SaveMode) => void;
  /** After unpublish or discard: the document to show now. */
  onChanged: (doc: Doc) => void;
}) {
  const { owner } = props;
  const published = (props.live ?? props.draft) === 'published';
  const pending = published && props.draft === 'draft';
  const off = props.busy || Boolean(props.readOnly);
  const act = async (kind: 'unpublish' | 'discard') => {
    if (!owner || props.readOnly) return;
    // Both change what is stored at once (unpublishing takes the live content offline): ask first.
    const ok = await confirmDialog(
      kind === 'discard'
        ? {
            title: t('drafts.discardTitle'),
            message: t('drafts.discardMessage') + (props.dirty ? ' ' + t('drafts.unsavedLost') : ''),
            confirm: t('drafts.discard'),
            danger: true,
          }
        : {
            title: t('drafts.unpublishTitle'),
            message: t('drafts.unpublishMessage'),
            confirm: t('drafts.unpublish'),
            danger: true,
          },
    );
    if (!ok) return;
    try {
      const r = kind === 'unpublish' ? await drafts.unpublish(owner) : await drafts.discard(owner);
      props.onChanged(r.doc);
      toast(kind === 'unpublish' ? t('drafts.unpublished') : t('drafts.discarded'));
    } catch (e) {
      toast(message(e), 'error');
    }
  };
  return (
    <>
      {owner && pending && (
        <button type="button" class="ghost" onClick={() => void act('discard')} disabled={off}>
          {t('drafts.discard')}
        </button>
      )}
      {owner && published && (
        <button type="button" class="ghost" onClick={() => void act('unpublish')} disabled={off}>
          {t('drafts.unpublish')}
        </button>
      )}
      <span class="save-actions">
        <button type="button" onClick={() => props.save('draft')} disabled={off}>
          {t('drafts.saveDraft')}
        </button>
        <button type="button" class="primary" onClick={() => props.save('publish')} disabled={off}>
          {published ? t('drafts.publishChanges') : t('drafts.publish')}
        </button>
      </span>
    </>
  );
}
