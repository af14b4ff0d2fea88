/** `collapsible`: fields shown in a panel that folds. */
import type { Kind } from './kind.ts';
import { layoutKind } from './layout.ts';

export const collapsible: Kind = layoutKind;
