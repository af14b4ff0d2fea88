/** The releases, newest first, each with its status, its time and how many items it holds; and a new one. */
import { useState } from 'preact/hooks';
import { releases } from './release-api.ts';
import { exactTime, formatDate, message } from '../../format.ts';
import { Link, navigate, updateQuery, type Location } from '../../router.tsx';
import { t, tn } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';
import { OpsTable } from '../ops/ops-table.tsx';
import { ReleaseStatusBadge, releaseTime } from './release-status.tsx';

const PAGE_SIZE = 20;

function CreateRelease() {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async () => {
    if (!title.trim()) return setError(t('releases.titleNeeded'));
    setBusy(true);
    try {
      const { doc } = await releases.create({ title: title.trim() });
      await navigate(`/releases/${encodeURIComponent(String(doc.id))}`);
    } catch (e) {
      setError(message(e));
      setBusy(false);
    }
  };
  return (
    <form
      class="release-create"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <label class="field-label" for="release-title">
        {t('releases.newTitle')}
      </label>
      <div class="release-create-row">
        <input
          id="release-title"
          value={title}
          maxLength={200}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'release-title-error' : undefined}
          onInput={(e) => {
            setTitle(e.currentTarget.value);
            setError(null);
          }}
        />
        <button type="submit" class="primary" disabled={busy}>
          {t('releases.create')}
        </button>
      </div>
      {error && (
        <p id="release-title-error" class="field-error">
          {error}
        </p>
      )}
    </form>
  );
}

export default function ReleasesView(props: { location: Location }) {
  const q = props.location.query;
  const page = Math.max(1, Number(q.get('page')) || 1);
  const loaded = useLoad(() => releases.list({ page, limit: PAGE_SIZE }), [page]);
  return (
    <section>
      <h1 tabIndex={-1}>{t('releases.title')}</h1>
      <p class="muted">{t('releases.intro')}</p>
      <CreateRelease />
      <OpsTable
        list={loaded.data}
        error={loaded.error}
        empty={t('releases.none')}
        headers={[t('releases.release'), t('common.status'), t('releases.when'), t('releases.items')]}
        class="releases-table"
        rowKey={(r) => String(r.id)}
        cells={(r) => {
          const when = releaseTime(r);
          return (
            <>
              <td>
                <Link to={`/releases/${encodeURIComponent(String(r.id))}`}>{r.title}</Link>
              </td>
              <td>
                <ReleaseStatusBadge status={r.status} />
              </td>
              <td>
                {when ? (
                  <time dateTime={when} title={exactTime(when)}>
                    {formatDate(when)}
                  </time>
                ) : (
                  '—'
                )}
              </td>
              <td>{tn('releases.itemCount', r.items.length)}</td>
            </>
          );
        }}
        setPage={(n) => updateQuery(q, { page: String(n) })}
      />
    </section>
  );
}
