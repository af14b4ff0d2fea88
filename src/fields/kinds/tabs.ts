/** `tabs`: fields shown on tabs; a named tab stores its fields as a group. */
import type { Kind } from './kind.ts';
import { layoutKind } from './layout.ts';

export const tabs: Kind = layoutKind;
