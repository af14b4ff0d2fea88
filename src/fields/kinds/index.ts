/**
 * Every field type's kind, keyed by type. The record's type names every `FieldType`, so a new type
 * compiles only with its kind; each layer reads what it needs from here instead of switching on types.
 */
import type { FieldType, SanitizedField } from '../../config/types.ts';
import { array } from './array.ts';
import { blocks } from './blocks.ts';
import { checkbox } from './checkbox.ts';
import { code } from './code.ts';
import { collapsible } from './collapsible.ts';
import { date } from './date.ts';
import { email } from './email.ts';
import { group } from './group.ts';
import { join } from './join.ts';
import { json } from './json.ts';
import type { Kind } from './kind.ts';
import { markdown } from './markdown.ts';
import { number } from './number.ts';
import { point } from './point.ts';
import { radio } from './radio.ts';
import { relationship } from './relationship.ts';
import { richText } from './rich-text.ts';
import { row } from './row.ts';
import { select } from './select.ts';
import { tabs } from './tabs.ts';
import { text } from './text.ts';
import { textarea } from './textarea.ts';
import { upload } from './upload.ts';

export const KINDS: Record<FieldType, Kind> = {
  text,
  textarea,
  email,
  number,
  checkbox,
  date,
  select,
  relationship,
  upload,
  json,
  markdown,
  array,
  group,
  blocks,
  radio,
  code,
  point,
  richText,
  join,
  tabs,
  row,
  collapsible,
};

export const kindOf = (field: Pick<SanitizedField, 'type'>): Kind => KINDS[field.type];
