/**
 * What publishing will ask for: required fields still empty, by dotted path, at every depth (groups, named
 * tabs, array rows, block rows). Drafts are saved without these checks, so autosave goes on meanwhile and the
 * form lists them before the editor publishes.
 */
import type { Doc, Field } from '../api.ts';
import { dataFields } from './values.ts';

type Node = { type?: string; text?: string; children?: Node[] };

/** Rich text with nothing in it: no text, and nothing but empty paragraphs. */
function emptyRichText(v: unknown): boolean {
  const root = (v as { root?: Node } | null)?.root;
  if (!root) return true;
  const hasContent = (n: Node): boolean =>
    (n.type === 'text' && Boolean(n.text?.trim())) ||
    (n.type !== 'paragraph' && n.type !== 'root' && n.type !== 'text' && n.type !== 'linebreak') ||
    (n.children ?? []).some(hasContent);
  return !hasContent(root);
}

function isEmpty(f: Field, v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (f.type === 'richText') return emptyRichText(v);
  return false;
}

const NOTHING_HIDDEN: Record<string, boolean> = {};

/** Paths of required fields without a value; `visible` false (a field's condition) leaves a field out. */
export function missingRequired(
  fields: Field[],
  values: Doc,
  visible: Record<string, boolean> = NOTHING_HIDDEN,
  prefix = '',
): string[] {
  const out: string[] = [];
  for (const f of dataFields(fields)) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    if (visible[path] === false || f.admin?.readOnly || f.type === 'checkbox') continue;
    const v = values?.[f.name];
    if (f.required && isEmpty(f, v)) out.push(path);
    if (f.type === 'group' && v && typeof v === 'object')
      out.push(...missingRequired(f.fields ?? [], v as Doc, visible, path));
    if ((f.type === 'array' || f.type === 'blocks') && Array.isArray(v))
      v.forEach((row: Doc, i) => {
        const rowFields =
          f.type === 'blocks' ? (f.blocks ?? []).find((b) => b.slug === row?.blockType)?.fields : f.fields;
        if (rowFields) out.push(...missingInRow(rowFields, row, visible, `${path}.${i}`));
      });
  }
  return out;
}

type RowAnswer = { fields: Field[]; visible: Record<string, boolean>; path: string; missing: string[] };
/** The last answer for each row object: a row nobody typed in is the same object, so it is not walked again. */
const rowAnswers = new WeakMap<object, RowAnswer>();

function missingInRow(fields: Field[], row: Doc, visible: Record<string, boolean>, path: string): string[] {
  if (!row || typeof row !== 'object') return missingRequired(fields, row, visible, path);
  const kept = rowAnswers.get(row);
  if (kept && kept.fields === fields && kept.visible === visible && kept.path === path) return kept.missing;
  const missing = missingRequired(fields, row, visible, path);
  rowAnswers.set(row, { fields, visible, path, missing });
  return missing;
}
