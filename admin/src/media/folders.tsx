/**
 * Media folders in the library (docs/media.md, "Folders"), a lazy chunk: the path to the open folder, its
 * sub-folders as tiles, "New folder", and drop targets: a media card (or a folder tile) dropped on a folder
 * or on a step of the path moves there. The picker's folder filter lives here too. Folders are documents
 * of `payload-folders` (`{ name, folder }`); a media document's `folder` names its folder.
 */
import { useState } from 'preact/hooks';
import { docs, type Doc } from '../api.ts';
import { message } from '../format.ts';
import { ErrorBox } from '../ui/error-box.tsx';
import { Icon } from '../ui.tsx';
import { toast } from '../ui/toasts.tsx';
import { t } from '../i18n/i18n.ts';
import { useLoad } from '../use-load.ts';

export const FOLDERS = 'payload-folders';
/** What a drag carries: `media:<id>` or `folder:<id>`. */
export const DRAG_TYPE = 'application/x-cms-item';

type Folder = { id: number; name: string; parent: number | null };

const parentOf = (d: Doc) => {
  const f = d.folder as unknown;
  return f === null || f === undefined ? null : Number(typeof f === 'object' ? (f as Doc).id : f);
};

/** Every folder, a page of 100 (the API's most) at a time: a library has tens, not thousands. */
async function allFolders(): Promise<Folder[]> {
  const out: Folder[] = [];
  for (let page = 1; page <= 20; page++) {
    const r = await docs.list(FOLDERS, { limit: 100, page, sort: 'name', depth: 0 });
    out.push(...r.docs.map((d) => ({ id: Number(d.id), name: String(d.name ?? ''), parent: parentOf(d) })));
    if (!r.hasNextPage) break;
  }
  return out;
}

/** Every folder, reloaded when `version` changes. */
function useFolders(version: number): { folders: Folder[]; error: string | null } {
  const { data, error } = useLoad(allFolders, [version]);
  const folders = data ?? [];
  return { folders, error };
}

/** Root first: the folders from the top down to `id`. */
function pathTo(folders: Folder[], id: number | null): Folder[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const out: Folder[] = [];
  for (
    let at = id === null ? undefined : byId.get(id);
    at && out.length < 64;
    at = at.parent === null ? undefined : byId.get(at.parent)
  )
    out.unshift(at);
  return out;
}

/** Moves what was dragged (`media:<id>` or `folder:<id>`) into `target` (null: the top level). */
async function moveDropped(data: string, target: number | null): Promise<boolean> {
  const [kind, id] = data.split(':');
  if (!id || (kind === 'folder' && Number(id) === target)) return false;
  await docs.update(kind === 'folder' ? FOLDERS : 'media', id, { folder: target });
  return true;
}

function dropProps(target: number | null, onMoved: () => void, setOver: (over: boolean) => void) {
  return {
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes(DRAG_TYPE)) return;
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      const data = e.dataTransfer?.getData(DRAG_TYPE) ?? '';
      moveDropped(data, target).then(
        (moved) => moved && (toast(t('media.moved')), onMoved()),
        (err) => toast(message(err), 'error'),
      );
    },
  };
}

function Crumb(props: {
  folder: Folder | null;
  current: boolean;
  go: (id: number | null) => void;
  onMoved: () => void;
}) {
  const [over, setOver] = useState(false);
  const id = props.folder?.id ?? null;
  return (
    <li class={over ? 'drop-over' : undefined} {...dropProps(id, props.onMoved, setOver)}>
      <button type="button" class="link" aria-current={props.current ? 'page' : undefined} onClick={() => props.go(id)}>
        {props.folder ? props.folder.name : t('media.allMedia')}
      </button>
    </li>
  );
}

function FolderTile(props: { folder: Folder; go: (id: number) => void; onMoved: () => void }) {
  const [over, setOver] = useState(false);
  const f = props.folder;
  return (
    <li {...dropProps(f.id, props.onMoved, setOver)}>
      <button
        type="button"
        class={`folder-tile ${over ? 'drop-over' : ''}`}
        draggable
        data-folder={f.name}
        onDragStart={(e) => e.dataTransfer?.setData(DRAG_TYPE, `folder:${f.id}`)}
        onClick={() => props.go(f.id)}
      >
        <Icon name="folder" size={18} />
        <span class="truncate">{f.name}</span>
      </button>
    </li>
  );
}

/** The library's folder bar: path, sub-folders, new folder. `folder` is the open one (null: the top). */
export default function FolderBar(props: {
  folder: number | null;
  go: (id: number | null) => void;
  onMoved: () => void;
}) {
  const [version, setVersion] = useState(0);
  const { folders, error } = useFolders(version);
  const [naming, setNaming] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refresh = () => {
    setVersion((v) => v + 1);
    props.onMoved();
  };
  const path = pathTo(folders, props.folder);
  const children = folders.filter((f) => f.parent === props.folder);

  const create = async (e: Event) => {
    e.preventDefault();
    if (!naming?.trim()) return;
    try {
      await docs.create(FOLDERS, { name: naming.trim(), folder: props.folder });
      setNaming(null);
      setFailure(null);
      setVersion((v) => v + 1);
    } catch (err) {
      setFailure(message(err));
    }
  };

  return (
    <div class="folder-bar">
      <ErrorBox error={error ?? failure} />
      <div class="folder-head">
        <ol class="folder-path" aria-label={t('media.folder')}>
          <Crumb folder={null} current={props.folder === null} go={props.go} onMoved={refresh} />
          {path.map((f, i) => (
            <Crumb key={f.id} folder={f} current={i === path.length - 1} go={props.go} onMoved={refresh} />
          ))}
        </ol>
        {naming === null ? (
          <button type="button" onClick={() => setNaming('')}>
            <Icon name="plus" /> {t('media.newFolder')}
          </button>
        ) : (
          <form class="folder-new" onSubmit={create}>
            <input
              aria-label={t('media.folderName')}
              placeholder={t('media.folderName')}
              value={naming}
              autoFocus
              onInput={(e) => setNaming(e.currentTarget.value)}
              onKeyDown={(e) => e.key === 'Escape' && setNaming(null)}
            />
            <button type="submit" class="primary">
              {t('media.create')}
            </button>
          </form>
        )}
      </div>
      {children.length > 0 && (
        <ul class="folder-tiles" aria-label={t('media.folders')}>
          {children.map((f) => (
            <FolderTile key={f.id} folder={f} go={props.go} onMoved={refresh} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** The picker's filter: every folder by its path; '' is every file, 'none' the files in no folder. */
export function FolderSelect(props: { value: string; onChange: (value: string) => void }) {
  const { folders } = useFolders(0);
  const label = (f: Folder) =>
    pathTo(folders, f.id)
      .map((x) => x.name)
      .join(' / ');
  const options = folders.map((f) => ({ id: f.id, label: label(f) })).sort((a, b) => a.label.localeCompare(b.label));
  return (
    <select aria-label={t('media.folder')} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
      <option value="">{t('media.allFolders')}</option>
      <option value="none">{t('media.noFolder')}</option>
      {options.map((o) => (
        <option key={o.id} value={String(o.id)}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
