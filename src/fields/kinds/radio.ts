/** `radio`: one of the field's options (never a list). */
import type { Kind } from './kind.ts';
import { optionsKind } from './options.ts';

export const radio: Kind = optionsKind;
