/**
 * A relationship whose `relationTo` is a list: one search box looks through every collection it names
 * (a few results of each, grouped), and the value is `{ relationTo, value }` (a list of them with
 * `hasMany`). Chosen documents show as chips naming their collection, each with "Edit" (the drawer).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { docLabel, message, singularLabel } from '../format.ts';
import { ChipList } from './choice-fields.tsx';
import { useControlProps } from './fields.tsx';
import type { FieldProps } from './form-context.ts';
import { labelKey, labels } from './choice-labels.ts';
import { RelatedDrawer, searchWhere } from './relationship-field.tsx';
import { t } from '../i18n/i18n.ts';

const PER_COLLECTION = 5;

type Ref = { relationTo: string; value: number | string };

const toRef = (v: unknown): Ref | null => {
  if (!v || typeof v !== 'object') return null;
  const r = v as { relationTo?: unknown; value?: unknown };
  if (typeof r.relationTo !== 'string' || r.value === null || r.value === undefined) return null;
  const value = typeof r.value === 'object' ? (r.value as Doc).id! : (r.value as number | string);
  return { relationTo: r.relationTo, value };
};
const chipId = (r: Ref) => `${r.relationTo}:${r.value}`;

/** Names of chosen documents, fetched per collection once and kept with the plain picker's. */
function useRefLabels(chosen: Ref[], locale: string | undefined): void {
  const { config } = useApp();
  const [, setVersion] = useState(0);
  const wanted = chosen.map(chipId).join(',');
  useEffect(() => {
    let live = true;
    const bySlug = new Map<string, string[]>();
    for (const r of chosen)
      if (!labels.has(labelKey(r.relationTo, locale, String(r.value))))
        bySlug.set(r.relationTo, [...(bySlug.get(r.relationTo) ?? []), String(r.value)]);
    for (const [slug, ids] of bySlug) {
      const target = findCollection(config, slug);
      if (!target) continue;
      docs
        .list(slug, { where: { id: { in: ids.join(',') } }, limit: ids.length, locale })
        .then((r) => {
          for (const d of r.docs) labels.set(labelKey(slug, locale, String(d.id)), docLabel(target, d));
          if (live) setVersion((v) => v + 1);
        })
        .catch(() => {});
    }
    return () => {
      live = false;
    };
  }, [wanted, locale]);
}

export function PolymorphicField(props: FieldProps) {
  const { config, locale } = useApp();
  const attrs = useControlProps(props);
  const many = Boolean(props.field.hasMany);
  const targets = (props.field.relationTo as string[])
    .map((s) => findCollection(config, s))
    .filter((c): c is CollectionConfig => Boolean(c));
  const chosen = (many ? (Array.isArray(props.value) ? props.value : []) : [props.value])
    .map(toRef)
    .filter((r): r is Ref => r !== null);
  useRefLabels(chosen, locale);

  const labelOf = (id: string) => {
    const r = chosen.find((x) => chipId(x) === id);
    if (!r) return undefined;
    const target = findCollection(config, r.relationTo);
    const name = labels.get(labelKey(r.relationTo, locale, String(r.value))) ?? `#${r.value}`;
    return `${name} (${target ? singularLabel(target) : r.relationTo})`;
  };
  const pick = (target: CollectionConfig, d: Doc) => {
    labels.set(labelKey(target.slug, locale, String(d.id)), docLabel(target, d));
    const ref = { relationTo: target.slug, value: d.id! };
    if (!many) return props.onChange(ref);
    if (!chosen.some((r) => chipId(r) === chipId(ref))) props.onChange([...chosen, ref]);
  };
  const remove = (id: string) => props.onChange(many ? chosen.filter((r) => chipId(r) !== id) : null);
  const [editing, setEditing] = useState<Ref | null>(null);
  const editTarget = editing && findCollection(config, editing.relationTo);

  return (
    <div class="relation-field">
      <ChipList
        ids={chosen.map(chipId)}
        labelOf={labelOf}
        onRemove={remove}
        onEdit={(id) => setEditing(chosen.find((r) => chipId(r) === id) ?? null)}
        disabled={attrs.disabled}
      />
      <SearchAcross
        attrs={attrs}
        targets={targets}
        locale={locale}
        exclude={chosen.map(chipId)}
        onPick={pick}
        placeholder={t('fields.searchAny', {
          labels: targets.map((x) => singularLabel(x)).join(' / '),
          labelsLower: targets.map((x) => singularLabel(x).toLowerCase()).join(t('fields.or')),
        })}
      />
      {editing && editTarget && !editTarget.builtIn && (
        <RelatedDrawer
          collection={editTarget}
          id={String(editing.value)}
          onClose={() => setEditing(null)}
          onSaved={(d) => {
            setEditing(null);
            labels.set(labelKey(editTarget.slug, locale, String(d.id)), docLabel(editTarget, d));
          }}
        />
      )}
    </div>
  );
}

type Option = { target: CollectionConfig; doc: Doc };

/** A combobox whose options come from several collections at once, each group headed by its name. */
function SearchAcross(props: {
  attrs: ReturnType<typeof useControlProps>;
  targets: CollectionConfig[];
  locale: string | undefined;
  exclude: string[];
  onPick: (t: CollectionConfig, d: Doc) => void;
  placeholder: string;
}) {
  const { attrs } = props;
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<Option[] | null>(null);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const listId = `${attrs.id}-list`;

  useEffect(() => {
    if (!open) return;
    let live = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      Promise.all(
        props.targets.map((target) =>
          docs
            .list(target.slug, { where: searchWhere(target, q), limit: PER_COLLECTION, locale: props.locale })
            .then((r) => r.docs.map((doc) => ({ target, doc }))),
        ),
      )
        .then((groups) => {
          if (!live) return;
          setOptions(groups.flat());
          setError(null);
        })
        .catch((e) => live && setError(message(e)));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer.current);
    };
  }, [open, q, props.locale]);

  const shown = (options ?? []).filter((o) => !props.exclude.includes(`${o.target.slug}:${o.doc.id}`));
  const choose = (o: Option) => {
    props.onPick(o.target, o.doc);
    setQ('');
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
          } else if (e.key === 'Enter' && open && shown[active]) {
            e.preventDefault();
            choose(shown[active]!);
          } else if (e.key === 'Escape' && open) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      {open && (
        <ul class="combo-list" role="listbox" id={listId} aria-label={t('fields.matching')}>
          {error ? (
            <li class="combo-note field-error">{error}</li>
          ) : !options ? (
            <li class="combo-note muted">{t('fields.searching')}</li>
          ) : shown.length === 0 ? (
            <li class="combo-note muted">{q ? t('fields.noMatch', { q }) : t('fields.nothingToChooseDot')}</li>
          ) : (
            shown.map((o, i) => (
              <li
                key={`${o.target.slug}:${o.doc.id}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'active' : ''}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o);
                }}
              >
                {docLabel(o.target, o.doc)}
                <span class="muted small"> {singularLabel(o.target)}</span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
