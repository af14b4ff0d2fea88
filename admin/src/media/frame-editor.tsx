/**
 * The media page's image: shown whole (not the thumbnail enlarged), a click sets the focal point, a crop
 * is given in percent, and "Replace file" sends the new file as a multipart PATCH (docs/media.md). Each
 * change saves at once; the server makes the image sizes again. By keyboard the image is a slider: arrow
 * keys move the focal point by 5 % (Shift: 1 %) and Enter saves it.
 */
import { useRef, useState } from 'preact/hooks';
import { api, currentCsrf, errorFromBody, runtime, type Doc } from '../api.ts';
import { toast } from '../ui/toasts.tsx';
import { t } from '../i18n/i18n.ts';

type Crop = { x: number; y: number; width: number; height: number };
const round = (n: number) => Math.round(n * 10) / 10;

async function replaceFile(id: string | number, file: File): Promise<Doc> {
  const body = new FormData();
  body.append('file', file, file.name);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = currentCsrf();
  if (token) headers['x-csrf-token'] = token;
  const res = await fetch(`${runtime.apiPrefix}/media/${encodeURIComponent(String(id))}`, {
    method: 'PATCH',
    body,
    headers,
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw errorFromBody(res.status, data);
  return data.doc as Doc;
}

export function FrameEditor(props: { doc: Doc; onChange(doc: Doc): void }) {
  const d = props.doc;
  const [busy, setBusy] = useState(false);
  const crop = (d.crop as Crop | null) ?? null;
  const [draft, setDraft] = useState<Crop>(crop ?? { x: 0, y: 0, width: 100, height: 100 });
  /** The focal point being moved by keyboard, saved on Enter; null while it is the stored one. */
  const [moving, setMoving] = useState<{ x: number; y: number } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const url = typeof d.url === 'string' ? d.url : null;
  const save = async (data: Doc, message: string) => {
    setBusy(true);
    try {
      const res = await api<{ doc: Doc }>('PATCH', `/media/${encodeURIComponent(String(d.id))}`, data);
      props.onChange(res.doc);
      toast(message);
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), 'error');
    } finally {
      setBusy(false);
    }
  };
  const pick = (e: MouseEvent) => {
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const focalX = round(((e.clientX - box.left) / box.width) * 100);
    const focalY = round(((e.clientY - box.top) / box.height) * 100);
    setMoving(null);
    void save({ focalX, focalY }, t('media.focalSaved'));
  };
  const STEPS: Record<string, [number, number]> = {
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
  };
  const onKey = (e: KeyboardEvent) => {
    const at = moving ?? { x: fx, y: fy };
    if (e.key === 'Enter' && moving) {
      e.preventDefault();
      setMoving(null);
      void save({ focalX: moving.x, focalY: moving.y }, t('media.focalSaved'));
      return;
    }
    const step = STEPS[e.key];
    if (!step) return;
    e.preventDefault();
    const by = e.shiftKey ? 1 : 5;
    const clamp = (n: number) => Math.min(100, Math.max(0, round(n)));
    setMoving({ x: clamp(at.x + step[0] * by), y: clamp(at.y + step[1] * by) });
  };
  const replace = async (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setBusy(true);
    try {
      props.onChange(await replaceFile(d.id!, file));
      toast(t('media.fileReplaced'));
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'error');
    } finally {
      setBusy(false);
    }
  };
  if (!url) return null;
  const isImage = typeof d.width === 'number';
  const fx = moving?.x ?? (typeof d.focalX === 'number' ? d.focalX : 50);
  const fy = moving?.y ?? (typeof d.focalY === 'number' ? d.focalY : 50);
  const field = (key: keyof Crop, label: string) => (
    <label class="frame-crop-field">
      {label}
      <input
        type="number"
        min={0}
        max={100}
        step={0.1}
        value={draft[key]}
        aria-label={t('media.cropField', { label })}
        onInput={(e) => setDraft({ ...draft, [key]: Number((e.currentTarget as HTMLInputElement).value) })}
      />
    </label>
  );
  return (
    <div class="frame-editor" aria-busy={busy}>
      {isImage && (
        <div
          class="frame-image"
          onClick={pick}
          onKeyDown={onKey}
          title={t('media.focalHint')}
          data-testid="frame-image"
          tabIndex={0}
          role="slider"
          aria-label={t('media.focalPoint')}
          aria-valuenow={fx}
          aria-valuetext={t('media.focalAt', { x: fx, y: fy })}
          aria-describedby="frame-focal-keys"
        >
          <img src={url} alt={String(d.alt ?? '')} />
          {crop && (
            <div
              class="frame-crop"
              style={{ left: `${crop.x}%`, top: `${crop.y}%`, width: `${crop.width}%`, height: `${crop.height}%` }}
            />
          )}
          <span class="frame-focal" style={{ left: `${fx}%`, top: `${fy}%` }} />
        </div>
      )}
      {isImage && (
        <p id="frame-focal-keys" class="muted small">
          {t('media.focalKeys')}
        </p>
      )}
      <div class="frame-actions">
        {isImage && (
          <form
            class="frame-crop-form"
            onSubmit={(e) => {
              e.preventDefault();
              void save({ crop: draft }, t('media.cropSaved'));
            }}
          >
            <span>{t('media.cropTitle')}</span>
            {field('x', t('media.left'))}
            {field('y', t('media.top'))}
            {field('width', t('media.width'))}
            {field('height', t('media.height'))}
            <button type="submit" class="btn" disabled={busy}>
              {t('media.applyCrop')}
            </button>
            {crop && (
              <button
                type="button"
                class="btn"
                disabled={busy}
                onClick={() => void save({ crop: null }, t('media.cropRemoved'))}
              >
                {t('media.removeCrop')}
              </button>
            )}
          </form>
        )}
        <button type="button" class="btn frame-replace" disabled={busy} onClick={() => fileInput.current?.click()}>
          {t('media.replaceFile')}
        </button>
        <input ref={fileInput} type="file" hidden tabIndex={-1} onChange={replace} />
      </div>
    </div>
  );
}
