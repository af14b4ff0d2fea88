/**
 * The version history of a document or global with drafts: newest first, each openable read-only and
 * comparable (version-viewer.tsx, loaded on first use), restorable live or as the pending draft.
 */
import type { FunctionComponent } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, versions, type Doc, type Field, type Version, type VersionOwner } from '../../api.ts';
import { isAdmin, useApp } from '../../app-context.ts';
import { Link } from '../../router.tsx';
import { changedFields } from '../../form/values.ts';
import { authorName, exactTime, formatDate, message } from '../../format.ts';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { Icon } from '../../ui.tsx';
import { toast } from '../../ui/toasts.tsx';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';
import { statusText } from './version-status.ts';

type Viewer = typeof import('./version-viewer.tsx').default;

/** The audit log filtered to this document or global. */
const auditLink = (owner: VersionOwner) =>
  'global' in owner
    ? `/operations/audit?collection=globals/${encodeURIComponent(owner.global)}`
    : `/operations/audit?collection=${encodeURIComponent(owner.collection)}&document=${owner.id}`;

export function VersionsPanel(props: {
  owner: VersionOwner;
  fields: Field[];
  reloadKey: unknown;
  dirty: boolean;
  /** What the form was loaded with (the pending draft): "Restore as draft" sends what differs from it. */
  current: Doc;
  saveDraft: (data: Doc) => Promise<Doc>;
  onRestored: (doc: Doc) => void;
  /** Someone else holds the lock: versions can be read, not restored. */
  readOnly?: boolean;
}) {
  const { locale, config, user } = useApp();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<{ version: Version; Viewer: Viewer } | null>(null);
  const ownerKey = JSON.stringify(props.owner);

  // A server without versions for this owner answers 404 or 405: the panel says so instead of an error.
  const loaded = useLoad(
    () =>
      versions.list(props.owner, page, locale).catch((e) => {
        if (e instanceof ApiError && (e.status === 404 || e.status === 405)) return 'unavailable' as const;
        throw e;
      }),
    [ownerKey, page, props.reloadKey, locale],
  );
  const unavailable = loaded.data === 'unavailable';
  const data = loaded.data === 'unavailable' ? null : loaded.data;
  const { error } = loaded;

  const view = async (v: Version) => {
    try {
      const { default: Viewer } = await import('./version-viewer.tsx');
      setOpen({ version: v, Viewer });
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  const restore = async (v: Version, asDraft: boolean) => {
    // The question replaces the viewer rather than stacking a second modal on it.
    setOpen(null);
    const outcome = asDraft
      ? 'versions.outcomeDraftKeep'
      : v.status === 'published'
        ? 'versions.outcomePublished'
        : 'versions.outcomeDraft';
    const ok = await confirmDialog({
      title: asDraft ? t('versions.restoreDraftTitle') : t('versions.restoreTitle'),
      message:
        (outcome === 'versions.outcomeDraftKeep'
          ? t('versions.outcomeDraftKeep', { date: formatDate(v.createdAt) })
          : outcome === 'versions.outcomePublished'
            ? t('versions.outcomePublished', { date: formatDate(v.createdAt) })
            : t('versions.outcomeDraft', { date: formatDate(v.createdAt) })) +
        (props.dirty ? ' ' + t('versions.unsavedLost') : ''),
      confirm: asDraft ? t('versions.restoreDraft') : t('versions.restore'),
    });
    if (!ok) return;
    try {
      let doc: Doc;
      if (asDraft) {
        const data = changedFields(props.fields, { ...props.current, ...v.version }, props.current);
        if (Object.keys(data).length === 0) return toast(t('versions.same'), 'info');
        doc = await props.saveDraft(data);
      } else doc = (await versions.restore(props.owner, v.id)).doc;
      toast(asDraft ? t('versions.restoredDraft') : t('versions.restored'));
      props.onRestored(doc);
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  const Viewer: FunctionComponent<Parameters<Viewer>[0]> | null = open?.Viewer ?? null;
  return (
    <section class="panel" aria-labelledby="versions-title">
      <h2 id="versions-title" class="panel-title">
        <Icon name="clock" /> {t('versions.title')}
      </h2>
      {unavailable ? (
        <p class="muted small">{t('versions.unavailable')}</p>
      ) : error ? (
        <p class="field-error">{error}</p>
      ) : !data ? (
        <p class="muted small">{t('ui.loading')}</p>
      ) : data.docs.length === 0 ? (
        <p class="muted small">{t('versions.none')}</p>
      ) : (
        <>
          <ol class="versions">
            {data.docs.map((v) => (
              <li key={String(v.id)}>
                <div>
                  <button
                    type="button"
                    class="link small"
                    title={exactTime(v.updatedAt ?? v.createdAt)}
                    onClick={() => void view(v)}
                  >
                    {formatDate(v.updatedAt ?? v.createdAt)}
                  </button>
                  <div class="muted small version-by">
                    {t('versions.by', { name: authorName(v.author) })} ·{' '}
                    <time dateTime={String(v.updatedAt ?? v.createdAt ?? '')}>
                      {exactTime(v.updatedAt ?? v.createdAt)}
                    </time>
                  </div>
                  <div>
                    <span class={`badge ${v.status === 'published' ? 'ok' : 'draft'}`}>{statusText(v.status)}</span>
                    {v.latest && <span class="badge">{t('versions.current')}</span>}
                  </div>
                </div>
                {!v.latest && !props.readOnly && (
                  <div class="version-actions">
                    <button
                      type="button"
                      class="small ghost"
                      onClick={() => void restore(v, true)}
                      aria-label={t('versions.restoreDraftOf', { date: formatDate(v.createdAt) })}
                    >
                      {t('versions.asDraft')}
                    </button>
                    <button type="button" class="small" onClick={() => void restore(v, false)}>
                      {t('versions.restore')}
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ol>
          {data.totalPages > 1 && (
            <div class="pager small">
              <button type="button" disabled={!data.hasPrevPage} onClick={() => setPage(page - 1)}>
                {t('versions.newer')}
              </button>
              <button type="button" disabled={!data.hasNextPage} onClick={() => setPage(page + 1)}>
                {t('versions.older')}
              </button>
            </div>
          )}
        </>
      )}
      {config.features?.audit && isAdmin(user) && (
        <p class="small">
          <Link to={auditLink(props.owner)}>{t('versions.auditLink')}</Link>
        </p>
      )}
      {open && Viewer && (
        <Viewer
          fields={props.fields}
          version={open.version}
          others={data?.docs ?? []}
          onClose={() => setOpen(null)}
          onRestore={props.readOnly ? null : (v, asDraft) => void restore(v, asDraft)}
        />
      )}
    </section>
  );
}
