/**
 * One release: its status and time, its items, and what can be done with it now: publish (the problems
 * found are shown against their items, and nothing is published), schedule and unschedule, preview on the
 * site, revert once published, delete while not published.
 */
import { useState } from 'preact/hooks';
import { ApiError, preview } from '../../api.ts';
import { findCollection, useApp } from '../../app-context.ts';
import { exactTime, message } from '../../format.ts';
import { itemTarget, releases, type Release, type ReleaseError, type ReleaseItem } from './release-api.ts';
import { Link, navigate } from '../../router.tsx';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toasts.tsx';
import { t, tn } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';
import { ReleaseItems } from './release-items.tsx';
import { ReleaseSchedule } from './release-schedule.tsx';
import { ReleaseStatusBadge } from './release-status.tsx';

const releasePath = (id: number | string) => `/releases/${encodeURIComponent(String(id))}`;

/** The 409 of a publish names the items it refused; any other failure is one message. */
const itemErrors = (e: unknown): ReleaseError[] | null =>
  e instanceof ApiError && e.status === 409 && e.errors.some((x) => 'item' in x) ? (e.errors as ReleaseError[]) : null;

export default function ReleasePage(props: { id: string }) {
  const { config, locale } = useApp();
  const loaded = useLoad(() => releases.get(props.id), [props.id]);
  const [refused, setRefused] = useState<ReleaseError[] | null>(null);
  const [busy, setBusy] = useState(false);
  const r = loaded.data;

  const run = async (work: () => Promise<{ doc: Release }>, done: string) => {
    setBusy(true);
    try {
      const { doc } = await work();
      loaded.setData(doc);
      setRefused(null);
      toast(done);
    } catch (e) {
      const errors = itemErrors(e);
      setRefused(errors);
      toast(errors ? t('releases.refused') : message(e), 'error');
    } finally {
      setBusy(false);
    }
  };

  if (loaded.error && !r)
    return (
      <section>
        <h1 tabIndex={-1}>{t('releases.title')}</h1>
        <ErrorBox error={loaded.error} />
      </section>
    );
  if (!r) return <Spinner />;

  const errors = refused ?? r.errors ?? [];
  const changeable = r.status === 'open' || r.status === 'failed';
  const previewable = r.items.find((item) =>
    item.global
      ? config.globals.find((g) => g.slug === item.global)?.livePreview
      : findCollection(config, item.collection)?.livePreview,
  );

  const publish = async () => {
    const ok = await confirmDialog({
      title: t('releases.publishTitle'),
      message: tn('releases.publishMessage', r.items.length, { title: r.title }),
      confirm: t('releases.publishIt'),
    });
    if (ok) await run(() => releases.publish(r.id), t('releases.publishedNote'));
  };

  const revert = async () => {
    const ok = await confirmDialog({
      title: t('releases.revertTitle'),
      message: t('releases.revertMessage', { title: r.title }),
      confirm: t('releases.revert'),
    });
    if (!ok) return;
    try {
      const { doc } = await releases.revert(r.id);
      toast(t('releases.revertCreated'));
      await navigate(releasePath(doc.id));
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  const remove = async () => {
    const ok = await confirmDialog({
      title: t('releases.deleteTitle'),
      message: t('releases.deleteMessage', { title: r.title }),
      confirm: t('releases.delete'),
      danger: true,
    });
    if (!ok) return;
    try {
      await releases.remove(r.id);
      toast(t('releases.deleted'));
      await navigate('/releases');
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  // The site's page of the first item it can show, with the release's token instead of the document's.
  // The window opens at the click (a window opened after an answer arrives is blocked as a popup).
  const openPreview = async (item: ReleaseItem) => {
    const win = window.open('about:blank', '_blank');
    try {
      const [{ token }, page] = await Promise.all([releases.preview(r.id), preview(itemTarget(item), {}, locale)]);
      const url = new URL(page.url, location.href);
      url.searchParams.set('release', String(r.id));
      url.searchParams.set('preview', token);
      if (win) win.location.href = url.href;
    } catch (e) {
      win?.close();
      toast(message(e), 'error');
    }
  };

  const repin = (item: ReleaseItem) =>
    run(() => releases.addItem(r.id, itemTarget(item), item.action), t('releases.repinned'));
  const removeItem = (item: ReleaseItem) => run(() => releases.removeItem(r.id, item.id), t('releases.removed'));

  return (
    <section class="release">
      <header class="edit-head">
        <div class="edit-title">
          <div class="breadcrumb muted">
            <Link to="/releases">{t('releases.title')}</Link>
          </div>
          <h1 tabIndex={-1}>
            {r.title}
            <ReleaseStatusBadge status={r.status} />
          </h1>
        </div>
        <div class="actions">
          {previewable && r.status !== 'published' && (
            <button type="button" onClick={() => void openPreview(previewable)}>
              {t('releases.preview')}
            </button>
          )}
          {r.status === 'published' && (
            <button type="button" onClick={() => void revert()}>
              {t('releases.revert')}
            </button>
          )}
          {r.status !== 'published' && (
            <button type="button" class="ghost danger-text" onClick={() => void remove()} disabled={busy}>
              {t('releases.delete')}
            </button>
          )}
          {r.status !== 'published' && (
            <button
              type="button"
              class="primary"
              onClick={() => void publish()}
              disabled={busy || r.items.length === 0}
            >
              {t('releases.publishNow')}
            </button>
          )}
        </div>
      </header>
      {r.description && <p>{r.description}</p>}
      <dl class="facts release-facts">
        {r.publishedAt && (
          <div>
            <dt>{t('releases.publishedAt')}</dt>
            <dd>{exactTime(r.publishedAt)}</dd>
          </div>
        )}
        {r.revertOf != null && (
          <div>
            <dt>{t('releases.revertOf')}</dt>
            <dd>
              <Link to={releasePath(r.revertOf)}>#{r.revertOf}</Link>
            </dd>
          </div>
        )}
      </dl>
      {errors.length > 0 && (
        <div class="alert error" role="alert">
          {tn('releases.problems', errors.filter((e) => e.item != null).length || errors.length)}
          {errors
            .filter((e) => e.item == null)
            .map((e, i) => (
              <div key={i}>{e.message}</div>
            ))}
        </div>
      )}
      <h2>{tn('releases.itemCount', r.items.length)}</h2>
      <ReleaseItems release={r} errors={errors} busy={busy} onRepin={repin} onRemove={removeItem} />
      {(r.status === 'scheduled' || changeable) && (
        <ReleaseSchedule
          release={r}
          busy={busy}
          onSchedule={(at) => run(() => releases.schedule(r.id, at), t('releases.scheduledNote'))}
          onUnschedule={() => run(() => releases.unschedule(r.id), t('releases.unscheduledNote'))}
        />
      )}
    </section>
  );
}
