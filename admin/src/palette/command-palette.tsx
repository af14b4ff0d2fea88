/**
 * The command palette (Ctrl+K / Cmd+K): searches every collection the editor may read through
 * `GET <api>/search?q=` (docs/search.md) and opens the chosen document. A modal dialog: focus stays
 * inside (Tab cycles), arrows move through the results, Enter opens one, Escape closes.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, queryString } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { message, singularLabel } from '../format.ts';
import { navigate } from '../router.tsx';
import { Icon } from '../ui.tsx';
import { t, tn } from '../i18n/i18n.ts';

type Hit = { collection: string; id: number | string; title: string | null; snippet: string; rank: number };

const WAIT_MS = 150;

export function CommandPalette(props: { onClose: () => void }) {
  const { config } = useApp();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<Hit[]>([]);
  const [active, setActive] = useState(0);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  useEffect(() => {
    const d = dialog.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    input.current?.focus();
    return () => {
      if (d.open) d.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  useEffect(() => {
    const text = q.trim();
    if (!/[\p{L}\p{N}]/u.test(text)) return void (setHits([]), setState({ busy: false, error: null }));
    let live = true;
    setState((s) => ({ ...s, busy: true }));
    const timer = setTimeout(() => {
      api<{ docs: Hit[] }>('GET', `/search${queryString({ q: text.slice(0, 500), limit: 10 })}`)
        .then((r) => live && (setHits(r.docs), setActive(0), setState({ busy: false, error: null })))
        .catch((e) => live && (setHits([]), setState({ busy: false, error: message(e) })));
    }, WAIT_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q]);

  const open = (hit: Hit | undefined) => {
    if (!hit) return;
    props.onClose();
    void navigate(`/collections/${encodeURIComponent(hit.collection)}/${encodeURIComponent(String(hit.id))}`);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (hits.length) setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      open(hits[active]);
    } else if (e.key === 'Tab') {
      // Keep focus inside the dialog: its focusable elements in a cycle.
      const items = [...dialog.current!.querySelectorAll<HTMLElement>('input, button')];
      const i = items.indexOf(document.activeElement as HTMLElement);
      e.preventDefault();
      items[(i + (e.shiftKey ? items.length - 1 : 1)) % items.length]?.focus();
    }
  };

  const optionId = (i: number) => `palette-option-${i}`;
  const status =
    state.error ??
    (state.busy
      ? t('palette.searching')
      : q.trim() && hits.length === 0
        ? t('palette.noMatches')
        : tn('palette.results', hits.length));
  return (
    <dialog
      ref={dialog}
      class="modal palette"
      aria-label={t('palette.open')}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
      onClick={(e) => e.target === dialog.current && props.onClose()}
      onKeyDown={onKeyDown}
    >
      <div class="palette-input">
        <Icon name="search" />
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label={t('palette.searchEvery')}
          aria-expanded={hits.length > 0}
          aria-controls="palette-results"
          aria-autocomplete="list"
          aria-activedescendant={hits.length ? optionId(active) : undefined}
          placeholder={t('palette.searchEvery')}
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
        <button type="button" class="icon-button" aria-label={t('ui.close')} onClick={props.onClose}>
          <Icon name="x" />
        </button>
      </div>
      <ul id="palette-results" role="listbox" aria-label={t('palette.resultsLabel')}>
        {hits.map((h, i) => {
          const c = findCollection(config, h.collection);
          return (
            <li
              key={`${h.collection}:${h.id}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : undefined}
              onMouseMove={() => setActive(i)}
              onClick={() => open(h)}
            >
              <span class="palette-title">{h.title || `#${h.id}`}</span>
              <span class="badge">{c ? singularLabel(c) : h.collection}</span>
              {/* The server escapes the text and marks matches with <mark> (docs/search.md). */}
              <span class="palette-snippet muted small" dangerouslySetInnerHTML={{ __html: h.snippet }} />
            </li>
          );
        })}
      </ul>
      <p class="palette-status muted small" role="status">
        {q.trim() ? status : t('palette.hint')}
      </p>
    </dialog>
  );
}
