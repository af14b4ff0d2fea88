/**
 * `relationship` field: a searchable picker over the related collection (server-side `like` search on its
 * title, 10 at a time with "More"), chosen documents as chips with their names (fetched by id, so any
 * document shows its name, not `#108`), and a drawer (document-drawer.tsx, its own chunk) to edit a chosen
 * document or create a new one without leaving the form.
 */
import { useEffect, useState } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { docLabel, singularLabel } from '../format.ts';
import { t } from '../i18n/i18n.ts';
import { LazyView } from '../lazy.tsx';
import { Icon } from '../ui.tsx';
import { ChipList } from './choice-fields.tsx';
import { labelKey, labels } from './choice-labels.ts';
import { Combobox, type Found } from './combobox.tsx';
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
        <DocumentCombobox
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

/** The search box of a relationship to one collection: its documents by title, 10 at a time with "More". */
export function DocumentCombobox(props: {
  attrs: { id: string; 'aria-label'?: string } & Partial<ReturnType<typeof useControlProps>>;
  target: CollectionConfig;
  locale: string | undefined;
  exclude: string[];
  onPick: (d: Doc) => void;
  placeholder: string;
}) {
  const { target } = props;
  const search = async (q: string, page: number): Promise<Found<Doc>> => {
    const title = target.admin?.useAsTitle;
    const r = await docs.list(target.slug, {
      where: searchWhere(target, q),
      limit: PAGE,
      page,
      sort: title && title !== 'id' && !target.builtIn ? title : undefined,
      locale: props.locale,
    });
    return { options: r.docs, total: r.hasNextPage ? r.totalDocs : undefined };
  };
  return (
    <Combobox
      attrs={props.attrs}
      placeholder={props.placeholder}
      listLabel={t('fields.matchingOf', {
        label: singularLabel(target),
        labelLower: singularLabel(target).toLowerCase(),
      })}
      search={search}
      deps={[target.slug, props.locale]}
      keyOf={(d) => String(d.id)}
      exclude={props.exclude}
      render={(d) => (
        <>
          {docLabel(target, d)}
          <span class="muted small"> #{String(d.id)}</span>
        </>
      )}
      onPick={props.onPick}
    />
  );
}

const loadDrawer = () => import('./document-drawer.tsx');

/** The related document's form in a drawer, fetched the first time one opens. */
export function RelatedDrawer(props: DocumentDrawerProps) {
  return <LazyView load={loadDrawer} props={props} />;
}
