/**
 * A release's items: each document's title linked, what it is, the action, a "Changed since added" mark
 * with the difference between the pinned version and the current draft (the version viewer), "Use current
 * draft" to pin anew, Remove while the release is open, and the problems publishing found with it.
 */
import { useState } from 'preact/hooks';
import { versions, type Field, type Version } from '../../api.ts';
import { findCollection, useApp } from '../../app-context.ts';
import { fieldLabel, globalLabel, message, singularLabel } from '../../format.ts';
import { itemTarget, type Release, type ReleaseError, type ReleaseItem } from './release-api.ts';
import { Link } from '../../router.tsx';
import { toast } from '../../ui/toasts.tsx';
import { t } from '../../i18n/i18n.ts';
import { actionText } from './release-status.tsx';

type Viewer = typeof import('../edit/version-viewer.tsx').default;
/** `versions`: the newest first, then the pinned one (the viewer reads their order as newer / older). */
type Diff = { Viewer: Viewer; fields: Field[]; pinned: Version; versions: Version[] };

/** Where the item's document is edited, its kind in words and its fields. */
function useDescribe() {
  const { config } = useApp();
  return (item: ReleaseItem) => {
    if (item.global) {
      const g = config.globals.find((x) => x.slug === item.global);
      return {
        to: `/globals/${encodeURIComponent(item.global)}`,
        title: g ? globalLabel(g) : item.title,
        kind: t('dashboard.global'),
        fields: g?.fields ?? [],
      };
    }
    const c = findCollection(config, item.collection);
    return {
      to: `/collections/${encodeURIComponent(item.collection!)}/${encodeURIComponent(String(item.document))}`,
      title: item.title,
      kind: c ? singularLabel(c) : item.collection!,
      fields: c?.fields ?? [],
    };
  };
}

/** A problem in words, naming the field it is about (by its label) when it names one. */
function problemText(problem: ReleaseError, fields: Field[]): string {
  if (!problem.field) return problem.message;
  const top = problem.field.split('.')[0];
  const field = fields.find((f) => f.name === top);
  return `${field ? fieldLabel(field) : problem.field}: ${problem.message}`;
}

export function ReleaseItems(props: {
  release: Release;
  /** The problems found at the last publish, against their items. */
  errors: ReleaseError[];
  busy: boolean;
  onRepin: (item: ReleaseItem) => void;
  onRemove: (item: ReleaseItem) => void;
}) {
  const { release } = props;
  const describe = useDescribe();
  const [diff, setDiff] = useState<Diff | null>(null);
  const open = release.status === 'open';

  const showChanges = async (item: ReleaseItem) => {
    const owner = itemTarget(item);
    try {
      const [{ default: Viewer }, pinned, newest] = await Promise.all([
        import('../edit/version-viewer.tsx'),
        versions.get(owner, item.version!),
        versions.list(owner, 1),
      ]);
      setDiff({ Viewer, fields: describe(item).fields, pinned, versions: [...newest.docs.slice(0, 1), pinned] });
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  if (release.items.length === 0) return <p class="muted">{t('releases.noItems')}</p>;
  return (
    <>
      <ul class="release-items" aria-label={t('releases.items')}>
        {release.items.map((item) => {
          const about = describe(item);
          const problems = props.errors.filter((e) => String(e.item) === String(item.id));
          const errorId = `release-item-${item.id}-errors`;
          return (
            <li
              key={String(item.id)}
              class={problems.length ? 'has-error' : undefined}
              aria-describedby={problems.length ? errorId : undefined}
            >
              <div class="release-item-what">
                <Link to={about.to}>{about.title}</Link>
                <span class="muted small"> · {about.kind}</span>
                <div>
                  <span class={`badge ${item.action === 'publish' ? 'ok' : 'draft'}`}>{actionText(item.action)}</span>
                  {item.changedSinceAdded && <span class="badge scheduled">{t('releases.changed')}</span>}
                </div>
                {problems.length > 0 && (
                  <ul id={errorId} class="release-item-errors">
                    {problems.map((p, i) => (
                      <li key={i} class="field-error">
                        {problemText(p, about.fields)}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
              <div class="release-item-actions">
                {item.changedSinceAdded && item.version != null && (
                  <button
                    type="button"
                    class="small"
                    onClick={() => void showChanges(item)}
                    aria-label={t('releases.showChangesOf', { title: about.title })}
                  >
                    {t('releases.showChanges')}
                  </button>
                )}
                {open && item.changedSinceAdded && (
                  <button
                    type="button"
                    class="small"
                    disabled={props.busy}
                    onClick={() => props.onRepin(item)}
                    aria-label={t('releases.repinOf', { title: about.title })}
                  >
                    {t('releases.repin')}
                  </button>
                )}
                {open && (
                  <button
                    type="button"
                    class="small ghost danger-text"
                    disabled={props.busy}
                    onClick={() => props.onRemove(item)}
                    aria-label={t('releases.removeOf', { title: about.title })}
                  >
                    {t('releases.remove')}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {diff && (
        <diff.Viewer
          fields={diff.fields}
          version={diff.pinned}
          others={diff.versions}
          onClose={() => setDiff(null)}
          onRestore={null}
        />
      )}
    </>
  );
}
