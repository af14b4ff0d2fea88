/**
 * The value of a relationship filter: the documents chosen with the relationship field's own picker
 * (search by title, arrows, Enter), shown as chips by their titles; the address keeps their ids
 * (`in`/`not_in` a comma-separated list). For a relationship to several collections the collection is
 * picked first (filter-builder.tsx adds its `relationTo` row). A chunk of its own, fetched on first use.
 */
import type { Doc } from '../api.ts';
import { findCollection, useApp } from '../app-context.ts';
import { docLabel, singularLabel } from '../format.ts';
import { ChipList } from '../form/choice-fields.tsx';
import { labelKey, labels } from '../form/choice-labels.ts';
import { DocumentCombobox, useLabels } from '../form/relationship-field.tsx';
import { t } from '../i18n/i18n.ts';
import type { Condition, FilterField } from './list-filter.ts';

export function RelationValue(props: {
  field: FilterField;
  condition: Condition;
  id: string;
  label: string;
  collection: string | undefined;
  onCollection: (slug: string) => void;
  onChange: (value: string) => void;
}) {
  const { config, locale } = useApp();
  const target = findCollection(config, props.collection);
  const many = props.condition.op === 'in' || props.condition.op === 'not_in';
  const ids = props.condition.value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const labelOf = useLabels(target, ids, locale);
  const several = Array.isArray(props.field.relationTo) ? props.field.relationTo : null;

  const pick = (d: Doc) => {
    const id = String(d.id);
    if (target) labels.set(labelKey(target.slug, locale, id), docLabel(target, d));
    props.onChange(many ? [...ids.filter((x) => x !== id), id].join(',') : id);
  };
  const remove = (id: string) => props.onChange(ids.filter((x) => x !== id).join(','));

  return (
    <div class="relation-filter">
      {several && (
        <select
          aria-label={t('filter.collectionOf', { label: props.label })}
          value={props.collection}
          onChange={(e) => props.onCollection(e.currentTarget.value)}
        >
          {several.map((slug) => {
            const c = findCollection(config, slug);
            return (
              <option key={slug} value={slug}>
                {c ? singularLabel(c) : slug}
              </option>
            );
          })}
        </select>
      )}
      <ChipList ids={ids} labelOf={labelOf} onRemove={remove} disabled={false} />
      {target && (
        <DocumentCombobox
          attrs={{ id: props.id, 'aria-label': props.label }}
          target={target}
          locale={locale}
          exclude={ids}
          onPick={pick}
          placeholder={t('filter.searchDocuments', {
            label: singularLabel(target),
            labelLower: singularLabel(target).toLowerCase(),
          })}
        />
      )}
    </div>
  );
}
