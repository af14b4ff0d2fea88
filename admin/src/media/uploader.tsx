/** Drop zone + file picker + a queue of uploads, each with a real progress bar and, when done, alt text. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { docs, type Doc } from '../api.ts';
import { useApp } from '../app-context.ts';
import { formatBytes, message } from '../format.ts';
import { Icon } from '../ui.tsx';
import { toast } from '../ui/toasts.tsx';
import { acceptAttr, precheckUpload, thumbnailURL, uploadMedia } from '../upload.ts';
import { t } from '../i18n/i18n.ts';

type Item = {
  key: number;
  file: File;
  progress: number;
  state: 'uploading' | 'done' | 'error';
  error?: string;
  doc?: Doc;
  abort?: () => void;
  alt: string;
  altSaved?: boolean;
};

let seq = 0;
/** Finished uploads nobody is describing leave the queue this long after the last one of a batch ends. */
const CLEAR_AFTER_MS = 4000;
const untouched = (i: Item) => i.state === 'done' && !i.alt.trim();

/** `fields`: sent with every file (the open folder). */
export function Uploader(props: {
  onUploaded: (doc: Doc) => void;
  multiple?: boolean;
  compact?: boolean;
  fields?: Record<string, string>;
}) {
  const { config } = useApp();
  const limits = config.upload;
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const depth = useRef(0);

  const patch = (key: number, p: Partial<Item>) =>
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...p } : i)));
  const queueRef = useRef<HTMLUListElement>(null);
  const busy = items.some((i) => i.state === 'uploading');
  const finished = items.filter((i) => i.state !== 'uploading').length;

  // The queue is a progress report, not a place: once a batch is done it empties itself, keeping
  // errors and items whose alt text someone is typing (or the one holding the focus).
  useEffect(() => {
    if (busy || !items.some(untouched)) return;
    const timer = setTimeout(() => {
      const focused = queueRef.current?.querySelector(':focus-within');
      setItems((list) => list.filter((i) => !untouched(i) || focused?.getAttribute('data-key') === String(i.key)));
    }, CLEAR_AFTER_MS);
    return () => clearTimeout(timer);
  }, [busy, items]);

  const start = (files: File[]) => {
    const chosen = props.multiple === false ? files.slice(0, 1) : files;
    for (const file of chosen) {
      const key = ++seq;
      const refused = precheckUpload(file, limits);
      if (refused) {
        setItems((l) => [...l, { key, file, progress: 0, state: 'error', error: refused, alt: '' }]);
        continue;
      }
      const handle = uploadMedia(file, props.fields ?? {}, (f) => patch(key, { progress: f }));
      setItems((l) => [...l, { key, file, progress: 0, state: 'uploading', abort: handle.abort, alt: '' }]);
      handle.done
        .then((doc) => {
          patch(key, { state: 'done', progress: 1, doc, abort: undefined });
          props.onUploaded(doc);
        })
        .catch((e) => patch(key, { state: 'error', error: message(e), abort: undefined }));
    }
  };

  const saveAlt = async (item: Item) => {
    if (!item.doc?.id) return;
    try {
      await docs.update('media', item.doc.id, { alt: item.alt });
      patch(item.key, { altSaved: true });
      toast(t('media.altSaved'));
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  return (
    <div class={`uploader ${props.compact ? 'compact' : ''}`}>
      <div
        class={`dropzone ${over ? 'over' : ''}`}
        data-testid="dropzone"
        onDragEnter={(e) => {
          e.preventDefault();
          depth.current++;
          setOver(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={() => {
          depth.current = Math.max(0, depth.current - 1);
          if (depth.current === 0) setOver(false);
        }}
        onDrop={(e) => {
          e.preventDefault();
          depth.current = 0;
          setOver(false);
          start(Array.from(e.dataTransfer?.files ?? []));
        }}
      >
        <Icon name="upload" size={props.compact ? 18 : 26} />
        <div>
          <strong>{props.multiple === false ? t('media.dropFile') : t('media.dropFiles')}</strong> {t('media.or')}{' '}
          <button type="button" class="link" onClick={() => inputRef.current?.click()}>
            {t('media.browse')}
          </button>
          <div class="muted small">
            {limits.mimeTypes.join(', ')} · {t('media.upTo', { size: formatBytes(limits.maxFileSize) })}
          </div>
        </div>
        <input
          ref={inputRef}
          type="file"
          class="visually-hidden"
          tabIndex={-1}
          aria-label={t('media.chooseFiles')}
          accept={acceptAttr(limits)}
          multiple={props.multiple !== false}
          onChange={(e) => {
            start(Array.from(e.currentTarget.files ?? []));
            e.currentTarget.value = '';
          }}
        />
      </div>
      {items.length > 0 && (
        <ul class="upload-queue" aria-label={t('media.uploads')} ref={queueRef}>
          {finished > 1 && (
            <li class="upload-queue-head">
              <button
                type="button"
                class="link small"
                onClick={() => setItems((l) => l.filter((i) => i.state === 'uploading'))}
              >
                {t('media.clearFinished', { n: finished })}
              </button>
            </li>
          )}
          {items.map((item) => (
            <li class={`upload-item ${item.state}`} key={item.key} data-key={item.key}>
              <div class="upload-thumb">
                <Icon name="file" size={20} />
                {item.doc && thumbnailURL(item.doc) && (
                  <img src={thumbnailURL(item.doc)!} alt="" onError={(e) => (e.currentTarget.style.display = 'none')} />
                )}
              </div>
              <div class="upload-main">
                <div class="upload-name">
                  <span class="truncate">{item.file.name}</span>
                  <span class="muted small">{formatBytes(item.file.size)}</span>
                </div>
                {item.state === 'uploading' && (
                  <div class="progress-line">
                    <div
                      class="progress"
                      role="progressbar"
                      aria-label={t('media.uploading', { name: item.file.name })}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={Math.round(item.progress * 100)}
                    >
                      <div class="progress-bar" style={{ width: `${Math.round(item.progress * 100)}%` }} />
                    </div>
                    <span class="small tabular">{Math.round(item.progress * 100)}%</span>
                    <button type="button" class="link small" onClick={() => item.abort?.()}>
                      {t('media.cancel')}
                    </button>
                  </div>
                )}
                {item.state === 'error' && <p class="field-error">{item.error}</p>}
                {item.state === 'done' && !props.compact && (
                  <form
                    class="alt-inline"
                    onSubmit={(e) => {
                      e.preventDefault();
                      void saveAlt(item);
                    }}
                  >
                    <input
                      aria-label={t('media.altFor', { name: item.file.name })}
                      placeholder={t('media.altPlaceholder')}
                      value={item.alt}
                      onInput={(e) => patch(item.key, { alt: e.currentTarget.value, altSaved: false })}
                    />
                    <button type="submit" disabled={item.altSaved || !item.alt.trim()}>
                      {item.altSaved ? t('media.saved') : t('media.saveAlt')}
                    </button>
                  </form>
                )}
              </div>
              {item.state !== 'uploading' && (
                <button
                  type="button"
                  class="icon-button"
                  aria-label={t('media.dismiss', { name: item.file.name })}
                  onClick={() => setItems((l) => l.filter((i) => i.key !== item.key))}
                >
                  <Icon name="x" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
