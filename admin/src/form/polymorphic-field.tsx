/**
 * A relationship whose `relationTo` is a list: one search box looks through every collection it names
 * (a few results of each, grouped), and the value is `{ relationTo, value }` (a list of them with
 * `hasMany`). Chosen documents show as chips naming their collection, each with "Edit" (the drawer).
 */
import { useEffect, useState } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { docLabel, singularLabel } from '../format.ts';
import { ChipList } from './choice-fields.tsx';
import { Combobox, type Found } from './combobox.tsx';
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

/** A combobox whose options come from several collections at once, a few of each. */
function SearchAcross(props: {
  attrs: ReturnType<typeof useControlProps>;
  targets: CollectionConfig[];
  locale: string | undefined;
  exclude: string[];
  onPick: (t: CollectionConfig, d: Doc) => void;
  placeholder: string;
}) {
  const search = async (q: string): Promise<Found<Option>> => {
    const groups = await Promise.all(
      props.targets.map((target) =>
        docs
          .list(target.slug, { where: searchWhere(target, q), limit: PER_COLLECTION, locale: props.locale })
          .then((r) => r.docs.map((doc) => ({ target, doc }))),
      ),
    );
    return { options: groups.flat() };
  };
  return (
    <Combobox
      attrs={props.attrs}
      placeholder={props.placeholder}
      listLabel={t('fields.matching')}
      search={search}
      deps={[props.locale]}
      keyOf={(o) => `${o.target.slug}:${o.doc.id}`}
      exclude={props.exclude}
      render={(o) => (
        <>
          {docLabel(o.target, o.doc)}
          <span class="muted small"> {singularLabel(o.target)}</span>
        </>
      )}
      onPick={(o) => props.onPick(o.target, o.doc)}
    />
  );
}
