/**
 * The field's blocks inside the text, edited with the blocks field's own editors: a `block` node shows its
 * row's fields in the text, an `inlineBlock` node is a chip that opens them in a dialog. Both are Preact
 * portals into the DOM element Lexical made for the node, so they share the document form's context: the
 * server's errors, keyed by the node's path in the stored JSON (`content.root.children.3.fields.title`),
 * land on the inputs without any mapping.
 */
import { createPortal } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  $getNodeByKey,
  $getRoot,
  $isElementNode,
  stopLexicalPropagation,
  type LexicalEditor,
  type LexicalNode,
} from 'lexical';
import type { Block, Doc } from '../api.ts';
import { blockLabel, blockRowTitle } from '../form/blocks-field.tsx';
import { FieldList } from '../form/fields.tsx';
import { errorCountText, errorsUnder, pathWriter, useForm } from '../form/form-context.ts';
import { newRow } from '../form/values.ts';
import { Icon } from '../ui.tsx';
import { Modal } from '../ui/modal.tsx';
import { toast } from '../ui/toasts.tsx';
import type { EmbedData } from './embed-nodes.ts';
import { t } from '../i18n/i18n.ts';

/** One block node on screen: Lexical's key, its JSON and its dotted path in the stored value. */
export type BlockEmbed = { key: string; data: EmbedData; path: string };

/** The block and inline block nodes of the editor, with their paths as the API will see them. */
export function $collectBlockEmbeds(base: string): BlockEmbed[] {
  const out: BlockEmbed[] = [];
  const walk = (node: LexicalNode, path: string) => {
    const type = node.getType();
    if (type === 'block' || type === 'inlineBlock')
      out.push({ key: node.getKey(), data: (node as unknown as { __data: EmbedData }).__data, path });
    if ($isElementNode(node)) node.getChildren().forEach((child, i) => walk(child, `${path}.children.${i}`));
  };
  walk($getRoot(), `${base}.root`);
  return out;
}

/** A new node's JSON, in the shape Payload stores: the row's fields with `id`, `blockType` and `blockName`. */
export function newBlockData(block: Block, inline: boolean): EmbedData {
  const fields = { ...newRow(block.fields), blockName: '', blockType: block.slug };
  return inline ? { type: 'inlineBlock', fields, version: 1 } : { type: 'block', fields, format: '', version: 2 };
}

/** Events inside a block's inputs are the inputs' own: Lexical must not read them as typing in the text. */
const OWN_EVENTS = [
  'keydown',
  'keyup',
  'keypress',
  'beforeinput',
  'input',
  'paste',
  'cut',
  'copy',
  'drop',
  'dragstart',
  'dragover',
  'compositionstart',
  'compositionupdate',
  'compositionend',
  'click',
  'mousedown',
  'pointerdown',
];

export function BlockEmbeds(props: {
  editor: LexicalEditor;
  embeds: BlockEmbed[];
  blocks: Block[];
  focusKey: string | null;
  onFocused: () => void;
}) {
  return (
    <>
      {props.embeds.map((embed) => {
        const element = props.editor.getElementByKey(embed.key);
        return element
          ? createPortal(<BlockEmbedView key={embed.key} {...props} embed={embed} element={element} />, element)
          : null;
      })}
    </>
  );
}

function BlockEmbedView(props: {
  editor: LexicalEditor;
  embed: BlockEmbed;
  blocks: Block[];
  element: HTMLElement;
  focusKey: string | null;
  onFocused: () => void;
}) {
  const form = useForm();
  const { editor, embed } = props;
  const inline = embed.data.type === 'inlineBlock';
  const row = (embed.data.fields ?? {}) as Doc;
  const block = props.blocks.find((b) => b.slug === row.blockType);
  const title = blockRowTitle(row, block, 0);
  const errors = errorsUnder(form.errors, [embed.path]);
  const nodeError =
    form.errors[embed.path] ?? form.errors[`${embed.path}.fields`] ?? form.errors[`${embed.path}.fields.blockType`];
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const off = OWN_EVENTS.map((name) => {
      const stop = (e: Event) => stopLexicalPropagation(e);
      props.element.addEventListener(name, stop);
      return () => props.element.removeEventListener(name, stop);
    });
    return () => off.forEach((f) => f());
  }, [props.element]);

  // A node just inserted from the toolbar takes the focus: its first input, or its dialog.
  useEffect(() => {
    if (props.focusKey !== embed.key) return;
    props.onFocused();
    if (inline) setOpen(true);
    else box.current?.querySelector<HTMLElement>('input, textarea, select')?.focus();
  }, [props.focusKey]);

  // Each input writes its own path into the node's fields as they are at that moment.
  const writer = useMemo(
    () =>
      pathWriter(
        (change) =>
          editor.update(() => {
            const node = $getNodeByKey(embed.key) as unknown as { getWritable(): { __data: EmbedData } } | null;
            if (!node) return;
            const writable = node.getWritable();
            writable.__data = { ...writable.__data, fields: change((writable.__data.fields ?? {}) as Doc) };
          }),
        `${embed.path}.fields`,
      ),
    [editor, embed.key, embed.path],
  );
  /** Removing is one step of the editor's history: the focus goes back to the text, where Ctrl+Z undoes it. */
  const remove = () => {
    editor.update(() => {
      const node = $getNodeByKey(embed.key);
      if (!node) return;
      node.selectPrevious();
      node.remove();
    });
    editor.getRootElement()?.focus({ preventScroll: true });
    toast(t('rt.blockRemoved'), 'info');
  };
  const fieldsForm = block ? (
    <FieldList fields={block.fields} value={row} path={`${embed.path}.fields`} writer={writer} />
  ) : (
    <p class="muted">{t('rt.unknownBlock', { type: String(row.blockType) })}</p>
  );
  const heading = (
    <>
      <strong class="rt-block-title">{title}</strong>
      <span class="muted small">{block ? blockLabel(block) : String(row.blockType ?? '?')}</span>
      {errors > 0 && <span class="error-count">{errorCountText(errors)}</span>}
    </>
  );

  if (inline) {
    return (
      <span class={`rt-inline-block${errors ? ' has-error' : ''}`} data-path={embed.path}>
        <button
          type="button"
          class="rt-chip"
          aria-haspopup="dialog"
          aria-label={`${t('rt.editInline', { title })}${errors ? `, ${errorCountText(errors)}` : ''}`}
          disabled={form.disabled}
          onClick={() => setOpen(true)}
        >
          {heading}
        </button>
        {open && (
          <Modal
            title={t('rt.inlineTitle', { label: block ? blockLabel(block) : String(row.blockType) })}
            onClose={() => setOpen(false)}
            footer={
              <button type="button" onClick={() => setOpen(false)}>
                {t('rt.done')}
              </button>
            }
          >
            <div
              class="rt-block-form"
              onKeyDown={(e) =>
                e.key === 'Enter' &&
                (e.target as HTMLElement).tagName === 'INPUT' &&
                (e.preventDefault(), setOpen(false))
              }
            >
              {nodeError && <p class="field-error">{nodeError}</p>}
              {fieldsForm}
            </div>
            <button type="button" class="danger-text" onClick={() => (setOpen(false), remove())}>
              {t('rt.removeInline')}
            </button>
          </Modal>
        )}
      </span>
    );
  }
  return (
    <div
      ref={box}
      class={`rt-block${errors ? ' has-error' : ''}`}
      role="group"
      aria-label={t('rt.block', { title })}
      data-path={embed.path}
    >
      <div class="rt-block-head">
        {heading}
        <button
          type="button"
          class="icon-button danger-text"
          aria-label={t('rt.removeBlock', { title })}
          title={t('rt.remove')}
          disabled={form.disabled}
          onClick={remove}
        >
          <Icon name="x" />
        </button>
      </div>
      {nodeError && <p class="field-error">{nodeError}</p>}
      <div class="rt-block-form">{fieldsForm}</div>
    </div>
  );
}
