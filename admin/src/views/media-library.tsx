/**
 * The media collection as a library: upload by drop or picker (with progress), thumbnails, search, paging.
 * With folders (docs/media.md) it browses one folder at a time (`?folder=<id>`; the top shows the files in
 * no folder, a search looks everywhere) and uploads into the open folder; the folder bar is a lazy chunk.
 */
import { useRef, useState } from 'preact/hooks';
import type { CollectionConfig } from '../api.ts';
import { forgetChoices } from '../form/choice-labels.ts';
import { pluralLabel } from '../format.ts';
import { MediaResults, useMediaPage } from '../media/media-grid.tsx';
import { Uploader } from '../media/uploader.tsx';
import { updateQuery, type Location } from '../router.tsx';
import { Icon } from '../ui.tsx';
import { LazyView } from '../lazy.tsx';
import { TrashLink } from './trash-link.tsx';
import { t, tn } from '../i18n/i18n.ts';

const loadFolderBar = () => import('../media/folders.tsx');

export function MediaLibrary(props: { collection: CollectionConfig; location: Location }) {
  const q = props.location.query;
  const page = Math.max(1, Number(q.get('page')) || 1);
  const search = q.get('q') ?? '';
  const folders = Boolean(props.collection.folders);
  const open = folders && /^\d+$/.test(q.get('folder') ?? '') ? Number(q.get('folder')) : null;
  const [draft, setDraft] = useState(search);
  const [version, setVersion] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { data, error } = useMediaPage(
    page,
    search,
    version,
    24,
    !folders || search ? '' : open === null ? 'none' : String(open),
  );

  const setQuery = (changes: Record<string, string | null>) => updateQuery(q, changes);
  const reload = () => {
    forgetChoices('media');
    setVersion((v) => v + 1);
  };

  return (
    <section>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>{pluralLabel(props.collection)}</h1>
          {data && <span class="muted">{tn('media.files', data.totalDocs)}</span>}
        </div>
        <div class="actions">
          <TrashLink collection={props.collection} />
        </div>
      </div>
      <Uploader onUploaded={reload} fields={open === null ? undefined : { folder: String(open) }} />
      <div class="toolbar">
        <div class="search">
          <Icon name="search" />
          <input
            type="search"
            aria-label={t('media.searchLabel')}
            placeholder={t('media.searchPlaceholder')}
            value={draft}
            onInput={(e) => {
              const v = e.currentTarget.value;
              setDraft(v);
              clearTimeout(timer.current);
              timer.current = setTimeout(() => setQuery({ q: v, page: null }), 250);
            }}
          />
        </div>
      </div>
      {folders && (
        <LazyView
          load={loadFolderBar}
          props={{
            folder: open,
            go: (id: number | null) => setQuery({ folder: id === null ? null : String(id), page: null }),
            onMoved: reload,
          }}
        />
      )}
      <MediaResults
        data={data}
        error={error}
        page={page}
        setPage={(p) => setQuery({ page: String(p) })}
        draggable={folders}
        emptyText={search ? t('media.noMatch') : folders ? t('media.emptyFolder') : t('media.noneYet')}
      />
    </section>
  );
}
