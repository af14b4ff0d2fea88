/**
 * A block at the end of the text leaves no line to type on. Arrow down (or right) from the end of the
 * text before trailing blocks, or from a selected trailing block, adds a paragraph after them and puts the
 * caret in it. When the caret lands after them some other way (a click below), the paragraph is added as
 * part of the step that put it there: one undo takes both back, and undo itself never adds one.
 */
import {
  $createParagraphNode,
  $getNearestNodeFromDOMNode,
  $getRoot,
  $getSelection,
  $isDecoratorNode,
  $isElementNode,
  $isNodeSelection,
  $isRangeSelection,
  $isRootNode,
  COMMAND_PRIORITY_LOW,
  HISTORIC_TAG,
  HISTORY_MERGE_TAG,
  KEY_ARROW_DOWN_COMMAND,
  KEY_ARROW_RIGHT_COMMAND,
  type LexicalEditor,
  type LexicalNode,
} from 'lexical';
import { mergeRegister } from '@lexical/utils';

const isBlock = (node: LexicalNode | null | undefined) => $isDecoratorNode(node) && !node.isInline();

/** Whether the top-level nodes from `index` on are all blocks, at least one. */
function $onlyBlocksFrom(index: number): boolean {
  const rest = $getRoot().getChildren().slice(index);
  return rest.length > 0 && rest.every(isBlock);
}

/**
 * Whether the browser's caret is at the end of a top-level element with only blocks after it. Read from
 * the page, not the editor's state: a key right after End or a click arrives before the editor has heard of
 * the caret's move.
 */
function $caretAtEndBeforeBlocks(root: HTMLElement | null): boolean {
  const dom = window.getSelection();
  if (!root || !dom || !dom.isCollapsed || !dom.focusNode || !root.contains(dom.focusNode)) return false;
  let top: Node | null = dom.focusNode;
  while (top && top.parentNode !== root) top = top.parentNode;
  if (!top) return false;
  const rest = document.createRange();
  rest.setStart(dom.focusNode, dom.focusOffset);
  rest.setEnd(top, top.childNodes.length);
  if (rest.toString() !== '') return false;
  const node = $getNearestNodeFromDOMNode(top);
  return node !== null && $isRootNode(node.getParent()) && $onlyBlocksFrom(node.getIndexWithinParent() + 1);
}

/** Whether the selection is at the end of what can be typed in, with only blocks after it. */
function $beforeTrailingBlocks(): boolean {
  const selection = $getSelection();
  if ($isNodeSelection(selection)) {
    const nodes = selection.getNodes();
    return (
      nodes.length === 1 && $isRootNode(nodes[0]!.getParent()) && $onlyBlocksFrom(nodes[0]!.getIndexWithinParent())
    );
  }
  if (!$isRangeSelection(selection) || !selection.isCollapsed()) return false;
  const anchor = selection.anchor;
  const node = anchor.getNode();
  if ($isRootNode(node)) return $onlyBlocksFrom(anchor.offset);
  const top = node.getTopLevelElement();
  if (!top || !$onlyBlocksFrom(top.getIndexWithinParent() + 1)) return false;
  if (anchor.type === 'text') return anchor.offset === node.getTextContentSize() && node.is(top.getLastDescendant());
  return (
    $isElementNode(node) &&
    anchor.offset === node.getChildrenSize() &&
    (node.is(top) || node.is(top.getLastDescendant()))
  );
}

function $caretAfterTrailingBlock(): boolean {
  const selection = $getSelection();
  if (!$isRangeSelection(selection) || !selection.isCollapsed() || selection.anchor.type !== 'element') return false;
  const node = selection.anchor.getNode();
  return $isRootNode(node) && selection.anchor.offset === node.getChildrenSize() && isBlock(node.getLastChild());
}

function $appendParagraph(): void {
  const paragraph = $createParagraphNode();
  $getRoot().append(paragraph);
  paragraph.select();
}

export function registerTrailingParagraph(editor: LexicalEditor): () => void {
  const onArrow = (event: KeyboardEvent | null) => {
    if (event?.shiftKey || !($beforeTrailingBlocks() || $caretAtEndBeforeBlocks(editor.getRootElement()))) return false;
    event?.preventDefault();
    $appendParagraph();
    return true;
  };
  return mergeRegister(
    editor.registerCommand(KEY_ARROW_DOWN_COMMAND, onArrow, COMMAND_PRIORITY_LOW),
    editor.registerCommand(KEY_ARROW_RIGHT_COMMAND, onArrow, COMMAND_PRIORITY_LOW),
    editor.registerUpdateListener(({ editorState, tags }) => {
      if (tags.has(HISTORIC_TAG) || !editorState.read($caretAfterTrailingBlock)) return;
      editor.update(() => $caretAfterTrailingBlock() && $appendParagraph(), { tag: HISTORY_MERGE_TAG });
    }),
  );
}
