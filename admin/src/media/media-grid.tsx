/** Media documents as thumbnail cards, and the searchable, paged list behind them (library and picker). */
import { useState } from 'preact/hooks';
import { docs, type Doc, type ListResult } from '../api.ts';
import { formatBytes } from '../format.ts';
import { Link } from '../router.tsx';
import { ErrorBox } from '../ui/error-box.tsx';
import { Icon } from '../ui.tsx';
import { Pager } from '../ui/pager.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { thumbnailURL } from '../upload.ts';
import { useLoad } from '../use-load.ts';

export function MediaThumb(props: { doc: Doc | null | undefined; size?: 'small' | 'large' }) {
  const url = thumbnailURL(props.doc);
  const [broken, setBroken] = useState(false);
  const ext = typeof props.doc?.filename === 'string' ? props.doc.filename.split('.').pop()?.toUpperCase() : '';
  return (
    <div class={`thumb ${props.size ?? ''}`}>
      {url && !broken ? (
        <img
          src={url}
          alt={typeof props.doc?.alt === 'string' ? props.doc.alt : ''}
          loading="lazy"
          onError={() => setBroken(true)}
        />
      ) : (
        <span class="thumb-file">
          <Icon name={url ? 'image' : 'file'} size={22} />
          {ext && <span>{ext}</span>}
        </span>
      )}
    </div>
  );
}

function CardBody(props: { doc: Doc }) {
  const d = props.doc;
  const dims = typeof d.width === 'number' && typeof d.height === 'number' ? `${d.width}×${d.height}` : '';
  return (
    <>
      <MediaThumb doc={d} />
      <span class="media-name truncate" title={String(d.filename ?? '')}>
        {String(d.originalName ?? d.filename ?? `#${d.id}`)}
      </span>
      <span class="muted small">{[dims, formatBytes(d.filesize)].filter(Boolean).join(' · ')}</span>
    </>
  );
}

/** `draggable`: cards can be dropped on a folder (media/folders.tsx). */
export function MediaGrid(props: {
  docs: Doc[];
  onPick?: (doc: Doc) => void;
  selected?: string | null;
  draggable?: boolean;
}) {
  return (
    <ul class="media-grid">
      {props.docs.map((d) => (
        <li key={String(d.id)}>
          {props.onPick ? (
            <button
              type="button"
              class={`media-card ${props.selected === String(d.id) ? 'selected' : ''}`}
              aria-pressed={props.selected === String(d.id)}
              onClick={() => props.onPick!(d)}
            >
              <CardBody doc={d} />
            </button>
          ) : (
            <Link
              to={`/collections/media/${d.id}`}
              class="media-card"
              draggable={props.draggable}
              onDragStart={(e) => e.dataTransfer?.setData('application/x-cms-item', `media:${d.id}`)}
            >
              <CardBody doc={d} />
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Which folder to list: '' every file, 'none' files in no folder, else a folder's id. */
const folderWhere = (folder: string) =>
  folder === '' ? null : folder === 'none' ? { folder: { exists: false } } : { folder: { equals: Number(folder) } };

/** Loads a page of media, optionally filtered by file name and folder. `version` bumps force a reload. */
export function useMediaPage(page: number, search: string, version: number, limit = 24, folder = '') {
  return useLoad(() => {
    const byName = search.trim()
      ? { or: [{ originalName: { like: search.trim() } }, { filename: { like: search.trim() } }] }
      : null;
    const parts = [byName, folderWhere(folder)].filter((x) => x !== null);
    const where = parts.length > 1 ? { and: parts } : (parts[0] ?? undefined);
    return docs.list('media', { page, limit, sort: '-createdAt', where });
  }, [page, search, version, folder]);
}

export function MediaResults(props: {
  data: ListResult | null;
  error: string | null;
  page: number;
  setPage: (p: number) => void;
  onPick?: (d: Doc) => void;
  selected?: string | null;
  emptyText: string;
  draggable?: boolean;
}) {
  const { data, error } = props;
  if (error) return <ErrorBox error={error} />;
  if (!data) return <Spinner />;
  if (data.docs.length === 0) return <div class="empty">{props.emptyText}</div>;
  return (
    <>
      <MediaGrid docs={data.docs} onPick={props.onPick} selected={props.selected} draggable={props.draggable} />
      <Pager list={data} setPage={props.setPage} />
    </>
  );
}
