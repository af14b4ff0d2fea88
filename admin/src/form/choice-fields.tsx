/** Choosing from a list: `select` with `hasMany` as chips. Relationships have their own picker (relationship-field.tsx). */
import { t } from '../i18n/i18n.ts';
import { Icon } from '../ui.tsx';
import { fieldOptions } from '../format.ts';
import { useControlProps } from './fields.tsx';
import type { FieldProps } from './form-context.ts';

type Option = { value: string; label: string };

/** Chosen values as removable chips (shared with relationship-field.tsx); one without a known label shows as `#value`. */
export function ChipList(props: {
  ids: string[];
  labelOf: (id: string) => string | undefined;
  onRemove: (id: string) => void;
  onEdit?: (id: string) => void;
  disabled: boolean;
}) {
  if (props.ids.length === 0) return null;
  const label = (id: string) => props.labelOf(id) ?? `#${id}`;
  return (
    <ul class="chips" aria-label={t('fields.selected')}>
      {props.ids.map((id) => (
        <li class="chip" key={id}>
          <span>{label(id)}</span>
          {props.onEdit && (
            <button
              type="button"
              class="chip-edit"
              disabled={props.disabled}
              aria-label={t('drawer.editChip', { label: label(id) })}
              onClick={() => props.onEdit!(id)}
            >
              {t('drawer.edit')}
            </button>
          )}
          <button
            type="button"
            disabled={props.disabled}
            aria-label={t('fields.removeNamed', { title: label(id) })}
            onClick={() => props.onRemove(id)}
          >
            <Icon name="x" size={12} />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Chosen values as removable chips, plus a select to add one more. Keyboard-friendly, no popup to build. */
function Chips(
  props: FieldProps<unknown> & { options: Option[]; chosen: string[]; onPick: (values: string[]) => void },
) {
  const attrs = useControlProps(props);
  const rest = props.options.filter((o) => !props.chosen.includes(o.value));
  return (
    <div class="chips-field">
      <ChipList
        ids={props.chosen}
        labelOf={(v) => props.options.find((o) => o.value === v)?.label}
        onRemove={(v) => props.onPick(props.chosen.filter((x) => x !== v))}
        disabled={attrs.disabled}
      />
      <select
        {...attrs}
        class="narrow"
        value=""
        disabled={attrs.disabled || rest.length === 0}
        onChange={(e) => {
          const v = e.currentTarget.value;
          if (v) props.onPick([...props.chosen, v]);
          e.currentTarget.value = '';
        }}
      >
        <option value="">
          {rest.length === 0
            ? props.options.length
              ? t('fields.allChosen')
              : t('fields.nothingToChoose')
            : t('fields.addOption')}
        </option>
        {rest.map((o) => (
          <option value={o.value} key={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function MultiSelect(props: FieldProps<string[]>) {
  const chosen = Array.isArray(props.value) ? props.value.map(String) : [];
  return (
    <Chips
      {...(props as FieldProps<unknown>)}
      options={fieldOptions(props.field)}
      chosen={chosen}
      onPick={(v) => props.onChange(v)}
    />
  );
}

/** `radio`: one value from `options`, all of them visible; arrow keys move between them (native radios). */
export function RadioField(props: FieldProps<string | null>) {
  const attrs = useControlProps(props);
  const labelId = `${attrs.id}-label`;
  return (
    <div
      class="radios"
      role="radiogroup"
      aria-labelledby={labelId}
      aria-describedby={attrs['aria-describedby']}
      aria-invalid={attrs['aria-invalid']}
    >
      {fieldOptions(props.field).map((o, i) => (
        <label class="check" key={o.value}>
          <input
            type="radio"
            // The first radio carries the field's id so the label and error links find the group.
            id={i === 0 ? attrs.id : `${attrs.id}-${i}`}
            name={attrs.name}
            value={o.value}
            disabled={attrs.disabled}
            checked={props.value === o.value}
            onChange={() => props.onChange(o.value)}
          />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
}
