/** The file of a media document: the whole image (with its focal point and crop editor), and the facts the upload recorded (read-only). */
import type { Doc } from '../../api.ts';
import { formatBytes } from '../../format.ts';
import { MediaThumb } from '../../media/media-grid.tsx';
import { CopyButton } from '../../ui/copy-button.tsx';
import { FrameEditor } from '../../media/frame-editor.tsx';
import { t } from '../../i18n/i18n.ts';

export function MediaPreview(props: { doc: Doc; onChange?(doc: Doc): void }) {
  const d = props.doc;
  const url = typeof d.url === 'string' ? d.url : null;
  const absolute = url ? new URL(url, location.origin).href : null;
  const facts: [string, string][] = [
    [t('media.originalName'), String(d.originalName ?? '')],
    [t('media.storedAs'), String(d.filename ?? '')],
    [t('media.type'), String(d.mimeType ?? '')],
    [t('media.size'), formatBytes(d.filesize)],
    [t('media.dimensions'), typeof d.width === 'number' ? `${d.width} × ${d.height} px` : ''],
  ];
  const sizes =
    d.sizes && typeof d.sizes === 'object'
      ? Object.entries(d.sizes as Record<string, { width?: number; height?: number; url?: string }>)
      : [];
  return (
    <div class="media-preview">
      {props.onChange ? (
        <FrameEditor doc={d} onChange={props.onChange} />
      ) : (
        <a
          href={absolute ?? undefined}
          target="_blank"
          rel="noopener noreferrer"
          class="media-preview-image"
          aria-label={t('media.openFile')}
        >
          <MediaThumb doc={d} size="large" />
        </a>
      )}
      <dl class="facts">
        {facts
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd class="truncate" title={v}>
                {v}
              </dd>
            </div>
          ))}
        {sizes.length > 0 && (
          <div>
            <dt>{t('media.sizes')}</dt>
            <dd>
              {sizes.map(([name, s]) => (
                <a key={name} href={s.url} target="_blank" rel="noopener noreferrer" class="size-link">
                  {name} {s.width ? `(${s.width}${s.height ? `×${s.height}` : ''})` : ''}
                </a>
              ))}
            </dd>
          </div>
        )}
        {absolute && (
          <div>
            <dt>{t('media.url')}</dt>
            <dd class="url-row">
              <code class="truncate">{absolute}</code>
              <CopyButton text={absolute} label={t('media.copyUrl')} copied={t('media.urlCopied')} />
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}
