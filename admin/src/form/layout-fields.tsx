/**
 * Fields that arrange others without a value of their own: `row` (side by side), `collapsible` (a section
 * that folds) and `tabs`. They edit the value of the list they sit in; only a named tab keeps its fields
 * under its own name. Tabs and folded sections count the errors inside them.
 */
import { useRef, useState } from 'preact/hooks';
import type { Doc, Field, Tab } from '../api.ts';
import { fieldLabel } from '../format.ts';
import { Icon } from '../ui.tsx';
import { FieldList } from './fields.tsx';
import { errorCountText, errorsUnder, inputId, useForm } from './form-context.ts';
import { dataFields } from './values.ts';
import { localizedLabel, t } from '../i18n/i18n.ts';

interface LayoutProps {
  field: Field;
  /** The path of the list the layout field sits in ('' at the top). */
  path: string;
  value: Doc;
  onChange: (v: Doc) => void;
}

const join = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

/** The value paths a set of fields covers, for counting their errors. */
export const pathsOf = (fields: Field[], prefix: string) => dataFields(fields).map((f) => join(prefix, f.name));

export function LayoutField(props: LayoutProps) {
  if (props.field.type === 'tabs') return <TabsField {...props} />;
  if (props.field.type === 'collapsible') return <CollapsibleField {...props} />;
  return (
    <div class="field-row">
      <FieldList
        fields={props.field.fields ?? []}
        value={props.value}
        onChange={props.onChange}
        path={props.path || undefined}
      />
    </div>
  );
}

function ErrorBadge(props: { count: number }) {
  return props.count > 0 ? <span class="error-count">{errorCountText(props.count)}</span> : null;
}

function CollapsibleField(props: LayoutProps) {
  const form = useForm();
  const [open, setOpen] = useState(!props.field.admin?.initCollapsed);
  const fields = props.field.fields ?? [];
  const errors = errorsUnder(form.errors, pathsOf(fields, props.path));
  const label = localizedLabel(props.field.label) ?? t('form.details');
  return (
    <section class="collapsible">
      <button type="button" class="collapsible-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name="chevron" />
        <span>{label}</span>
        <ErrorBadge count={errors} />
      </button>
      {/* Hidden rather than removed, so a save's error can still find and focus its input. */}
      <div class="collapsible-body" hidden={!open}>
        <FieldList fields={fields} value={props.value} onChange={props.onChange} path={props.path || undefined} />
      </div>
    </section>
  );
}

const tabPath = (tab: Tab, prefix: string) => (tab.name ? join(prefix, tab.name) : prefix);

function TabsField(props: LayoutProps) {
  const form = useForm();
  const tabs = props.field.tabs ?? [];
  const [current, setCurrent] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const base = inputId(`tabs-${props.path}-${tabs.map((t) => t.name ?? localizedLabel(t.label) ?? '').join('-')}`);
  const counts = tabs.map((tab) =>
    tab.name
      ? errorsUnder(form.errors, [tabPath(tab, props.path)])
      : errorsUnder(form.errors, pathsOf(tab.fields, props.path)),
  );

  const select = (i: number) => {
    const next = (i + tabs.length) % tabs.length;
    setCurrent(next);
    buttons.current[next]?.focus();
  };

  return (
    <div class="tabs-field">
      <div class="tabs" role="tablist" aria-label={localizedLabel(props.field.label) ?? t('form.sections')}>
        {tabs.map((tab, i) => (
          <button
            type="button"
            role="tab"
            key={i}
            id={`${base}-tab-${i}`}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            aria-selected={i === current}
            aria-controls={`${base}-panel-${i}`}
            tabIndex={i === current ? 0 : -1}
            onClick={() => setCurrent(i)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') select(i + 1);
              else if (e.key === 'ArrowLeft') select(i - 1);
              else if (e.key === 'Home') select(0);
              else if (e.key === 'End') select(tabs.length - 1);
              else return;
              e.preventDefault();
            }}
          >
            {localizedLabel(tab.label) ??
              (tab.name ? fieldLabel({ name: tab.name, type: 'group' }) : t('form.tabN', { n: i + 1 }))}
            <ErrorBadge count={counts[i] ?? 0} />
          </button>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div
          role="tabpanel"
          class="tab-panel"
          key={i}
          id={`${base}-panel-${i}`}
          aria-labelledby={`${base}-tab-${i}`}
          hidden={i !== current}
        >
          {tab.description && <p class="field-description">{tab.description}</p>}
          {tab.name ? (
            <FieldList
              fields={tab.fields}
              value={(props.value[tab.name] as Doc) ?? {}}
              onChange={(v) => props.onChange({ ...props.value, [tab.name!]: v })}
              path={tabPath(tab, props.path)}
            />
          ) : (
            <FieldList
              fields={tab.fields}
              value={props.value}
              onChange={props.onChange}
              path={props.path || undefined}
            />
          )}
        </div>
      ))}
    </div>
  );
}
