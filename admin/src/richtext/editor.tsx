/**
 * The rich text editor: Lexical's framework-free packages (one pinned version) wired to Preact. Loaded as
 * a chunk of its own (rich-text-field.tsx imports it on demand), so the admin's first load does not carry
 * Lexical. The value in and out is the Lexical JSON the API stores (docs/rich-text.md); Payload's link
 * `fields` are mapped onto Lexical's link node at the boundary (lexical-json.ts).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  $getSelection,
  $isRangeSelection,
  $createParagraphNode,
  $createTextNode,
  $setSelection,
  type BaseSelection,
  $getRoot,
  $insertNodes,
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_LOW,
  createEditor,
  FORMAT_TEXT_COMMAND,
  REDO_COMMAND,
  SELECTION_CHANGE_COMMAND,
  UNDO_COMMAND,
  type LexicalEditor,
  type TextFormatType,
} from 'lexical';
import {
  $createHeadingNode,
  $createQuoteNode,
  $isHeadingNode,
  HeadingNode,
  QuoteNode,
  registerRichText,
  type HeadingTagType,
} from '@lexical/rich-text';
import {
  $isListNode,
  INSERT_CHECK_LIST_COMMAND,
  INSERT_ORDERED_LIST_COMMAND,
  INSERT_UNORDERED_LIST_COMMAND,
  ListItemNode,
  ListNode,
  registerCheckList,
  registerList,
  REMOVE_LIST_COMMAND,
} from '@lexical/list';
import { $createLinkNode, $isLinkNode, $toggleLink, AutoLinkNode, LinkNode } from '@lexical/link';
import { createEmptyHistoryState, registerHistory } from '@lexical/history';
import { HorizontalRuleNode } from '@lexical/extension';
import {
  $convertFromMarkdownString,
  CHECK_LIST,
  ELEMENT_TRANSFORMERS,
  registerMarkdownShortcuts,
  TEXT_FORMAT_TRANSFORMERS,
  TEXT_MATCH_TRANSFORMERS,
} from '@lexical/markdown';
import { $setBlocksType } from '@lexical/selection';
import { $getNearestNodeOfType, $unwrapNode, mergeRegister } from '@lexical/utils';
import { $createEmbedNode, EMBED_NODES } from './embed-nodes.ts';
import { fromLexical, isAllowedLinkURL, toLexical } from './lexical-json.ts';
import { EDITOR_CSS } from './editor-css.ts';
import { DocumentDialog, LinkDialog, type LinkChoice } from './embed-dialogs.tsx';
import { MediaPicker } from '../form/upload-field.tsx';
import { BlockPicker } from '../form/blocks-field.tsx';
import type { Block } from '../api.ts';
import { $collectBlockEmbeds, BlockEmbeds, newBlockData, type BlockEmbed } from './block-embeds.tsx';
import { same } from '../form/values.ts';
import { t } from '../i18n/i18n.ts';
import { Toolbar, type RtIcon, type ToolButton } from './toolbar.tsx';
import { registerInternalLinks } from './internal-links.ts';
import { registerTrailingParagraph } from './trailing-paragraph.ts';
import { registerHtmlPaste } from './paste-html.ts';
import { FloatingToolbar } from './floating-toolbar.tsx';
import { SlashMenu, type SlashItem } from './slash-menu.tsx';
import { blockLabel } from '../form/blocks-field.tsx';
import { useApp } from '../app-context.ts';

type Value = Record<string, unknown> | string | null;
export type EditorProps = {
  id: string;
  /** The field's dotted path in the form: errors of blocks in the text are keyed below it. */
  path: string;
  value: Value;
  onChange: (value: Value) => void;
  readOnly?: boolean;
  features?: string[];
  /** The field's blocks, insertable as block or inline block nodes. */
  blocks?: Block[];
  label: string;
};

const TRANSFORMERS = [CHECK_LIST, ...ELEMENT_TRANSFORMERS, ...TEXT_FORMAT_TRANSFORMERS, ...TEXT_MATCH_TRANSFORMERS];
const formatButtons = (): [TextFormatType & RtIcon, string][] => [
  ['bold', t('rt.bold')],
  ['italic', t('rt.italic')],
  ['underline', t('rt.underline')],
  ['strikethrough', t('rt.strikethrough')],
  ['code', t('rt.code')],
];

type Dialog = { kind: 'link' | 'upload' | 'relationship' | 'block' | 'inlineBlock'; link: LinkChoice | null };
type Active = { formats: Set<string>; block: string; link: boolean; canUndo: boolean; canRedo: boolean };

export default function RichTextEditor(props: EditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<LexicalEditor | null>(null);
  const [active, setActive] = useState<Active>({
    formats: new Set(),
    block: 'paragraph',
    link: false,
    canUndo: false,
    canRedo: false,
  });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [embeds, setEmbeds] = useState<BlockEmbed[]>([]);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const blocks = props.blocks ?? [];
  // The latest props, for listeners registered once: writes go where the field is now.
  const onChangeRef = useRef(props.onChange);
  onChangeRef.current = props.onChange;
  const pathRef = useRef(props.path);
  pathRef.current = props.path;
  /** What the editor was given, what it showed of it, and what it last handed back. */
  const sync = useRef<Sync>({ given: null, loaded: null, emitted: null });
  const { config } = useApp();
  const on = (feature: string) => !props.features || props.features.includes(feature);

  useEffect(() => {
    injectStyles();
    const editor = createEditor({
      namespace: 'cms-richtext',
      nodes: [
        HeadingNode,
        QuoteNode,
        ListNode,
        ListItemNode,
        LinkNode,
        AutoLinkNode,
        HorizontalRuleNode,
        ...EMBED_NODES,
      ],
      editable: !props.readOnly,
      onError: (error) => console.error(error),
      theme: {
        text: {
          bold: 'rt-bold',
          italic: 'rt-italic',
          underline: 'rt-underline',
          strikethrough: 'rt-strike',
          code: 'rt-code',
        },
        list: { listitemChecked: 'rt-checked', listitemUnchecked: 'rt-unchecked' },
      },
    });
    editorRef.current = editor;
    editor.setRootElement(host.current);
    sync.current = loadValue(editor, props.value);
    let lastEmbeds = '';
    /** Keeps the list of block nodes (and their paths, which move as the text changes) for the portals. */
    const readEmbeds = () => {
      const next = editor.getEditorState().read(() => $collectBlockEmbeds(pathRef.current));
      const text = JSON.stringify(next);
      if (text !== lastEmbeds) {
        lastEmbeds = text;
        setEmbeds(next);
      }
    };
    readEmbeds();
    const unregister = mergeRegister(
      registerRichText(editor),
      registerList(editor),
      registerCheckList(editor),
      registerHistory(editor, createEmptyHistoryState(), 300),
      registerMarkdownShortcuts(editor, TRANSFORMERS),
      editor.registerNodeTransform(LinkNode, dropUnsafeLink),
      editor.registerNodeTransform(AutoLinkNode, dropUnsafeLink),
      registerInternalLinks(editor, config),
      registerTrailingParagraph(editor),
      registerHtmlPaste(editor),
      editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves }) => {
        editorState.read(() => setActive((a) => withActive(a, readActive())));
        readEmbeds();
        if (dirtyElements.size === 0 && dirtyLeaves.size === 0) return;
        const json = fromLexical(editorState.toJSON() as unknown as Record<string, unknown>);
        // The text as it was given (Lexical's key order and defaults aside) is handed back as given, so
        // opening a document, or undoing every change, leaves the form as stored.
        const value = same(json, sync.current.loaded) ? sync.current.given : json;
        if (same(value, sync.current.emitted)) return;
        sync.current.emitted = value;
        onChangeRef.current(value);
      }),
      editor.registerCommand(
        CAN_UNDO_COMMAND,
        (canUndo) => (setActive((a) => withActive(a, { canUndo })), false),
        COMMAND_PRIORITY_LOW,
      ),
      editor.registerCommand(
        CAN_REDO_COMMAND,
        (canRedo) => (setActive((a) => withActive(a, { canRedo })), false),
        COMMAND_PRIORITY_LOW,
      ),
      editor.registerCommand(
        SELECTION_CHANGE_COMMAND,
        () => (editor.getEditorState().read(() => setActive((a) => withActive(a, readActive()))), false),
        COMMAND_PRIORITY_LOW,
      ),
    );
    return () => {
      unregister();
      editor.setRootElement(null);
    };
  }, []);

  useEffect(() => {
    editorRef.current?.setEditable(!props.readOnly);
  }, [props.readOnly]);

  // A value from outside (a change loaded from elsewhere, a restored version, a discarded draft) replaces
  // the text, unless it is what the editor holds already, or the editor has the focus: what is being
  // typed is never replaced under the caret.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || same(props.value, sync.current.emitted)) return;
    if (host.current?.contains(document.activeElement)) return;
    sync.current = loadValue(editor, props.value);
  }, [props.value]);

  const run = (fn: (editor: LexicalEditor) => void) => () => {
    const editor = editorRef.current;
    if (editor) fn(editor);
  };
  const blockType = (tag: 'paragraph' | 'quote' | HeadingTagType) =>
    run((editor) =>
      editor.update(() => {
        const selection = $getSelection();
        if (!$isRangeSelection(selection)) return;
        const target = active.block === tag ? 'paragraph' : tag;
        $setBlocksType(selection, () =>
          target === 'paragraph'
            ? $createParagraphNode()
            : target === 'quote'
              ? $createQuoteNode()
              : $createHeadingNode(target),
        );
      }),
    );
  const list = (kind: 'bullet' | 'number' | 'check') =>
    run((editor) => {
      if (active.block === kind) editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined);
      else
        editor.dispatchCommand(
          kind === 'bullet'
            ? INSERT_UNORDERED_LIST_COMMAND
            : kind === 'number'
              ? INSERT_ORDERED_LIST_COMMAND
              : INSERT_CHECK_LIST_COMMAND,
          undefined,
        );
    });
  /** The selection before a dialog took the focus, put back when the dialog answers. */
  const saved = useRef<BaseSelection | null>(null);
  const openDialog = (kind: Dialog['kind']) =>
    run((editor) => {
      saved.current = editor.getEditorState().read(() => $getSelection()?.clone() ?? null);
      const current = kind === 'link' ? editor.getEditorState().read(readLink) : null;
      setDialog({ kind, link: current });
    });
  /**
   * The dialog goes at once, not at the next render, and the text has the focus before anything else
   * happens: a key pressed right after the answer reaches the text, never the closing dialog.
   */
  const leaveDialog = () => {
    (document.activeElement?.closest('dialog[open]') as HTMLDialogElement | null)?.close();
    setDialog(null);
    editorRef.current?.getRootElement()?.focus({ preventScroll: true });
  };
  const closeDialog = () => {
    leaveDialog();
    editorRef.current?.focus();
  };
  /** Runs `fn` in an update with the selection the dialog interrupted (committed at once). */
  const atSaved = (fn: () => void) => {
    leaveDialog();
    editorRef.current?.update(
      () => {
        if (saved.current) $setSelection(saved.current.clone());
        fn();
      },
      { discrete: true },
    );
  };
  const applyLink = (choice: LinkChoice) =>
    atSaved(() => {
      const attributes = { target: choice.newTab ? '_blank' : null, rel: choice.newTab ? 'noopener noreferrer' : null };
      const selection = $getSelection();
      if ($isRangeSelection(selection) && selection.isCollapsed() && !dialog?.link) {
        $insertNodes([$createLinkNode(choice.url, attributes).append($createTextNode(choice.label))]);
      } else {
        $toggleLink({ url: choice.url, ...attributes });
      }
      // The caret goes after the link: left on the linked text, the next key would replace it.
      const after = $getSelection();
      if ($isRangeSelection(after) && !after.isCollapsed()) {
        const end = after.isBackward() ? after.anchor : after.focus;
        const [key, offset, type] = [end.key, end.offset, end.type];
        after.anchor.set(key, offset, type);
        after.focus.set(key, offset, type);
      }
    });
  const insertEmbed = (data: Record<string, unknown> & { type: string }) =>
    atSaved(() => $insertNodes([$createEmbedNode(data)]));
  const insertBlock = (block: Block, inline: boolean) =>
    atSaved(() => {
      const node = $createEmbedNode(newBlockData(block, inline));
      $insertNodes([node]);
      setFocusKey(node.getKey());
    });

  const disabled = Boolean(props.readOnly);
  const tool = (
    label: string,
    icon: RtIcon,
    pressed: boolean | null,
    onClick: () => void,
    off = false,
  ): ToolButton => ({
    label,
    icon,
    pressed,
    onClick,
    disabled: off || disabled,
  });
  const formatTool = ([format, label]: [TextFormatType & RtIcon, string]) =>
    tool(
      label,
      format,
      active.formats.has(format),
      run((editor) => editor.dispatchCommand(FORMAT_TEXT_COMMAND, format)),
    );
  const hasBlocks = on('blocks') && blocks.length > 0;
  const toolList: (ToolButton | false)[] = [
    ...(on('heading')
      ? (['h1', 'h2', 'h3'] as const).map((tag) =>
          tool(t('rt.heading', { n: tag.slice(1) }), tag, active.block === tag, blockType(tag)),
        )
      : []),
    ...formatButtons()
      .filter(([format]) => on(format))
      .map(formatTool),
    on('list') && tool(t('rt.bulleted'), 'bullet', active.block === 'bullet', list('bullet')),
    on('list') && tool(t('rt.numbered'), 'number', active.block === 'number', list('number')),
    on('checklist') && tool(t('rt.checklist'), 'check', active.block === 'check', list('check')),
    on('quote') && tool(t('rt.quote'), 'quote', active.block === 'quote', blockType('quote')),
    on('link') && tool(t('rt.link'), 'link', active.link, openDialog('link')),
    on('upload') && tool(t('rt.insertImage'), 'image', null, openDialog('upload')),
    on('relationship') && tool(t('rt.insertDocument'), 'document', null, openDialog('relationship')),
    hasBlocks && tool(t('rt.insertBlock'), 'block', null, openDialog('block')),
    hasBlocks && tool(t('rt.insertInlineBlock'), 'inlineBlock', null, openDialog('inlineBlock')),
    tool(
      t('rt.undo'),
      'undo',
      null,
      run((editor) => editor.dispatchCommand(UNDO_COMMAND, undefined)),
      !active.canUndo,
    ),
    tool(
      t('rt.redo'),
      'redo',
      null,
      run((editor) => editor.dispatchCommand(REDO_COMMAND, undefined)),
      !active.canRedo,
    ),
  ];
  const tools = toolList.filter((b): b is ToolButton => b !== false);
  const selectionTools = tools.filter((b) =>
    (['bold', 'italic', 'underline', 'code', 'link'] as RtIcon[]).includes(b.icon),
  );
  /** Runs `fn` at the caret, as a dialog's answer would (the "/" menu's insertions). */
  const atCaret = (fn: () => void) =>
    run((editor) => {
      saved.current = editor.getEditorState().read(() => $getSelection()?.clone() ?? null);
      fn();
    });
  const slashItems: SlashItem[] = [
    { label: t('rt.paragraph'), run: blockType('paragraph') },
    ...tools
      .filter((b) => ['h1', 'h2', 'h3', 'bullet', 'number', 'check', 'quote', 'image', 'document'].includes(b.icon))
      .map((b) => ({ label: b.label, run: b.onClick })),
    ...(hasBlocks ? blocks.map((b) => ({ label: blockLabel(b), run: atCaret(() => insertBlock(b, false)) })) : []),
  ];
  return (
    <div class="rt-editor">
      <Toolbar label={t('rt.toolbar', { label: props.label })} buttons={tools} />
      <div
        ref={host}
        id={props.id}
        class="rt-content"
        contentEditable={!props.readOnly}
        role="textbox"
        aria-multiline="true"
        aria-label={props.label}
      />
      {editorRef.current && !props.readOnly && (
        <>
          <FloatingToolbar
            editor={editorRef.current}
            label={t('rt.selectionToolbar', { label: props.label })}
            buttons={selectionTools}
          />
          <SlashMenu editor={editorRef.current} id={`${props.id}-slash`} items={slashItems} />
        </>
      )}
      {dialog?.kind === 'link' && (
        <LinkDialog
          initial={dialog.link}
          onApply={applyLink}
          onRemove={dialog.link ? () => atSaved(() => $toggleLink(null)) : undefined}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'upload' && (
        <MediaPicker
          selected={null}
          onClose={closeDialog}
          onPick={(doc) =>
            insertEmbed({ type: 'upload', relationTo: 'media', value: doc.id, fields: null, format: '', version: 3 })
          }
        />
      )}
      {dialog?.kind === 'relationship' && (
        <DocumentDialog
          onClose={closeDialog}
          onPick={(slug, doc) =>
            insertEmbed({ type: 'relationship', relationTo: slug, value: doc.id, format: '', version: 2 })
          }
        />
      )}
      {(dialog?.kind === 'block' || dialog?.kind === 'inlineBlock') && (
        <BlockPicker
          blocks={blocks}
          onClose={closeDialog}
          onPick={(b) => insertBlock(b, dialog.kind === 'inlineBlock')}
        />
      )}
      {editorRef.current && (
        <BlockEmbeds
          editor={editorRef.current}
          embeds={embeds}
          blocks={blocks}
          focusKey={focusKey}
          onFocused={() => setFocusKey(null)}
        />
      )}
    </div>
  );
}

type Sync = { given: Value; loaded: unknown; emitted: Value };

/** Shows `value` in the editor and answers what it was given and what the editor made of it. */
function loadValue(editor: LexicalEditor, value: Value): Sync {
  load(editor, value);
  const loaded = fromLexical(editor.getEditorState().toJSON() as unknown as Record<string, unknown>);
  return { given: value, loaded, emitted: value };
}

function load(editor: LexicalEditor, value: Value): void {
  if (typeof value === 'string' && value.trim()) {
    editor.update(() => $convertFromMarkdownString(value, TRANSFORMERS), { discrete: true });
  } else if (value && typeof value === 'object' && 'root' in value) {
    editor.setEditorState(editor.parseEditorState(JSON.stringify(toLexical(value))));
  } else {
    editor.update(
      () => {
        const root = $getRoot();
        if (root.getChildrenSize() === 0) root.append($createParagraphNode());
      },
      { discrete: true },
    );
  }
}

/** The link around the selection, as the link dialog edits it. */
function readLink(): LinkChoice | null {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return null;
  const node = $getNearestNodeOfType(selection.anchor.getNode(), LinkNode);
  return node ? { url: node.getURL(), newTab: node.getTarget() === '_blank', label: node.getTextContent() } : null;
}

/** A link whose URL the API would never render (pasted `javascript:`) becomes its plain text. */
function dropUnsafeLink(node: LinkNode): void {
  if (!isAllowedLinkURL(node.getURL())) $unwrapNode(node);
}

/** Which formats, block type and link the selection is in, for the toolbar's pressed states. */
/**
 * `active` with `next` laid over it, or `active` itself when nothing shown changes: a key typed in the
 * same paragraph and format does not render the editor and its toolbar again.
 */
function withActive(active: Active, next: Partial<Active>): Active {
  const unchanged = (Object.keys(next) as (keyof Active)[]).every((k) => {
    const [was, now] = [active[k], next[k]];
    return was instanceof Set && now instanceof Set
      ? was.size === now.size && [...was].every((f) => now.has(f))
      : Object.is(was, now);
  });
  return unchanged ? active : { ...active, ...next };
}

function readActive(): Partial<Active> {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return {};
  const formats = new Set(
    formatButtons()
      .map(([f]) => f)
      .filter((f) => selection.hasFormat(f)),
  );
  const anchor = selection.anchor.getNode();
  const top = anchor.getKey() === 'root' ? anchor : anchor.getTopLevelElementOrThrow();
  const listNode = $getNearestNodeOfType(anchor, ListNode);
  const block =
    listNode && $isListNode(listNode) ? listNode.getListType() : $isHeadingNode(top) ? top.getTag() : top.getType();
  const parent = anchor.getParent();
  return { formats, block, link: $isLinkNode(parent) || $isLinkNode(anchor) };
}

let styled = false;
function injectStyles(): void {
  if (styled) return;
  styled = true;
  const style = document.createElement('style');
  style.textContent = EDITOR_CSS;
  document.head.append(style);
}
