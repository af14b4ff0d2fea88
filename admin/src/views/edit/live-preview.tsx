/**
 * The live preview pane (loaded on demand by live-preview-slot.tsx): the site in an iframe beside the
 * form, at phone, tablet or desktop width, or popped out into its own window.
 *
 * It speaks Payload's live-preview protocol, so a frontend using `@payloadcms/live-preview` works
 * unchanged: the site posts `{ type: 'payload-live-preview', ready: true }` to its parent (or opener);
 * we answer, and post again on every change, `{ type: 'payload-live-preview', data, collectionSlug |
 * globalSlug, locale }` to the site's origin; the site merges `data` through the method-override read
 * (docs/payload-compatibility.md). After each save we post `{ type: 'payload-document-event' }` so
 * server-rendered sites refresh: every save, the editor's own or anyone else's, reaches the pane
 * through the realtime stream (admin/src/realtime.ts), so nothing polls. The URL comes from the preview endpoint (docs/drafts-and-versions.md), signed with a token.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { preview } from '../../api.ts';
import { message } from '../../format.ts';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Icon } from '../../ui.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useRealtime } from '../../realtime.ts';
import type { LivePreviewProps } from './live-preview-slot.tsx';
import { t } from '../../i18n/i18n.ts';

const WIDTHS = { phone: 375, tablet: 768, desktop: null } as const;
type Width = keyof typeof WIDTHS;

/** Typing fires many changes; the site makes one merge request per message, so a short pause batches them. */
const DEBOUNCE_MS = 120;
/** How long the site may take to answer before the pane says it does not. */
const PROBE_MS = 5000;

/** The URL without its `preview` token: a new token alone must not reload the page in the frame. */
function withoutToken(url: string): string {
  const u = new URL(url, location.href);
  u.searchParams.delete('preview');
  return u.href;
}

export function LivePreviewPane(props: LivePreviewProps) {
  const { owner, locale } = props;
  const ownerKey = 'global' in owner ? `g:${owner.global}` : `c:${owner.collection}:${owner.id}`;
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [width, setWidth] = useState<Width>('desktop');
  const [poppedOut, setPoppedOut] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const popup = useRef<Window | null>(null);
  const latest = useRef(props);
  latest.current = props;
  // Counts saves of this document seen on the realtime stream (a publish is two events: one is enough).
  const [saves, setSaves] = useState(0);
  const burst = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const topic = 'global' in owner ? `globals/${owner.global}` : `${owner.collection}/${owner.id}`;
  useRealtime(
    [topic],
    () => {
      clearTimeout(burst.current);
      burst.current = setTimeout(() => setSaves((n) => n + 1), 100);
    },
    locale,
  );
  useEffect(() => () => clearTimeout(burst.current), []);

  // The page's URL may follow the document (a new slug), so it is asked again after each save.
  useEffect(() => {
    let live = true;
    preview(owner, {}, locale)
      .then((r) => live && setUrl((prev) => (prev && withoutToken(prev) === withoutToken(r.url) ? prev : r.url)))
      .catch((e) => live && setError(message(e)));
    return () => {
      live = false;
    };
  }, [ownerKey, locale, saves]);

  const origin = url ? new URL(url, location.href).origin : null;

  // A frame whose site does not run shows the browser's own error page inside it, which says nothing of
  // why: the site is asked once (no cookies, an opaque answer is enough) and the pane says so when it
  // does not answer.
  const [unreachable, setUnreachable] = useState(false);
  const [probe, setProbe] = useState(0);
  const pageURL = url ? withoutToken(url) : null;
  useEffect(() => {
    if (!url) return;
    let live = true;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), PROBE_MS);
    fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: stop.signal })
      .then(
        () => live && setUnreachable(false),
        () => live && setUnreachable(true),
      )
      .finally(() => clearTimeout(timer));
    return () => {
      live = false;
      clearTimeout(timer);
      stop.abort();
    };
  }, [pageURL, probe]);

  const targets = (): Window[] => {
    const list: Window[] = [];
    if (frame.current?.contentWindow) list.push(frame.current.contentWindow);
    if (popup.current && !popup.current.closed) list.push(popup.current);
    return list;
  };

  const dataMessage = () => {
    const p = latest.current;
    const data = 'global' in p.owner ? { ...p.values } : { ...p.values, id: p.owner.id };
    const target = 'global' in p.owner ? { globalSlug: p.owner.global } : { collectionSlug: p.owner.collection };
    return { type: 'payload-live-preview', data, ...target, locale: p.locale };
  };

  // A window that says it is ready gets the current values at once (it may have loaded after the last change).
  useEffect(() => {
    if (!origin) return;
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== origin || e.data?.type !== 'payload-live-preview' || e.data.ready !== true) return;
      (e.source as Window | null)?.postMessage(dataMessage(), origin);
    };
    addEventListener('message', onMessage);
    return () => removeEventListener('message', onMessage);
  }, [origin]);

  useEffect(() => {
    if (!origin) return;
    const timer = setTimeout(() => {
      for (const w of targets()) w.postMessage(dataMessage(), origin);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [props.values, locale, origin]);

  useEffect(() => {
    if (!origin || saves === 0) return;
    const p = latest.current;
    const event =
      'global' in p.owner ? { globalSlug: p.owner.global } : { collectionSlug: p.owner.collection, id: p.owner.id };
    for (const w of targets()) w.postMessage({ type: 'payload-document-event', ...event }, origin);
  }, [saves]);

  // A popped-out window that is closed brings the frame back.
  useEffect(() => {
    if (!poppedOut) return;
    const timer = setInterval(() => {
      if (!popup.current || popup.current.closed) {
        popup.current = null;
        setPoppedOut(false);
      }
    }, 500);
    return () => clearInterval(timer);
  }, [poppedOut]);

  const popOut = () => {
    if (!url) return;
    // Not `noopener`: the site reports ready to `window.opener`, and we post changes to it.
    popup.current = window.open(url, 'cms-live-preview');
    if (popup.current) setPoppedOut(true);
  };

  const px = WIDTHS[width];
  return (
    <section class="live-preview panel" aria-label={t('preview.label')}>
      <div class="live-preview-bar">
        <div class="segmented" role="group" aria-label={t('preview.width')}>
          {(Object.keys(WIDTHS) as Width[]).map((w) => (
            <button type="button" key={w} aria-pressed={width === w} onClick={() => setWidth(w)} disabled={poppedOut}>
              {w === 'phone' ? t('preview.phone') : w === 'tablet' ? t('preview.tablet') : t('preview.desktop')}
            </button>
          ))}
        </div>
        {poppedOut ? (
          <button type="button" class="ghost" onClick={() => popup.current?.close()}>
            {t('preview.bringBack')}
          </button>
        ) : (
          <button type="button" class="ghost" onClick={popOut} disabled={!url}>
            <Icon name="external" /> {t('preview.popOut')}
          </button>
        )}
      </div>
      {error && <ErrorBox error={error} />}
      {unreachable && url && (
        <div class="alert warn" role="alert">
          {t('preview.unreachable', { origin: new URL(url, location.href).origin })}
          <div class="alert-actions">
            <button type="button" class="ghost" onClick={() => setProbe((n) => n + 1)}>
              {t('preview.retry')}
            </button>
          </div>
        </div>
      )}
      {!error && !url && <Spinner label={t('preview.loading')} />}
      {url && poppedOut && <p class="muted">{t('preview.poppedOut')}</p>}
      {url && !poppedOut && (
        <div class="live-preview-stage">
          <iframe
            ref={frame}
            src={url}
            title={t('preview.frame')}
            style={px ? { width: `${px}px` } : undefined}
            class={px ? 'fixed-width' : ''}
          />
        </div>
      )}
    </section>
  );
}
