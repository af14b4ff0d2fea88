/**
 * `upload` field: a media document by id. Shows the chosen file; pick one from the library or upload a new one,
 * or edit the chosen one's fields (alt text…) in the drawer without leaving the form.
 */
import { useEffect, useState } from 'preact/hooks';
import { docs, type Doc } from '../api.ts';
import { docLabel, formatBytes, message } from '../format.ts';
import { MediaResults, MediaThumb, useMediaPage } from '../media/media-grid.tsx';
import { Uploader } from '../media/uploader.tsx';
import { Link } from '../router.tsx';
import { Icon } from '../ui.tsx';
import { Modal } from '../ui/modal.tsx';
import { useControlProps } from './fields.tsx';
import type { FieldProps } from './form-context.ts';
import { findCollection, useApp } from '../app-context.ts';
import { t } from '../i18n/i18n.ts';
import { RelatedDrawer } from './relationship-field.tsx';
import { LazyView } from '../lazy.tsx';

const loadFolderSelect = () => import('../media/folders.tsx').then((m) => ({ default: m.FolderSelect }));

const idOf = (v: unknown) =>
  v === null || v === undefined || v === ''
    ? null
    : typeof v === 'object'
      ? ((v as Doc).id ?? null)
      : (v as number | string);

export function UploadField(props: FieldProps<number | string | null>) {
  const attrs = useControlProps(props);
  const id = idOf(props.value);
  const [doc, setDoc] = useState<Doc | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [editing, setEditing] = useState(false);
  const { config } = useApp();
  const target = findCollection(config, typeof props.field.relationTo === 'string' ? props.field.relationTo : 'media');

  useEffect(() => {
    setMissing(null);
    if (id === null) return setDoc(null);
    if (doc && String(doc.id) === String(id)) return;
    let live = true;
    docs
      .get(typeof props.field.relationTo === 'string' ? props.field.relationTo : 'media', id)
      .then((d) => live && setDoc(d))
      .catch((e) => live && (setDoc(null), setMissing(message(e))));
    return () => {
      live = false;
    };
  }, [id]);

  const choose = (d: Doc) => {
    setDoc(d);
    props.onChange(d.id as number);
    setPicking(false);
  };

  return (
    <div class="upload-field">
      {id !== null ? (
        <div class="upload-chosen">
          <MediaThumb doc={doc} />
          <div class="upload-meta">
            {doc ? (
              <>
                <Link to={`/collections/media/${doc.id}`} class="truncate">
                  {String(doc.originalName ?? doc.filename ?? `#${doc.id}`)}
                </Link>
                <span class="muted small">
                  {[
                    doc.mimeType,
                    typeof doc.width === 'number' ? `${doc.width}×${doc.height}` : '',
                    formatBytes(doc.filesize),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </>
            ) : (
              <span class="muted">{missing ? `#${id} (${missing})` : t('ui.loading')}</span>
            )}
          </div>
          <div class="upload-actions">
            {doc && target && (
              <button
                type="button"
                disabled={attrs.disabled}
                aria-label={t('drawer.editChip', { label: docLabel(target, doc) })}
                onClick={() => setEditing(true)}
              >
                {t('drawer.edit')}
              </button>
            )}
            <button
              type="button"
              id={attrs.id}
              disabled={attrs.disabled}
              aria-describedby={attrs['aria-describedby']}
              onClick={() => setPicking(true)}
            >
              {t('fields.replace')}
            </button>
            <button
              type="button"
              class="icon-button"
              disabled={attrs.disabled}
              aria-label={t('fields.removeFile')}
              onClick={() => props.onChange(null)}
            >
              <Icon name="x" />
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          class="upload-empty"
          id={attrs.id}
          disabled={attrs.disabled}
          aria-describedby={attrs['aria-describedby']}
          aria-invalid={attrs['aria-invalid']}
          onClick={() => setPicking(true)}
        >
          <Icon name="image" size={20} />
          <span>{t('fields.chooseFile')}</span>
        </button>
      )}
      {editing && doc && target && (
        <RelatedDrawer
          collection={target}
          id={String(doc.id)}
          onClose={() => setEditing(false)}
          onSaved={(d) => (setEditing(false), setDoc(d))}
        />
      )}
      {picking && (
        <MediaPicker selected={id === null ? null : String(id)} onPick={choose} onClose={() => setPicking(false)} />
      )}
    </div>
  );
}

/** The media library in a dialog: upload a file or pick one (thumbnails, search, pages). */
export function MediaPicker(props: { selected: string | null; onPick: (d: Doc) => void; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [folder, setFolder] = useState('');
  const { config } = useApp();
  const folders = config.collections.some((c) => c.builtIn === 'media' && c.folders);
  const { data, error } = useMediaPage(page, search, 0, 12, folder);
  return (
    <Modal title={t('fields.chooseAFile')} onClose={props.onClose} wide>
      <Uploader
        compact
        multiple={false}
        onUploaded={props.onPick}
        fields={/^\d+$/.test(folder) ? { folder } : undefined}
      />
      <div class="picker-search">
        <Icon name="search" />
        <input
          type="search"
          aria-label={t('fields.searchMedia')}
          placeholder={t('fields.searchFileName')}
          value={search}
          onInput={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
      </div>
      {folders && (
        <div class="picker-folder">
          <LazyView
            load={loadFolderSelect}
            props={{ value: folder, onChange: (v: string) => (setFolder(v), setPage(1)) }}
          />
        </div>
      )}
      <MediaResults
        data={data}
        error={error}
        page={page}
        setPage={setPage}
        onPick={props.onPick}
        selected={props.selected}
        emptyText={search ? t('fields.noFileMatch') : t('fields.noFiles')}
      />
    </Modal>
  );
}
