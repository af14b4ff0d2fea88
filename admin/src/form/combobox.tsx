/**
 * A text box with a listbox of what matches it, read from the server a pause after typing (the ARIA
 * combobox pattern: arrows move, Enter picks, Escape closes). The relationship pickers use it for one
 * collection (paged with "More") and for several at once.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { message } from '../format.ts';
import { t } from '../i18n/i18n.ts';
import type { useControlProps } from './fields.tsx';

/** One page of options; `total` (all that match) only while more pages remain. */
export type Found<O> = { options: O[]; total?: number };

export function Combobox<O>(props: {
  attrs: { id: string; 'aria-label'?: string } & Partial<ReturnType<typeof useControlProps>>;
  placeholder: string;
  /** The listbox's name. */
  listLabel: string;
  /** Reads the options matching `q`; `page` counts up with "More". */
  search: (q: string, page: number) => Promise<Found<O>>;
  /** What else the search reads, besides the text typed. */
  deps: unknown[];
  keyOf: (option: O) => string;
  /** Options whose key is here are left out (already chosen). */
  exclude: string[];
  render: (option: O) => ComponentChildren;
  onPick: (option: O) => void;
}) {
  const { attrs } = props;
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<O[]>([]);
  const [found, setFound] = useState<Found<O> | null>(null);
  /** The search the shown options answer (they lag the typing by the pause before asking). */
  const [answered, setAnswered] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const listId = `${attrs.id}-list`;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!open) return;
    let live = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => {
        props
          .search(q, page)
          .then((r) => {
            if (!live) return;
            setFound(r);
            setAnswered(q);
            setItems((prev) => (page === 1 ? r.options : [...prev, ...r.options]));
            setError(null);
          })
          .catch((e) => live && setError(message(e)));
      },
      page === 1 ? 200 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer.current);
    };
  }, [open, q, page, ...props.deps]);

  const shown = items.filter((o) => !props.exclude.includes(props.keyOf(o)));
  const choose = (o: O) => {
    props.onPick(o);
    setQ('');
    setPage(1);
    setOpen(false);
    setActive(-1);
  };
  const optionId = (i: number) => `${attrs.id}-opt-${i}`;

  return (
    <div class="combo">
      <input
        {...attrs}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        placeholder={props.placeholder}
        value={q}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onInput={(e) => {
          setQ(e.currentTarget.value);
          setPage(1);
          setActive(-1);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(shown.length - 1, i + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (e.key === 'Enter') {
            // Enter belongs to the search, never to the form around it: it picks the highlighted
            // option, or the only one that matches what is typed, or only opens the list.
            e.preventDefault();
            if (open && shown[active]) choose(shown[active]!);
            else if (open && q.trim() && answered === q && shown.length === 1) choose(shown[0]!);
            else setOpen(true);
          } else if (e.key === 'Escape' && open) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      {open && (
        <ul class="combo-list" role="listbox" id={listId} aria-label={props.listLabel}>
          {error ? (
            <li class="combo-note field-error">{error}</li>
          ) : !found ? (
            <li class="combo-note muted">{t('fields.searching')}</li>
          ) : shown.length === 0 ? (
            <li class="combo-note muted">{q ? t('fields.noMatch', { q }) : t('fields.nothingToChooseDot')}</li>
          ) : (
            shown.map((o, i) => (
              <li
                key={props.keyOf(o)}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'active' : ''}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o);
                }}
              >
                {props.render(o)}
              </li>
            ))
          )}
          {found?.total !== undefined && (
            <li class="combo-note">
              <button type="button" class="ghost small" onMouseDown={(e) => (e.preventDefault(), setPage(page + 1))}>
                {t('fields.moreLeft', { n: found.total - items.length })}
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
