/**
 * `blocks`: a list of rows, each one of the field's blocks. A picker shows each block (label, image or
 * description); rows can be inserted anywhere, moved (buttons, Alt+↑/↓ on a row's heading, or dragged by
 * the handle), duplicated, folded one by one or all at once, and removed. A folded row counts its errors.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Block, Doc } from '../api.ts';
import { humanize, newRowId } from '../format.ts';
import { Icon } from '../ui.tsx';
import { Modal } from '../ui/modal.tsx';
import { FieldList, LabelText, renderOnChange, RowButton } from './fields.tsx';
import { errorCountText, errorsUnder, inputId, useForm, type FieldProps } from './form-context.ts';
import { dataFields, newRow } from './values.ts';
import { t, tn, localizedLabel } from '../i18n/i18n.ts';

export const blockLabel = (b: Block) => localizedLabel(b.labels?.singular) ?? humanize(b.slug);

/** A row's heading: its `blockName`, else its first text value, else the block's name and number. */
export function blockRowTitle(row: Doc, block: Block | undefined, index: number): string {
  if (typeof row.blockName === 'string' && row.blockName.trim()) return row.blockName;
  for (const f of dataFields(block?.fields ?? [])) {
    const v = row[f.name];
    if ((f.type === 'text' || f.type === 'email' || f.type === 'textarea') && typeof v === 'string' && v.trim())
      return v;
  }
  return `${block ? blockLabel(block) : t('fields.block')} ${index + 1}`;
}

/** A copy with new ids for the row and every nested row, so ids stay unique in the document. */
function copyRow(row: Doc): Doc {
  const renew = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(renew);
    if (v && typeof v === 'object') {
      const out: Doc = {};
      for (const [k, x] of Object.entries(v)) out[k] = renew(x);
      if ('id' in out && typeof out.id === 'string') out.id = newRowId();
      return out;
    }
    return v;
  };
  return renew(structuredClone(row)) as Doc;
}

export function BlocksField(props: FieldProps<Doc[]>) {
  const form = useForm();
  const { field, path } = props;
  const rows = Array.isArray(props.value) ? props.value : [];
  const blocks = field.blocks ?? [];
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [picking, setPicking] = useState<number | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const focusAfter = useRef<{ key: string; target: string } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const error = form.errors[path];
  const labelId = `${inputId(path)}-label`;
  const disabled = form.disabled || Boolean(field.admin?.readOnly);
  const full = field.maxRows !== undefined && rows.length >= field.maxRows;

  // Before the next keystroke arrives: focus moves with the row that was added or moved.
  useLayoutEffect(() => {
    const want = focusAfter.current;
    if (!want) return;
    focusAfter.current = null;
    listRef.current?.querySelector<HTMLElement>(`[data-row="${want.key}"] ${want.target}`)?.focus();
  });

  const keyOf = (row: Doc, i: number) => String(row.id ?? `i${i}`);
  const blockOf = (row: Doc) => blocks.find((b) => b.slug === row.blockType);
  const set = (next: Doc[]) => props.onChange(next);
  const move = (from: number, to: number, focus?: string) => {
    if (to < 0 || to >= rows.length || from === to) return;
    const next = [...rows];
    const [row] = next.splice(from, 1);
    next.splice(to, 0, row!);
    if (focus) focusAfter.current = { key: keyOf(row!, from), target: focus };
    set(next);
  };
  const insert = (at: number, block: Block) => {
    const row = { ...newRow(block.fields), blockType: block.slug };
    focusAfter.current = { key: String(row.id), target: '.row-body :is(input, textarea, select)' };
    set([...rows.slice(0, at), row, ...rows.slice(at)]);
    setPicking(null);
  };
  const duplicate = (i: number) => {
    const row = copyRow(rows[i]!);
    focusAfter.current = { key: String(row.id), target: '.row-toggle' };
    set([...rows.slice(0, i + 1), row, ...rows.slice(i + 1)]);
  };
  const remove = (i: number) => {
    const next = rows.filter((_, j) => j !== i);
    const neighbour = next[Math.min(i, next.length - 1)];
    if (neighbour) focusAfter.current = { key: keyOf(neighbour, Math.min(i, next.length - 1)), target: '.row-toggle' };
    set(next);
  };
  const toggle = (key: string) => {
    const next = new Set(collapsed);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setCollapsed(next);
  };
  const allCollapsed = rows.length > 0 && rows.every((r, i) => collapsed.has(keyOf(r, i)));
  // The rows get one object whose functions call this render's handlers: a row renders again only when
  // its own value or state changed, not on every keystroke elsewhere in the list.
  const latest = useRef<RowActions | null>(null);
  latest.current = {
    move,
    toggle,
    duplicate,
    remove,
    pickAt: setPicking,
    drag: setDragging,
    dropAt: setDropAt,
    dropOn: (i) => {
      if (dragging !== null) move(dragging, i);
      setDragging(null);
      setDropAt(null);
    },
    change: (i, v) => set(rows.map((r, j) => (j === i ? v : r))),
  };
  const actions = useMemo<RowActions>(
    () => ({
      move: (...a) => latest.current!.move(...a),
      toggle: (...a) => latest.current!.toggle(...a),
      duplicate: (...a) => latest.current!.duplicate(...a),
      remove: (...a) => latest.current!.remove(...a),
      pickAt: (...a) => latest.current!.pickAt(...a),
      drag: (...a) => latest.current!.drag(...a),
      dropAt: (...a) => latest.current!.dropAt(...a),
      dropOn: (...a) => latest.current!.dropOn(...a),
      change: (...a) => latest.current!.change(...a),
    }),
    [],
  );

  return (
    <div
      class={`field field-blocks ${error ? 'has-error' : ''}`}
      data-path={path}
      role="group"
      aria-labelledby={labelId}
    >
      <div class="array-head">
        <span class="field-label" id={labelId}>
          <LabelText field={field} />
        </span>
        <span class="muted small">{tn('fields.blocks', rows.length)}</span>
        {rows.length > 1 && (
          <button
            type="button"
            class="ghost small"
            onClick={() => setCollapsed(allCollapsed ? new Set() : new Set(rows.map(keyOf)))}
          >
            {allCollapsed ? t('fields.expandAll') : t('fields.collapseAll')}
          </button>
        )}
      </div>
      {typeof field.admin?.description === 'string' && <p class="field-description">{field.admin.description}</p>}
      {error && <p class="field-error">{error}</p>}
      <ol class="rows" ref={listRef}>
        {rows.map((row, i) => {
          const key = keyOf(row, i);
          return (
            <BlockRow
              key={key}
              rowKey={key}
              row={row}
              index={i}
              last={i === rows.length - 1}
              block={blockOf(row)}
              path={`${path}.${i}`}
              open={!collapsed.has(key)}
              dropTarget={dropAt === i && dragging !== null && dragging !== i}
              dragged={dragging === i}
              dragging={dragging !== null}
              disabled={disabled}
              full={full}
              actions={actions}
            />
          );
        })}
      </ol>
      <button
        type="button"
        class="add-row"
        disabled={disabled || full || blocks.length === 0}
        onClick={() => setPicking(rows.length)}
      >
        <Icon name="plus" /> {rows.length ? t('fields.addAnotherBlock') : t('fields.addBlock')}
      </button>
      {picking !== null && (
        <BlockPicker blocks={blocks} onPick={(b) => insert(picking, b)} onClose={() => setPicking(null)} />
      )}
    </div>
  );
}

type RowActions = {
  move: (from: number, to: number, focus?: string) => void;
  toggle: (key: string) => void;
  duplicate: (i: number) => void;
  remove: (i: number) => void;
  pickAt: (at: number | null) => void;
  drag: (i: number | null) => void;
  dropAt: (i: number | null) => void;
  /** The row being dragged is dropped on row `i`. */
  dropOn: (i: number) => void;
  change: (i: number, row: Doc) => void;
};

/** One row of a blocks field; it renders again only when its own value or state changed. */
const BlockRow = renderOnChange(function BlockRow(p: {
  rowKey: string;
  row: Doc;
  index: number;
  last: boolean;
  block: Block | undefined;
  path: string;
  open: boolean;
  dropTarget: boolean;
  dragged: boolean;
  dragging: boolean;
  disabled: boolean;
  full: boolean;
  actions: RowActions;
}) {
  const form = useForm();
  const { row, index: i, block, open, disabled, full, actions } = p;
  const { move, toggle, duplicate, remove } = actions;
  const setPicking = actions.pickAt;
  const setDragging = actions.drag;
  const setDropAt = actions.dropAt;
  const key = p.rowKey;
  const title = blockRowTitle(row, block, i);
  const rowPath = p.path;
  const rowError = form.errors[rowPath] ?? form.errors[`${rowPath}.blockType`];
  const errors = errorsUnder(form.errors, [rowPath]);
  return (
    <li
      class={`row block-row${p.dropTarget ? ' drop-target' : ''}${errors ? ' has-error' : ''}`}
      data-row={key}
      draggable={p.dragged}
      onDragStart={(e) => {
        e.dataTransfer?.setData('text/plain', String(i));
        if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
      }}
      onDragOver={(e) => {
        if (!p.dragging) return;
        e.preventDefault();
        setDropAt(i);
      }}
      onDrop={(e) => {
        e.preventDefault();
        actions.dropOn(i);
      }}
      onDragEnd={() => {
        setDragging(null);
        setDropAt(null);
      }}
    >
      <div class="row-head">
        <span
          class="drag-handle"
          aria-hidden="true"
          title={t('fields.drag')}
          onPointerDown={() => !disabled && setDragging(i)}
          onPointerUp={() => setDragging(null)}
        >
          <Icon name="drag" />
        </span>
        <button
          type="button"
          class="row-toggle"
          aria-expanded={open}
          aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown"
          onClick={() => toggle(key)}
          onKeyDown={(e) => {
            if (!e.altKey || disabled || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
            e.preventDefault();
            move(i, e.key === 'ArrowUp' ? i - 1 : i + 1, '.row-toggle');
          }}
        >
          <Icon name="chevron" />
          <span class="row-title">{title}</span>
          <span class="block-type muted small">{block ? blockLabel(block) : String(row.blockType ?? '?')}</span>
          {errors > 0 && <span class="error-count">{errorCountText(errors)}</span>}
        </button>
        <div class="row-actions">
          <RowButton
            icon="up"
            disabled={disabled || i === 0}
            label={t('fields.moveUpNamed', { title })}
            title={t('fields.moveUp')}
            onClick={() => move(i, i - 1, `button[aria-label="${CSS.escape(t('fields.moveUpNamed', { title }))}"]`)}
          />
          <RowButton
            icon="down"
            disabled={disabled || p.last}
            label={t('fields.moveDownNamed', { title })}
            title={t('fields.moveDown')}
            onClick={() => move(i, i + 1, `button[aria-label="${CSS.escape(t('fields.moveDownNamed', { title }))}"]`)}
          />
          <RowButton
            icon="plus"
            disabled={disabled || full}
            label={t('fields.addAfter', { title })}
            title={t('fields.addBelow')}
            onClick={() => setPicking(i + 1)}
          />
          <RowButton
            icon="copy"
            disabled={disabled || full}
            label={t('fields.duplicateNamed', { title })}
            title={t('edit.duplicate')}
            onClick={() => duplicate(i)}
          />
          <RowButton
            icon="trash"
            danger
            disabled={disabled}
            label={t('fields.removeNamed', { title })}
            title={t('fields.remove')}
            onClick={() => remove(i)}
          />
        </div>
      </div>
      {rowError && <p class="field-error">{rowError}</p>}
      <div class="row-body" hidden={!open}>
        {block ? (
          <FieldList fields={block.fields} value={row} path={rowPath} onChange={(v) => actions.change(i, v)} />
        ) : (
          <p class="muted">{t('fields.unknownBlock', { type: String(row.blockType) })}</p>
        )}
      </div>
    </li>
  );
});

/** The blocks to choose from, as buttons with their label and, when configured, image and description. */
export function BlockPicker(props: { blocks: Block[]; onPick: (b: Block) => void; onClose: () => void }) {
  const [q, setQ] = useState('');
  const needle = q.trim().toLowerCase();
  const shown = props.blocks.filter(
    (b) => !needle || blockLabel(b).toLowerCase().includes(needle) || b.slug.includes(needle),
  );
  return (
    <Modal title={t('fields.addBlock')} onClose={props.onClose} wide>
      {props.blocks.length > 6 && (
        <input
          type="search"
          class="block-search"
          aria-label={t('fields.filterBlocks')}
          placeholder={t('fields.filterBlocksHint')}
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
      )}
      <ul class="block-choices">
        {shown.map((b) => (
          <li key={b.slug}>
            <button type="button" class="block-choice" onClick={() => props.onPick(b)}>
              {b.imageURL && <img src={b.imageURL} alt="" loading="lazy" />}
              <strong>{blockLabel(b)}</strong>
              {typeof b.admin?.description === 'string' && <span class="muted small">{b.admin.description}</span>}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
