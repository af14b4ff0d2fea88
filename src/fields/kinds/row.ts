/** `row`: fields shown side by side. */
import type { Kind } from './kind.ts';
import { layoutKind } from './layout.ts';

export const row: Kind = layoutKind;
