/**
 * `relationship` field: a searchable picker over the related collection (server-side `like` search on its
 * title, 10 at a time with "More"), chosen documents as chips with their names (fetched by id, so any
 * document shows its name, not `#108`), and a drawer (document-drawer.tsx, its own chunk) to edit a chosen
 * document or create a new one without leaving the form.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc, type ListResult } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { docLabel, message, singularLabel } from '../format.ts';
import { t } from '../i18n/i18n.ts';
import { LazyView } from '../lazy.tsx';
import { Icon } from '../ui.tsx';
import { ChipList } from './choice-fields.tsx';
import { labelKey, labels } from './choice-labels.ts';
import type { DocumentDrawerProps } from './document-drawer.tsx';
import { useControlProps } from './fields.tsx';
import type { FieldProps } from './form-context.ts';

const PAGE = 10;

/** Ids arrive as numbers (depth=0) or, rarely, populated objects. */
const idOf = (v: unknown): string | null =>
  v === null || v === undefined || v === '' ? null : typeof v === 'object' ? String((v as Doc).id) : String(v);
const toId = (s: string): number | string => (/^\d+$/.test(s) ? Number(s) : s);

/** The `where` that finds documents of `target` by what people call them. */
export function searchWhere(target: CollectionConfig, q: string): Record<string, unknown> | undefined {
  const text = q.trim();
  if (!text) return undefined;
  const keys =
    target.builtIn === 'users'
      ? ['name', 'email']
      : target.builtIn === 'media'
        ? ['originalName', 'filename']
        : [target.admin?.useAsTitle].filter((k): k is string => Boolean(k) && k !== 'id');
  if (keys.length === 0) return /^\d+$/.test(text) ? { id: { equals: Number(text) } } : undefined;
  return keys.length === 1 ? { [keys[0]!]: { like: text } } : { or: keys.map((k) => ({ [k]: { like: text } })) };
}

export function useLabels(
  target: CollectionConfig | undefined,
  ids: string[],
  locale: string | undefined,
): (id: string) => string | undefined {
  const [, setVersion] = useState(0);
  const wanted = ids.join(',');
  useEffect(() => {
    if (!target) return;
    const missing = ids.filter((id) => !labels.has(labelKey(target.slug, locale, id)));
    if (missing.length === 0) return;
    let live = true;
    docs
      .list(target.slug, { where: { id: { in: missing.join(',') } }, limit: Math.min(100, missing.length), locale })
      .then((r) => {
        for (const d of r.docs) labels.set(labelKey(target.slug, locale, String(d.id)), docLabel(target, d));
        if (live) setVersion((v) => v + 1);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [target?.slug, wanted, locale]);
  return (id) => (target ? labels.get(labelKey(target.slug, locale, id)) : undefined);
}

export function RelationshipField(props: FieldProps) {
  const { config, locale } = useApp();
  const target = findCollection(
    config,
    typeof props.field.relationTo === 'string' ? props.field.relationTo : undefined,
  );
  const attrs = useControlProps(props);
  const many = Boolean(props.field.hasMany);
  const chosen = (many ? (Array.isArray(props.value) ? props.value : []) : [props.value])
    .map(idOf)
    .filter((x): x is string => x !== null);
  const labelOf = useLabels(target, chosen, locale);
  // The drawer open on a chosen document (its id), on a new one (null), or closed (undefined).
  const [drawer, setDrawer] = useState<string | null | undefined>(undefined);

  if (!target)
    return <p class="field-error">{t('fields.unknownCollection', { slug: String(props.field.relationTo) })}</p>;

  const pick = (d: Doc) => {
    const id = String(d.id);
    labels.set(labelKey(target.slug, locale, id), docLabel(target, d));
    if (many) props.onChange(chosen.includes(id) ? chosen.map(toId) : [...chosen, id].map(toId));
    else props.onChange(toId(id));
  };
  const remove = (id: string) => props.onChange(many ? chosen.filter((x) => x !== id).map(toId) : null);
  // Users and media have pages of their own (passwords, files); other collections open in the drawer.
  const editable = !target.builtIn;

  return (
    <div class="relation-field">
      <ChipList
        ids={chosen}
        labelOf={labelOf}
        onRemove={remove}
        onEdit={editable ? setDrawer : undefined}
        disabled={attrs.disabled}
      />
      <div class="relation-row">
        <Combobox
          attrs={attrs}
          target={target}
          locale={locale}
          exclude={chosen}
          onPick={pick}
          placeholder={
            many || chosen.length === 0
              ? t('fields.searchOne', { label: singularLabel(target), labelLower: singularLabel(target).toLowerCase() })
              : t('fields.searchReplace')
          }
        />
        {editable && (
          <button type="button" class="ghost" disabled={attrs.disabled} onClick={() => setDrawer(null)}>
            <Icon name="plus" /> {t('drawer.createNew')}
          </button>
        )}
      </div>
      {drawer !== undefined && (
        <RelatedDrawer
          collection={target}
          id={drawer}
          onClose={() => setDrawer(undefined)}
          onSaved={(d) => {
            setDrawer(undefined);
            if (drawer === null) pick(d);
            else labels.set(labelKey(target.slug, locale, String(d.id)), docLabel(target, d));
          }}
        />
      )}
    </div>
  );
}

/** A text box with a listbox of matching documents (ARIA combobox pattern: arrows, Enter, Escape). */
export function Combobox(props: {
  attrs: { id: string; 'aria-label'?: string } & Partial<ReturnType<typeof useControlProps>>;
  target: CollectionConfig;
  locale: string | undefined;
  exclude: string[];
  onPick: (d: Doc) => void;
  placeholder: string;
}) {
  const { attrs, target } = props;
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Doc[]>([]);
  const [result, setResult] = useState<ListResult | null>(null);
  /** The search the shown documents answer (they lag the typing by the pause before asking). */
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
        const title = target.admin?.useAsTitle;
        docs
          .list(target.slug, {
            where: searchWhere(target, q),
            limit: PAGE,
            page,
            sort: title && title !== 'id' && !target.builtIn ? title : undefined,
            locale: props.locale,
          })
          .then((r) => {
            if (!live) return;
            setResult(r);
            setAnswered(q);
            setItems((prev) => (page === 1 ? r.docs : [...prev, ...r.docs]));
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
  }, [open, q, page, target.slug, props.locale]);

  const shown = items.filter((d) => !props.exclude.includes(String(d.id)));
  const choose = (d: Doc) => {
    props.onPick(d);
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
            // document, or the only one that matches what is typed, or only opens the list.
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
        <ul
          class="combo-list"
          role="listbox"
          id={listId}
          aria-label={t('fields.matchingOf', {
            label: singularLabel(target),
            labelLower: singularLabel(target).toLowerCase(),
          })}
        >
          {error ? (
            <li class="combo-note field-error">{error}</li>
          ) : !result ? (
            <li class="combo-note muted">{t('fields.searching')}</li>
          ) : shown.length === 0 ? (
            <li class="combo-note muted">{q ? t('fields.noMatch', { q }) : t('fields.nothingToChooseDot')}</li>
          ) : (
            shown.map((d, i) => (
              <li
                key={String(d.id)}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'active' : ''}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(d);
                }}
              >
                {docLabel(target, d)}
                <span class="muted small"> #{String(d.id)}</span>
              </li>
            ))
          )}
          {result?.hasNextPage && (
            <li class="combo-note">
              <button type="button" class="ghost small" onMouseDown={(e) => (e.preventDefault(), setPage(page + 1))}>
                {t('fields.moreLeft', { n: result.totalDocs - items.length })}
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

const loadDrawer = () => import('./document-drawer.tsx');

/** The related document's form in a drawer, fetched the first time one opens. */
export function RelatedDrawer(props: DocumentDrawerProps) {
  return <LazyView load={loadDrawer} props={props} />;
}
